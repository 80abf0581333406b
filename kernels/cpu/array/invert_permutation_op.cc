// InvertPermutation on the CPU: y[x[i]] = i for a permutation x of 0 .. n-1.
//
// Checked as TensorFlow does, element by element in order, with its messages: x a vector of
// fewer than 2^31 elements, each value in [0, n) and none repeated. The output doubles as the
// record of which values were seen (-1 until then), so no other memory is needed.
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class InvertPermutationOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    OP_REQUIRES(ctx, x.dims() == 1,
                errors::InvalidArgument("invert_permutation expects a 1D vector."));
    const int64_t n = x.NumElements();
    OP_REQUIRES(ctx, n <= std::numeric_limits<int32_t>::max(),
                errors::InvalidArgument(
                    "permutation of nonnegative int32s must have <= int32 max elements"));
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    const T* in = x.base<T>();
    T* out = y->base<T>();
    for (int64_t i = 0; i < n; ++i) out[i] = T{-1};
    for (int64_t i = 0; i < n; ++i) {
      const T d = in[i];
      OP_REQUIRES(ctx, d >= 0 && d < n, errors::InvalidArgument(d, " is not between 0 and ", n));
      OP_REQUIRES(ctx, out[d] == -1, errors::InvalidArgument(d, " is duplicated in the input."));
      out[d] = static_cast<T>(i);
    }
  }
};

REGISTER_KERNEL_BUILDER(Name("InvertPermutation").Device(DEVICE_CPU).TypeConstraint<int32_t>("T"),
                        InvertPermutationOp<int32_t>);
REGISTER_KERNEL_BUILDER(Name("InvertPermutation").Device(DEVICE_CPU).TypeConstraint<int64_t>("T"),
                        InvertPermutationOp<int64_t>);

}  // namespace
}  // namespace sluice
