// ApproximateEqual on the CPU: z = |x - y| <= tolerance, elementwise, for float and double (the
// dtypes TensorFlow registers). TensorFlow's documentation says "<", its kernel computes "<="
// (1 is approximately equal to 1 with a tolerance of 0). x and y must have the same shape: it
// does not broadcast.
#include <cmath>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class ApproximateEqualOp : public OpKernel {
 public:
  explicit ApproximateEqualOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    float tolerance;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("tolerance", &tolerance));
    tolerance_ = static_cast<T>(tolerance);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES(ctx, x.shape() == y.shape(),
                errors::InvalidArgument(
                    "x and y must be of the same shape. x shape: ", x.shape().DebugString(),
                    ". y shape: ", y.shape().DebugString()));
    Tensor* z = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &z));
    const int64_t n = x.NumElements();
    if (n == 0) return;
    const T* xp = x.flat<T>().data();
    const T* yp = y.flat<T>().data();
    bool* zp = z->flat<bool>().data();
    const T tolerance = tolerance_;
    const Eigen::TensorOpCost cost(2 * sizeof(T), sizeof(bool), 3);
    ParallelFor(ctx, n, n, cost, [=](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) zp[i] = std::abs(xp[i] - yp[i]) <= tolerance;
    });
  }

  bool IsExpensive() override { return false; }

 private:
  T tolerance_;
};

#define REGISTER_CPU(T)                                                                       \
  REGISTER_KERNEL_BUILDER(Name("ApproximateEqual").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ApproximateEqualOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
