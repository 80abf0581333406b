// HistogramFixedWidth on the CPU: out[i] counts the values whose bin is i, of nbins equal bins
// over value_range [lo, hi]; values below lo fall in bin 0, values from hi up in the last.
//
// Checked as TensorFlow does, in its order and with its messages: value_range a vector of two
// elements, nbins a scalar, lo < hi, nbins > 0, then no NaN among the values. The bin is
// TensorFlow's arithmetic, in double: step = hi / nbins - lo / nbins, and
// bin = int32(min((double(clamp(x, lo, hi)) - lo) / step, nbins - 1)). Where that quotient is
// not a number (a step that rounds to zero, for int64 ranges narrower than a double's
// precision), TensorFlow's cast indexes out of bounds; Sluice counts the value in bin 0.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T, typename Out>
class HistogramFixedWidthOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& values = ctx->input(0);
    const Tensor& range = ctx->input(1);
    const Tensor& nbins_t = ctx->input(2);
    OP_REQUIRES(ctx, range.dims() == 1, errors::InvalidArgument("value_range should be a vector."));
    OP_REQUIRES(ctx, range.NumElements() == 2,
                errors::InvalidArgument("value_range should be a vector of 2 elements."));
    OP_REQUIRES(ctx, nbins_t.dims() == 0, errors::InvalidArgument("nbins should be a scalar."));
    const T lo = range.base<T>()[0];
    const T hi = range.base<T>()[1];
    const int32_t nbins = *nbins_t.base<int32_t>();
    OP_REQUIRES(ctx, lo < hi,
                errors::InvalidArgument(
                    "value_range should satisfy value_range[0] < value_range[1], but got '[", lo,
                    ", ", hi, "]'"));
    OP_REQUIRES(
        ctx, nbins > 0,
        errors::InvalidArgument("nbins should be a positive number, but got '", nbins, "'"));
    Tensor* output = nullptr;
    // shape-safe: 0 < nbins <= INT32_MAX, checked above
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({nbins}), &output));
    const T* x = values.base<T>();
    const int64_t n = values.NumElements();
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, !std::isnan(static_cast<double>(x[i])),
                  errors::InvalidArgument("Histogram values must not contain NaN"));
    }
    Out* out = output->base<Out>();
    std::fill_n(out, nbins, Out{0});
    const double step = static_cast<double>(hi) / static_cast<double>(nbins) -
                        static_cast<double>(lo) / static_cast<double>(nbins);
    const double last_bin = static_cast<double>(nbins - 1);
    for (int64_t i = 0; i < n; ++i) {
      const T clamped = std::min(std::max(x[i], lo), hi);
      const double q = (static_cast<double>(clamped) - static_cast<double>(lo)) / step;
      const double bin = std::min(q, last_bin);
      ++out[bin >= 0 ? static_cast<int32_t>(bin) : 0];
    }
  }
};

#define REGISTER_HISTOGRAM(T, Out)                           \
  REGISTER_KERNEL_BUILDER(Name("HistogramFixedWidth")        \
                              .Device(DEVICE_CPU)            \
                              .TypeConstraint<T>("T")        \
                              .TypeConstraint<Out>("dtype"), \
                          HistogramFixedWidthOp<T, Out>);
#define REGISTER_HISTOGRAMS(T) REGISTER_HISTOGRAM(T, int32_t) REGISTER_HISTOGRAM(T, int64_t)
REGISTER_HISTOGRAMS(int32_t)
REGISTER_HISTOGRAMS(int64_t)
REGISTER_HISTOGRAMS(float)
REGISTER_HISTOGRAMS(double)
#undef REGISTER_HISTOGRAMS
#undef REGISTER_HISTOGRAM

}  // namespace
}  // namespace sluice
