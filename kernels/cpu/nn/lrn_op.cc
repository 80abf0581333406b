// LRN (local response normalization) on the CPU, over the channels of a 4-D NHWC tensor
// (TensorFlow's semantics):
//
//   sqr_sum[n, h, w, d] = sum(input[n, h, w, d - depth_radius : d + depth_radius + 1] ** 2)
//   output = input / (bias + alpha * sqr_sum) ** beta
//
// where the channel range is clipped to the tensor. Registered for float and half, as in
// TensorFlow's CPU kernels; half computes in float.
//
// Algorithm: pixels split over the intra-op pool; per pixel a prefix sum of squares (in
// double, so the windowed differences lose nothing) gives each channel's sqr_sum in O(1).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

struct LrnParams {
  int64_t radius;
  float bias;
  float alpha;
  float beta;
};

// `prefix` is scratch of depth + 1 doubles.
template <typename T>
void LrnPixels(const LrnParams& p, const T* in, T* out, int64_t depth, int64_t first, int64_t last,
               double* prefix) {
  for (int64_t pixel = first; pixel < last; ++pixel) {
    const T* x = in + pixel * depth;
    T* y = out + pixel * depth;
    prefix[0] = 0;
    for (int64_t d = 0; d < depth; ++d) {
      const double v = static_cast<double>(static_cast<float>(x[d]));
      prefix[d + 1] = prefix[d] + v * v;
    }
    for (int64_t d = 0; d < depth; ++d) {
      const int64_t lo = std::max<int64_t>(0, d - p.radius);
      const int64_t hi = std::min<int64_t>(depth, d + p.radius + 1);
      const double sqr_sum = prefix[hi] - prefix[lo];
      const double scale = p.bias + p.alpha * sqr_sum;
      double multiplier;
      if (p.beta == 1.0f) {
        multiplier = 1.0 / scale;
      } else if (p.beta == 0.5f) {
        multiplier = 1.0 / std::sqrt(scale);
      } else {
        multiplier = std::pow(scale, -static_cast<double>(p.beta));
      }
      y[d] = static_cast<T>(static_cast<float>(static_cast<float>(x[d]) * multiplier));
    }
  }
}

template <typename T>
class LrnOp : public OpKernel {
 public:
  explicit LrnOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int64_t radius;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("depth_radius", &radius));
    // TensorFlow keeps the radius in an int and rejects what does not fit below INT_MAX.
    OP_REQUIRES(ctx, radius >= 0 && radius < std::numeric_limits<int>::max(),
                errors::InvalidArgument("depth_radius = ", radius, " larger than int max"));
    params_.radius = radius;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("bias", &params_.bias));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &params_.alpha));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("beta", &params_.beta));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, input.dims() == 4, errors::InvalidArgument("in must be 4-dimensional"));
    OP_REQUIRES(ctx, input.NumElements() <= std::numeric_limits<int>::max(),
                errors::InvalidArgument("argument to LRN too large"));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    const int64_t n = input.NumElements();
    if (n == 0) return;
    const int64_t depth = input.dim_size(3);
    const T* in = input.flat<T>().data();
    T* out = output->flat<T>().data();
    const double d = static_cast<double>(depth);
    const Eigen::TensorOpCost pixel_cost(d * sizeof(T), d * sizeof(T), d * 30);
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<double>(
                            ctx, n / depth, n, pixel_cost, depth + 1,
                            [&](int64_t first, int64_t last, double* prefix) {
                              LrnPixels<T>(params_, in, out, depth, first, last, prefix);
                            }));
  }

 private:
  LrnParams params_;
};

#define REGISTER_LRN(T) \
  REGISTER_KERNEL_BUILDER(Name("LRN").Device(DEVICE_CPU).TypeConstraint<T>("T"), LrnOp<T>);
SLUICE_CALL_float(REGISTER_LRN) SLUICE_CALL_half(REGISTER_LRN)
#undef REGISTER_LRN

}  // namespace
}  // namespace sluice
