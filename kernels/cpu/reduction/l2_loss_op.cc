// L2Loss on the CPU: sum(t * t) / 2 over every element of t, a scalar. Each square is halved
// before the sum, as TensorFlow's sum((t * t) * 0.5) does; half and bfloat16 are squared and
// summed in float (sum_of_squares.h) and rounded once.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "kernels/cpu/reduction/sum_of_squares.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {
namespace {

template <typename T>
class L2LossOp : public OpKernel {
 public:
  explicit L2LossOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &output));
    SquareAcc<T> sum(0);
    if (input.NumElements() > 0) {
      const ReductionPass all{1, input.NumElements(), 1};
      Tensor sums;
      OP_REQUIRES_OK(ctx, SumOfSquares<T>(ctx, input, {all}, SquareAcc<T>(0.5), &sums));
      sum = *sums.base<SquareAcc<T>>();
    }
    *output->base<T>() = static_cast<T>(sum);
  }
};

#define REGISTER_CPU(T) \
  REGISTER_KERNEL_BUILDER(Name("L2Loss").Device(DEVICE_CPU).TypeConstraint<T>("T"), L2LossOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace reduction
}  // namespace sluice
