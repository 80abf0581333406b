// EuclideanNorm on the CPU: sqrt(sum of x * conj(x)) over `reduction_indices` (any shape of
// int32/int64 axes, validated by the reduction plan with TensorFlow's messages), keep_dims as
// the other reductions. A reduction that folds nothing (no axes, or only dims of size 1)
// still takes each element's norm, as TensorFlow's does. Integer types square and add
// with wrap-around and truncate the root, as Eigen's sqrt on integers does; complex results
// have a zero imaginary part.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "kernels/cpu/reduction/sum_of_squares.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {
namespace {

template <typename T>
T RootOf(SquareAcc<T> s) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return std::sqrt(s);
  } else if constexpr (std::is_integral_v<T>) {
    // A sum that wrapped negative has a NaN root, which TensorFlow's x86 build converts to
    // the lowest int32 (int64 for int64) and narrower types truncate from that; done
    // explicitly here, since converting NaN is undefined in C++.
    if constexpr (std::is_signed_v<T>) {
      if (s < 0) {
        if constexpr (std::is_same_v<T, int64_t>) return std::numeric_limits<int64_t>::min();
        return static_cast<T>(std::numeric_limits<int32_t>::min());
      }
    }
    return static_cast<T>(std::sqrt(static_cast<double>(s)));
  } else {
    return static_cast<T>(std::sqrt(s));
  }
}

template <typename T>
class EuclideanNormOp : public OpKernel {
 public:
  explicit EuclideanNormOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("keep_dims", &keep_dims_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    ReductionPlan plan;
    OP_REQUIRES_OK(ctx, MakeReductionPlan(input.shape(), ctx->input(1), keep_dims_, &plan));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape(), &output));
    if (output->NumElements() == 0) return;
    T* y = output->base<T>();
    if (plan.passes().empty()) {
      const T* x = input.base<T>();
      for (int64_t i = 0; i < output->NumElements(); ++i) {
        y[i] = RootOf<T>(SquareOf(static_cast<SquareAcc<T>>(x[i])));
      }
      return;
    }
    Tensor sums;
    OP_REQUIRES_OK(ctx, SumOfSquares<T>(ctx, input, plan.passes(), SquareAcc<T>(1), &sums));
    const SquareAcc<T>* s = sums.base<SquareAcc<T>>();
    for (int64_t i = 0; i < output->NumElements(); ++i) y[i] = RootOf<T>(s[i]);
  }

 private:
  bool keep_dims_ = false;
};

#define REGISTER_CPU(T)                                                                    \
  REGISTER_KERNEL_BUILDER(Name("EuclideanNorm").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          EuclideanNormOp<T>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace reduction
}  // namespace sluice
