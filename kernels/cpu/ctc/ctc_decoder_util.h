// What the CTC decoders (CTCGreedyDecoder, CTCBeamSearchDecoder) share: TensorFlow's checks of
// the logits and sequence lengths, with its codes and messages (a length past max_time is
// FAILED_PRECONDITION, as are mismatched batch sizes), and the writing of decoded label
// sequences as SparseTensors (indices [n, 2] of (batch, position), values, dense shape
// [batch, longest]).
#ifndef SLUICE_KERNELS_CPU_CTC_CTC_DECODER_UTIL_H_
#define SLUICE_KERNELS_CPU_CTC_CTC_DECODER_UTIL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace ctc {

// The logits' dims once ValidateDecoderInputs accepted them.
struct DecoderDims {
  int64_t max_time = 0;
  int64_t batch_size = 0;
  int num_classes = 0;
};

// Checks inputs (3-D, not empty) and sequence_length (a vector of batch_size lengths, none past
// max_time), in TensorFlow's order. Negative lengths are accepted: they decode nothing.
absl::Status ValidateDecoderInputs(const Tensor& inputs, const Tensor& sequence_length,
                                   DecoderDims* dims);

// Decoded label sequences: for each of `paths` paths and each batch row, up to max_time labels.
class DecodedPaths {
 public:
  absl::Status Allocate(OpKernelContext* ctx, int paths, int64_t batch_size, int64_t max_time);

  // The labels of (path, b); Length(path, b) of them are valid.
  int32_t* Labels(int path, int64_t b) { return labels_.data() + Slot(path, b) * max_time_; }
  int64_t& Length(int path, int64_t b) { return lengths_[Slot(path, b)]; }

  // Writes path p as outputs p (indices), paths + p (values) and 2 * paths + p (shape).
  absl::Status Output(OpKernelContext* ctx);

 private:
  int64_t Slot(int path, int64_t b) const { return path * batch_size_ + b; }

  int paths_ = 0;
  int64_t batch_size_ = 0;
  int64_t max_time_ = 0;
  ScratchArray<int32_t> labels_;
  ScratchArray<int64_t> lengths_;
};

}  // namespace ctc
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CTC_CTC_DECODER_UTIL_H_
