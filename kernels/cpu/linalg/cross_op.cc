// Cross on the CPU: for each pair of 3-element vectors (the innermost dimension of a and b),
// product = (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0).
//
// Checked as TensorFlow does, with its codes and messages: a and b of one shape
// (INVALID_ARGUMENT), at least a vector (INVALID_ARGUMENT), whose last dimension is 3
// (FAILED_PRECONDITION). Each component is two products and a difference, each rounded to T
// as TensorFlow's Eigen expression rounds them (half and bfloat16 too: their operators round
// every result); integers wrap on overflow as there.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/real_types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// a * b - c * d, each operation rounded (or wrapped) in T.
template <typename T>
T ProductDifference(T a, T b, T c, T d) {
  const T ab = WrappingMul(a, b);
  const T cd = WrappingMul(c, d);
  return WrappingSub(ab, cd);
}

class CrossOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    OP_REQUIRES(ctx, a.shape() == b.shape(),
                errors::InvalidArgument("Both inputs must be of same shape: ",
                                        a.shape().DebugString(), " vs. ", b.shape().DebugString()));
    OP_REQUIRES(ctx, a.dims() >= 1,
                errors::InvalidArgument("Input must be at least 1D", a.shape().DebugString()));
    OP_REQUIRES(
        ctx, a.dim_size(a.dims() - 1) == 3,
        errors::FailedPrecondition("Cross-products are only defined for 3-element vectors."));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0, 1}, 0, a.shape(), &output));
    const int64_t n = a.NumElements() / 3;
    array_internal::VisitRealType(a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = a.base<T>();
      const T* y = b.base<T>();
      T* out = output->base<T>();
      const Eigen::TensorOpCost cost(6 * sizeof(T), 3 * sizeof(T), 9);
      ParallelFor(ctx, n, a.NumElements(), cost, [&](int64_t first, int64_t last) {
        for (int64_t i = first; i < last; ++i) {
          const T* u = x + 3 * i;
          const T* v = y + 3 * i;
          // Read all six before writing: the output may be either input's buffer.
          const T u0 = u[0], u1 = u[1], u2 = u[2], v0 = v[0], v1 = v[1], v2 = v[2];
          T* w = out + 3 * i;
          w[0] = ProductDifference(u1, v2, u2, v1);
          w[1] = ProductDifference(u2, v0, u0, v2);
          w[2] = ProductDifference(u0, v1, u1, v0);
        }
      });
    });
  }
};

REGISTER_KERNEL_BUILDER(
    Name("Cross").Device(DEVICE_CPU).TypeConstraint("T", array_internal::RealTypes()), CrossOp);

}  // namespace
}  // namespace sluice
