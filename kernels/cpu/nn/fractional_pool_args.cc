// See fractional_pool_args.h. Sizes are computed as TensorFlow computes them: each dim as an
// int, divided by its float ratio in float and floored.
#include "kernels/cpu/nn/fractional_pool_args.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/nn/fractional_pool_sequence.h"
#include "kernels/cpu/random/philox.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// A seed from the system's entropy, as TensorFlow's for unseeded generators.
int64_t RandomSeed() {
  std::random_device entropy;
  return static_cast<int64_t>(uint64_t{entropy()} << 32 | entropy());
}

}  // namespace

absl::Status FractionalPoolArgs::Init(OpKernelConstruction* ctx, absl::string_view pooling) {
  RETURN_IF_ERROR(ctx->GetAttr("pooling_ratio", &ratio_));
  RETURN_IF_ERROR(ctx->GetAttr("pseudo_random", &pseudo_random_));
  RETURN_IF_ERROR(ctx->GetAttr("overlapping", &overlapping_));
  if (ratio_.size() != 4) {
    return errors::InvalidArgument("pooling_ratio field must specify 4 dimensions");
  }
  for (const float ratio : ratio_) {
    if (!(ratio >= 1)) {
      return errors::InvalidArgument("pooling_ratio cannot be smaller than 1, got: ", ratio);
    }
  }
  if (ratio_[0] != 1 || ratio_[3] != 1) {
    return errors::Unimplemented("Fractional ", pooling,
                                 " pooling is not yet supported on the batch nor channel "
                                 "dimension.");
  }
  RETURN_IF_ERROR(ctx->GetAttr("deterministic", &deterministic_));
  RETURN_IF_ERROR(ctx->GetAttr("seed", &seed_));
  RETURN_IF_ERROR(ctx->GetAttr("seed2", &seed2_));
  if (deterministic_) {
    if (seed_ == 0 && seed2_ == 0) {
      seed_ = RandomSeed();
      seed2_ = RandomSeed();
    }
  } else if (seed_ != 0 || seed2_ != 0) {
    return errors::InvalidArgument("Both seed and seed2 should be 0 if deterministic is false.");
  }
  return absl::OkStatus();
}

absl::Status FractionalPoolArgs::Prepare(OpKernelContext* ctx, const Tensor& input,
                                         FractionalPoolWindows* windows, Tensor** output) const {
  if (input.dims() != 4) return errors::InvalidArgument("tensor_in must be 4-dimensional");
  int64_t in_size[4];
  int64_t out_size[4];
  for (int i = 0; i < 4; ++i) {
    in_size[i] = input.dim_size(i);
    // TensorFlow holds the sizes in int.
    if (in_size[i] > std::numeric_limits<int32_t>::max()) {
      return errors::InvalidArgument("Input dimension ", i, " of size ", in_size[i],
                                     " exceeds the largest int32");
    }
    const float size = static_cast<float>(in_size[i]);
    if (!(size >= ratio_[i])) {
      return errors::InvalidArgument(
          "Pooling ratio is higher than input dimension size for dimension ", i,
          ". Input dim size: ", in_size[i], " pooling ratio: ", ratio_[i]);
    }
    out_size[i] = static_cast<int32_t>(std::floor(size / ratio_[i]));
  }
  // The batch and depth divide by 1; only a size past float's integers (2^24) could round.
  if (out_size[0] != in_size[0] || out_size[3] != in_size[3]) {
    return errors::InvalidArgument("Input batch ", in_size[0], " and depth ", in_size[3],
                                   " are too large to pool");
  }
  for (int i = 1; i <= 2; ++i) {
    if (out_size[i] < 1 || out_size[i] > in_size[i]) {
      return errors::InvalidArgument("Pooled size ", out_size[i], " of dimension ", i,
                                     " is out of range for input size ", in_size[i]);
    }
  }

  const int64_t seed = deterministic_ ? seed_ : RandomSeed();
  const int64_t seed2 = deterministic_ ? seed2_ : RandomSeed();
  random::Philox4x32 stream =
      random::Philox4x32::FromSeedPair(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
  Tensor* rows = nullptr;
  Tensor* cols = nullptr;
  // shape-safe: each size lies in [1, its input dim], checked above
  RETURN_IF_ERROR(ctx->allocate_output(1, TensorShape({out_size[1] + 1}), &rows));
  // shape-safe: as above
  RETURN_IF_ERROR(ctx->allocate_output(2, TensorShape({out_size[2] + 1}), &cols));
  int64_t* row_seq = rows->flat<int64_t>().data();
  int64_t* col_seq = cols->flat<int64_t>().data();
  FractionalPoolingSequence(static_cast<int32_t>(in_size[1]), static_cast<int32_t>(out_size[1]),
                            pseudo_random_, &stream, row_seq);
  FractionalPoolingSequence(static_cast<int32_t>(in_size[2]), static_cast<int32_t>(out_size[2]),
                            pseudo_random_, &stream, col_seq);
  // shape-safe: as above
  RETURN_IF_ERROR(ctx->allocate_output(
      0, TensorShape({out_size[0], out_size[1], out_size[2], out_size[3]}), output));

  windows->batch = in_size[0];
  windows->in_rows = in_size[1];
  windows->in_cols = in_size[2];
  windows->depth = in_size[3];
  windows->out_rows = out_size[1];
  windows->out_cols = out_size[2];
  windows->rows = row_seq;
  windows->cols = col_seq;
  windows->overlapping = overlapping_;
  return absl::OkStatus();
}

}  // namespace sluice
