// CheckNumerics on the CPU: forwards its input, and fails with INVALID_ARGUMENT
// "<message> : Tensor had NaN values" (or "Inf values", or "Inf and NaN values", TensorFlow's
// exact text) when any element is not finite. The output is set either way, as TensorFlow
// does. CheckNumericsV2 tells the infinities apart: "-Inf, +Inf, and NaN values", or those
// present of the three in that order ("-Inf and NaN values", "+Inf values").
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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
constexpr int kNegativeInfBit = 4;

// What V1 names in its message.
const char* NonFiniteV1(int bits) {
  if ((bits & kInfBit) && (bits & kNanBit)) return "Inf and NaN";
  return (bits & kInfBit) ? "Inf" : "NaN";
}

// What V2 names: the kinds present of -Inf, +Inf and NaN, as an English list.
std::string NonFiniteV2(int bits) {
  std::vector<const char*> kinds;
  if (bits & kNegativeInfBit) kinds.push_back("-Inf");
  if (bits & kInfBit) kinds.push_back("+Inf");
  if (bits & kNanBit) kinds.push_back("NaN");
  if (kinds.size() == 1) return kinds[0];
  if (kinds.size() == 2) return absl::StrCat(kinds[0], " and ", kinds[1]);
  return absl::StrCat(kinds[0], ", ", kinds[1], ", and ", kinds[2]);
}

template <typename T, bool kV2>
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
                    if (Eigen::numext::isinf(data[i])) {
                      bits |= (kV2 && data[i] < T(0)) ? kNegativeInfBit : kInfBit;
                    }
                    if (Eigen::numext::isnan(data[i])) bits |= kNanBit;
                  }
                  if (bits != 0) found.fetch_or(bits, std::memory_order_relaxed);
                });
    const int bits = found.load(std::memory_order_relaxed);
    if (bits == 0) return;
    const std::string what = kV2 ? NonFiniteV2(bits) : NonFiniteV1(bits);
    ctx->SetStatus(errors::InvalidArgument(message_, " : Tensor had ", what, " values"));
  }

 private:
  std::string message_;
};

#define REGISTER_CHECK_NUMERICS(T)                                                           \
  REGISTER_KERNEL_BUILDER(Name("CheckNumerics").Device(DEVICE_CPU).TypeConstraint<T>("T"),   \
                          (CheckNumericsOp<T, false>));                                      \
  REGISTER_KERNEL_BUILDER(Name("CheckNumericsV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          (CheckNumericsOp<T, true>));
SLUICE_CALL_FLOAT_TYPES(REGISTER_CHECK_NUMERICS)
#undef REGISTER_CHECK_NUMERICS

}  // namespace
}  // namespace sluice
