#include "kernels/cpu/ctc/ctc_decoder_util.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"

namespace sluice {
namespace ctc {

absl::Status ValidateDecoderInputs(const Tensor& inputs, const Tensor& sequence_length,
                                   DecoderDims* dims) {
  if (inputs.dims() != 3) return errors::InvalidArgument("inputs is not a 3-Tensor");
  if (inputs.NumElements() == 0) return errors::InvalidArgument("inputs must not be empty");
  const int64_t max_time = inputs.dim_size(0);
  const int64_t batch_size = inputs.dim_size(1);
  if (sequence_length.dims() != 1) {
    return errors::InvalidArgument("sequence_length is not a vector");
  }
  if (sequence_length.dim_size(0) != batch_size) {
    return errors::FailedPrecondition(
        "len(sequence_length) != batch_size.  len(sequence_length):  ", sequence_length.dim_size(0),
        " batch_size: ", batch_size);
  }
  const int32_t* lengths = sequence_length.flat<int32_t>().data();
  for (int64_t b = 0; b < batch_size; ++b) {
    if (!(lengths[b] <= max_time)) {
      return errors::FailedPrecondition("sequence_length(", b, ") <= ", max_time);
    }
  }
  if (inputs.dim_size(2) > std::numeric_limits<int>::max()) {
    return errors::InvalidArgument("num_classes cannot exceed max int");
  }
  dims->max_time = max_time;
  dims->batch_size = batch_size;
  dims->num_classes = static_cast<int>(inputs.dim_size(2));
  return absl::OkStatus();
}

absl::Status DecodedPaths::Allocate(OpKernelContext* ctx, int paths, int64_t batch_size,
                                    int64_t max_time) {
  paths_ = paths;
  batch_size_ = batch_size;
  max_time_ = max_time;
  const int64_t slots = MultiplyWithoutOverflow(paths, batch_size);
  const int64_t labels = MultiplyWithoutOverflow(slots, max_time);
  if (slots < 0 || labels < 0) {
    return errors::ResourceExhausted("too many decoded labels for ", paths, " paths of ",
                                     batch_size, " sequences of ", max_time, " steps");
  }
  RETURN_IF_ERROR(labels_.Allocate(ctx, labels));
  return lengths_.Allocate(ctx, slots);
}

absl::Status DecodedPaths::Output(OpKernelContext* ctx) {
  for (int p = 0; p < paths_; ++p) {
    int64_t total = 0;
    int64_t longest = 0;
    for (int64_t b = 0; b < batch_size_; ++b) {
      total += Length(p, b);
      longest = std::max(longest, Length(p, b));
    }
    Tensor* indices = nullptr;
    Tensor* values = nullptr;
    Tensor* shape = nullptr;
    // shape-safe: total <= batch_size * max_time, the size of the labels' scratch
    RETURN_IF_ERROR(ctx->allocate_output(p, TensorShape({total, 2}), &indices));
    // shape-safe: as above
    RETURN_IF_ERROR(ctx->allocate_output(paths_ + p, TensorShape({total}), &values));
    RETURN_IF_ERROR(ctx->allocate_output(2 * paths_ + p, TensorShape({2}), &shape));
    int64_t* index = indices->flat<int64_t>().data();
    int64_t* value = values->flat<int64_t>().data();
    for (int64_t b = 0; b < batch_size_; ++b) {
      const int32_t* labels = Labels(p, b);
      for (int64_t i = 0; i < Length(p, b); ++i) {
        *index++ = b;
        *index++ = i;
        *value++ = labels[i];
      }
    }
    shape->flat<int64_t>()(0) = batch_size_;
    shape->flat<int64_t>()(1) = longest;
  }
  return absl::OkStatus();
}

}  // namespace ctc
}  // namespace sluice
