// CheckNumerics on the CPU: forwards its input, and fails with INVALID_ARGUMENT
// "<message> : Tensor had NaN values" (or "Inf values", or "Inf and NaN values", TensorFlow's
// exact text) when any element is not finite. The output is set either way, as TensorFlow
// does.
#include <atomic>
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

constexpr int kInfBit = 1;
constexpr int kNanBit = 2;

template <typename T>
class CheckNumericsOp : public OpKernel {
 public:
  explicit CheckNumericsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("message", &message_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    ctx->set_output(0, x);
    const int64_t n = x.NumElements();
    if (n == 0) return;
    const T* data = x.flat<T>().data();
    std::atomic<int> found{0};
    ParallelFor(ctx, n, n, Eigen::TensorOpCost(sizeof(T), 0, 2),
                [data, &found](int64_t first, int64_t last) {
                  int bits = 0;
                  for (int64_t i = first; i < last; ++i) {
                    if (Eigen::numext::isinf(data[i])) bits |= kInfBit;
                    if (Eigen::numext::isnan(data[i])) bits |= kNanBit;
                  }
                  if (bits != 0) found.fetch_or(bits, std::memory_order_relaxed);
                });
    const int bits = found.load(std::memory_order_relaxed);
    if (bits == 0) return;
    const char* what = bits == (kInfBit | kNanBit) ? "Inf and NaN"
                       : bits == kInfBit           ? "Inf"
                                                   : "NaN";
    ctx->SetStatus(errors::InvalidArgument(message_, " : Tensor had ", what, " values"));
  }

 private:
  std::string message_;
};

#define REGISTER_CHECK_NUMERICS(T)                                                         \
  REGISTER_KERNEL_BUILDER(Name("CheckNumerics").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          CheckNumericsOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CHECK_NUMERICS)
#undef REGISTER_CHECK_NUMERICS

}  // namespace
}  // namespace sluice
