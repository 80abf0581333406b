// RGBToHSV and HSVToRGB on the CPU, over the last dim (3 channels) of any tensor.
//
// Each pixel goes through TensorFlow's Eigen expressions one operation at a time in T (so
// half and bfloat16 round after every operation, as Eigen's do), with its NaN behaviour:
// the channel max and min are Eigen's reductions, which start from -inf (+inf) and replace
// the running value unless the new channel is smaller (larger), so a NaN channel survives
// only when it is the last one; clamping keeps NaN.
//   RGBToHSV: V = max, range = V - min, S = V > 0 ? range / V : 0,
//             H from the channel equal to V, 0 where range <= 0, wrapped into [0, 1).
//   HSVToRGB: each channel is (1 - S + S * clamp(f(6 H))) * V.
// The channel dim is checked first (FAILED_PRECONDITION unless 3, as TensorFlow).
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Eigen's scalar max and min of a running value and a new one (std::max/min argument order).
template <typename T>
T RunningMax(T running, T value) {
  return value < running ? running : value;
}
template <typename T>
T RunningMin(T running, T value) {
  return running < value ? running : value;
}
template <typename T>
T Clamp01(T x) {
  const T at_least_zero = x < T(0) ? T(0) : x;
  return T(1) < at_least_zero ? T(1) : at_least_zero;
}

template <typename T>
void RgbToHsv(const T* in, T* out) {
  const T r = in[0], g = in[1], b = in[2];
  T v = -Eigen::NumTraits<T>::infinity();
  T lo = Eigen::NumTraits<T>::infinity();
  for (int c = 0; c < 3; ++c) {
    v = RunningMax(v, in[c]);
    lo = RunningMin(lo, in[c]);
  }
  const T range = static_cast<T>(v - lo);
  const T s = v > T(0) ? static_cast<T>(range / v) : T(0);
  const T norm = static_cast<T>(static_cast<T>(T(1) / range) * static_cast<T>(T(1) / T(6)));
  T h;
  if (r == v) {
    h = static_cast<T>(norm * static_cast<T>(g - b));
  } else if (g == v) {
    h = static_cast<T>(static_cast<T>(norm * static_cast<T>(b - r)) + static_cast<T>(T(2) / T(6)));
  } else {
    h = static_cast<T>(static_cast<T>(norm * static_cast<T>(r - g)) + static_cast<T>(T(4) / T(6)));
  }
  if (!(range > T(0))) h = T(0);
  if (h < T(0)) h = static_cast<T>(h + T(1));
  out[0] = h;
  out[1] = s;
  out[2] = v;
}

template <typename T>
void HsvToRgb(const T* in, T* out) {
  using Eigen::numext::abs;
  const T h = in[0], s = in[1], v = in[2];
  const T dh = static_cast<T>(h * T(6));
  const T dr = Clamp01(static_cast<T>(abs(static_cast<T>(dh - T(3))) - T(1)));
  const T dg = Clamp01(static_cast<T>(static_cast<T>(-abs(static_cast<T>(dh - T(2)))) + T(2)));
  const T db = Clamp01(static_cast<T>(static_cast<T>(-abs(static_cast<T>(dh - T(4)))) + T(2)));
  const T one_minus_s = static_cast<T>(T(1) - s);
  const T d[3] = {dr, dg, db};
  for (int c = 0; c < 3; ++c) {
    out[c] = static_cast<T>(static_cast<T>(one_minus_s + static_cast<T>(s * d[c])) * v);
  }
}

template <typename T, bool kToHsv>
class ColorspaceOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, input.dims() >= 1,
                errors::InvalidArgument("input must be at least 1D", input.shape().DebugString()));
    const int64_t channels = input.dim_size(input.dims() - 1);
    OP_REQUIRES(ctx, channels == 3,
                errors::FailedPrecondition("input must have 3 channels but input only has ",
                                           channels, " channels."));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    const int64_t pixels = input.NumElements() / 3;
    if (pixels == 0) return;
    const T* in = input.base<T>();
    T* out = output->base<T>();
    const Eigen::TensorOpCost cost(3 * sizeof(T), 3 * sizeof(T), 20);
    ParallelFor(ctx, pixels, input.NumElements(), cost, [&](int64_t first, int64_t last) {
      for (int64_t p = first; p < last; ++p) {
        if (kToHsv) {
          RgbToHsv<T>(in + 3 * p, out + 3 * p);
        } else {
          HsvToRgb<T>(in + 3 * p, out + 3 * p);
        }
      }
    });
  }
};

#define REGISTER_CPU(T)                                                               \
  REGISTER_KERNEL_BUILDER(Name("RGBToHSV").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ColorspaceOp<T, true>);                                     \
  REGISTER_KERNEL_BUILDER(Name("HSVToRGB").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ColorspaceOp<T, false>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
