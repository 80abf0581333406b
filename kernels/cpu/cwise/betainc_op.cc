// Betainc on the CPU (float, double): the regularized incomplete beta function I_x(a, b),
// Eigen's as TensorFlow's kernel uses it. a, b and x are each a scalar or of one common shape;
// scalars apply to every element (no other broadcasting), and mismatched shapes are
// INVALID_ARGUMENT naming the two inputs.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace {

template <typename T>
class BetaincOp : public OpKernel {
 public:
  explicit BetaincOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    const Tensor& x = ctx->input(2);
    OP_REQUIRES_OK(ctx, CheckShapes(a.shape(), b.shape(), "a and b"));
    OP_REQUIRES_OK(ctx, CheckShapes(a.shape(), x.shape(), "a and x"));
    OP_REQUIRES_OK(ctx, CheckShapes(b.shape(), x.shape(), "b and x"));
    TensorShape shape = a.shape();
    if (b.dims() > 0) shape = b.shape();
    if (x.dims() > 0) shape = x.shape();
    Tensor* z = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &z));
    const int64_t n = shape.num_elements();
    if (n == 0) return;
    // A scalar operand is read at index 0 for every element (stride 0).
    const T* ap = a.flat<T>().data();
    const T* bp = b.flat<T>().data();
    const T* xp = x.flat<T>().data();
    const int64_t as = a.dims() > 0 ? 1 : 0;
    const int64_t bs = b.dims() > 0 ? 1 : 0;
    const int64_t xs = x.dims() > 0 ? 1 : 0;
    T* zp = z->flat<T>().data();
    const Eigen::TensorOpCost cost(3 * sizeof(T), sizeof(T), 1000);
    ParallelFor(ctx, n, n, cost, [=](int64_t first, int64_t last) {
      const Eigen::internal::scalar_betainc_op<T> betainc;
      for (int64_t i = first; i < last; ++i) zp[i] = betainc(ap[i * as], bp[i * bs], xp[i * xs]);
    });
  }

 private:
  // Two non-scalar operands must have the same shape.
  static absl::Status CheckShapes(const TensorShape& s, const TensorShape& t, const char* names) {
    if (s.dims() > 0 && t.dims() > 0 && s != t) {
      return errors::InvalidArgument("Shapes of ", names, " are inconsistent: ", s.DebugString(),
                                     " vs. ", t.DebugString());
    }
    return absl::OkStatus();
  }
};

#define REGISTER_CPU(T) \
  REGISTER_KERNEL_BUILDER(Name("Betainc").Device(DEVICE_CPU).TypeConstraint<T>("T"), BetaincOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
