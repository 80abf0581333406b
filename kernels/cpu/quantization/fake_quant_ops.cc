// FakeQuantWithMinMaxArgs (range in attrs), FakeQuantWithMinMaxVars (range as scalar inputs)
// and FakeQuantWithMinMaxVarsPerChannel (a range per last-dimension channel): each value is
// clamped to the range nudged so that zero lies on the grid, then rounded to the grid.
//
// The arithmetic is TensorFlow's, operation for operation, so the outputs are its bits: the
// nudged range in float; then floor((clamp(x) - nudged_min) * (1 / scale) - zero + 0.5) *
// scale for Args and PerChannel, and the same with a division by scale for Vars. NaN inputs
// stay NaN. Vars and PerChannel take a range of [0, 0] as "output zeros"; like TensorFlow,
// they do not check min < max (Args does, at construction).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The grid [quant_min, quant_max] of a num_bits integer, from the node's attrs.
absl::Status ReadGrid(OpKernelConstruction* ctx, int* quant_min, int* quant_max) {
  int64_t num_bits = 0;
  bool narrow_range = false;
  RETURN_IF_ERROR(ctx->GetAttr("num_bits", &num_bits));
  RETURN_IF_ERROR(ctx->GetAttr("narrow_range", &narrow_range));
  if (num_bits < 2 || num_bits > 16) {
    return errors::InvalidArgument("num_bits must be between 2 and 16, inclusive");
  }
  *quant_min = narrow_range ? 1 : 0;
  *quant_max = (1 << num_bits) - 1;
  return absl::OkStatus();
}

// The range nudged so that zero is a grid point, and the step between grid points.
struct NudgedRange {
  NudgedRange(float min, float max, int quant_min, int quant_max) {
    const float qmin = static_cast<float>(quant_min);
    const float qmax = static_cast<float>(quant_max);
    scale = (max - min) / (qmax - qmin);
    inverse_scale = (qmax - qmin) / (max - min);
    const float zero_from_min = qmin - min / scale;
    uint16_t zero;
    // A NaN or infinite range makes zero_from_min NaN; every output is then NaN whatever the
    // zero point, so take quant_min rather than cast NaN to an integer (TensorFlow's undefined
    // behaviour).
    if (std::isnan(zero_from_min) || zero_from_min < qmin) {
      zero = static_cast<uint16_t>(quant_min);
    } else if (zero_from_min > qmax) {
      zero = static_cast<uint16_t>(quant_max);
    } else {
      zero = static_cast<uint16_t>(std::round(zero_from_min));
    }
    nudged_min = (qmin - zero) * scale;
    nudged_max = (qmax - zero) * scale;
    quant_zero = std::floor(-nudged_min * inverse_scale + 0.5f);
  }

  // x clamped (a NaN passes through both comparisons) and shifted to the range's start.
  float Shifted(float x) const {
    return std::max(std::min(x, nudged_max), nudged_min) - nudged_min;
  }
  float ByInverse(float x) const {
    return std::floor(Shifted(x) * inverse_scale - quant_zero + 0.5f) * scale;
  }
  float ByDivision(float x) const {
    return std::floor(Shifted(x) / scale - quant_zero + 0.5f) * scale;
  }

  float scale, inverse_scale, nudged_min, nudged_max, quant_zero;
};

// out[i] = fn(in[i]) over the pool.
template <typename Fn>
void Apply(OpKernelContext* ctx, const float* in, float* out, int64_t n, Fn fn) {
  ParallelFor(ctx, n, n, Eigen::TensorOpCost(4, 4, 10), [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) out[i] = fn(in[i]);
  });
}

class FakeQuantWithMinMaxArgsOp : public OpKernel {
 public:
  explicit FakeQuantWithMinMaxArgsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadGrid(ctx, &quant_min_, &quant_max_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("min", &min_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max", &max_));
    OP_REQUIRES(
        ctx, min_ < max_,
        errors::InvalidArgument("min has to be smaller than max, was: ", min_, " >= ", max_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &out));
    const NudgedRange range(min_, max_, quant_min_, quant_max_);
    Apply(ctx, input.flat<float>().data(), out->flat<float>().data(), input.NumElements(),
          [&range](float x) { return range.ByInverse(x); });
  }

 private:
  int quant_min_ = 0, quant_max_ = 0;
  float min_ = 0, max_ = 0;
};

class FakeQuantWithMinMaxVarsOp : public OpKernel {
 public:
  explicit FakeQuantWithMinMaxVarsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadGrid(ctx, &quant_min_, &quant_max_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& min = ctx->input(1);
    const Tensor& max = ctx->input(2);
    OP_REQUIRES(ctx, min.dims() == 0,
                errors::InvalidArgument("`min` must be rank 0 but is rank ", min.dims()));
    OP_REQUIRES(ctx, max.dims() == 0,
                errors::InvalidArgument("`max` must be rank 0 but is rank ", max.dims()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &out));
    const float min_value = min.scalar<float>()();
    const float max_value = max.scalar<float>()();
    const float* in = input.flat<float>().data();
    float* result = out->flat<float>().data();
    const int64_t n = input.NumElements();
    if (min_value == 0.0f && max_value == 0.0f) {
      Apply(ctx, in, result, n, [](float) { return 0.0f; });
      return;
    }
    const NudgedRange range(min_value, max_value, quant_min_, quant_max_);
    Apply(ctx, in, result, n, [&range](float x) { return range.ByDivision(x); });
  }

 private:
  int quant_min_ = 0, quant_max_ = 0;
};

class FakeQuantWithMinMaxVarsPerChannelOp : public OpKernel {
 public:
  explicit FakeQuantWithMinMaxVarsPerChannelOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadGrid(ctx, &quant_min_, &quant_max_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& min = ctx->input(1);
    const Tensor& max = ctx->input(2);
    // TensorFlow's kernel CHECK-fails on a scalar input; the shape function's rule is kept.
    OP_REQUIRES(ctx, input.dims() >= 1,
                errors::InvalidArgument("inputs must be at least rank 1, got shape ",
                                        input.shape().DebugString()));
    // The ranks first, then the sizes, as TensorFlow reports them (TFSA-2022-106).
    OP_REQUIRES(ctx, min.dims() == 1,
                errors::InvalidArgument("`min` must be rank 1 but is rank ", min.dims()));
    OP_REQUIRES(ctx, max.dims() == 1,
                errors::InvalidArgument("`max` must be rank 1 but is rank ", max.dims()));
    const int64_t depth = input.dim_size(input.dims() - 1);
    OP_REQUIRES(ctx, min.dim_size(0) == depth,
                errors::InvalidArgument("min has incorrect size, expected ", depth, " was ",
                                        min.dim_size(0)));
    OP_REQUIRES(ctx, max.dim_size(0) == depth,
                errors::InvalidArgument("max has incorrect size, expected ", depth, " was ",
                                        max.dim_size(0)));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &out));
    const int64_t rows = depth == 0 ? 0 : input.NumElements() / depth;
    const float* mins = min.flat<float>().data();
    const float* maxs = max.flat<float>().data();
    const float* in = input.flat<float>().data();
    float* result = out->flat<float>().data();
    ParallelFor(ctx, rows, input.NumElements(),
                Eigen::TensorOpCost(4 * depth, 4 * depth, 10 * depth),
                [&](int64_t first, int64_t last) {
                  for (int64_t c = 0; c < depth; ++c) {
                    if (mins[c] == 0.0f && maxs[c] == 0.0f) {
                      for (int64_t r = first; r < last; ++r) result[r * depth + c] = 0.0f;
                      continue;
                    }
                    const NudgedRange range(mins[c], maxs[c], quant_min_, quant_max_);
                    for (int64_t r = first; r < last; ++r) {
                      result[r * depth + c] = range.ByInverse(in[r * depth + c]);
                    }
                  }
                });
  }

 private:
  int quant_min_ = 0, quant_max_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxArgs").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxArgsOp);
REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxVars").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxVarsOp);
REGISTER_KERNEL_BUILDER(Name("FakeQuantWithMinMaxVarsPerChannel").Device(DEVICE_CPU),
                        FakeQuantWithMinMaxVarsPerChannelOp);

}  // namespace
}  // namespace sluice
