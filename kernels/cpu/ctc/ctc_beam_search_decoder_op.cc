// CTCBeamSearchDecoder on the CPU: the top_paths most probable label sequences of each batch
// row by TensorFlow's beam search (ctc_beam_search.h) with its default scorer, and their
// log-probabilities. The blank is the last class. With merge_repeated, equal consecutive labels
// of a prefix are merged in the output (even those the search kept apart by a blank), as in
// TensorFlow. Batch rows are decoded one after the other, as TensorFlow does.
#include <algorithm>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/ctc/ctc_beam_search.h"
#include "kernels/cpu/ctc/ctc_decoder_util.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class CTCBeamSearchDecoderOp : public OpKernel {
 public:
  explicit CTCBeamSearchDecoderOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("merge_repeated", &merge_repeated_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("beam_width", &beam_width_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("top_paths", &top_paths_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& inputs = ctx->input(0);
    const Tensor& sequence_length = ctx->input(1);
    ctc::DecoderDims dims;
    OP_REQUIRES_OK(ctx, ctc::ValidateDecoderInputs(inputs, sequence_length, &dims));
    TensorShape scores_shape;
    OP_REQUIRES_OK(ctx,
                   TensorShape::BuildTensorShape({dims.batch_size, top_paths_}, &scores_shape));
    Tensor* log_probability = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3 * top_paths_, scores_shape, &log_probability));
    ctc::DecodedPaths decoded;
    OP_REQUIRES_OK(ctx, decoded.Allocate(ctx, top_paths_, dims.batch_size, dims.max_time));
    // One row's paths before they are spread over the outputs.
    ScratchArray<int32_t> labels;
    ScratchArray<int64_t> lengths;
    OP_REQUIRES_OK(ctx, labels.Allocate(ctx, int64_t{top_paths_} * dims.max_time));
    OP_REQUIRES_OK(ctx, lengths.Allocate(ctx, top_paths_));

    const T* logits = inputs.flat<T>().data();
    const int32_t* seq_len = sequence_length.flat<int32_t>().data();
    T* scores = log_probability->flat<T>().data();
    ctc::CtcBeamSearch<T> search(ctx, dims.num_classes, beam_width_);
    for (int64_t b = 0; b < dims.batch_size; ++b) {
      OP_REQUIRES_OK(ctx, search.Reset());
      for (int64_t t = 0; t < seq_len[b]; ++t) {
        OP_REQUIRES_OK(ctx, search.Step(logits + (t * dims.batch_size + b) * dims.num_classes));
      }
      OP_REQUIRES_OK(ctx, search.TopPaths(top_paths_, merge_repeated_, dims.max_time, labels.data(),
                                          lengths.data(), scores + b * top_paths_));
      for (int p = 0; p < top_paths_; ++p) {
        const int32_t* from = labels.data() + p * dims.max_time;
        std::copy(from, from + lengths[p], decoded.Labels(p, b));
        decoded.Length(p, b) = lengths[p];
      }
    }
    OP_REQUIRES_OK(ctx, decoded.Output(ctx));
  }

 private:
  bool merge_repeated_ = true;
  int beam_width_ = 1;
  int top_paths_ = 1;
};

#define REGISTER_CPU(T)                                                                           \
  REGISTER_KERNEL_BUILDER(Name("CTCBeamSearchDecoder").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          CTCBeamSearchDecoderOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
