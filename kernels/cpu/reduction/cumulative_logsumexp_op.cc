// CumulativeLogsumexp on the CPU: out[r] = log(sum over s <= r of exp(x[s])) along one axis,
// optionally exclusive (each output leaves out its own element, so the first is -inf) and/or
// reversed (the scan runs from the end).
//
// Each step folds the next element into the accumulator as TensorFlow's LogSumExp reducer
// does in Eigen's scalar path: max + log1p(exp(min - max)) (max itself when it is -inf), in
// T's own arithmetic (half and bfloat16 round after every operation, as Eigen's scalar
// functions for them do). Eigen takes that path when the scan runs along the innermost dim (and for
// columns past the last whole packet); for the other columns it uses its vectorised exp and log1p,
// whose results differ in the last bits (the fixture states the tolerance). The axis checks and
// messages are those of TensorFlow's ScanOp.
#include <algorithm>
#include <cstdint>

#include "Eigen/Core"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/reduction/scan_axis.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {
namespace {

template <typename T>
T LogSumExp(T acc, T x) {
  const T lo = x < acc ? x : acc;
  const T hi = acc < x ? x : acc;
  // Two -infs would make lo - hi NaN; TensorFlow keeps -inf.
  if (hi < Eigen::NumTraits<T>::lowest()) return hi;
  return hi + Eigen::numext::log1p(Eigen::numext::exp(lo - hi));
}

// Scans column `c` of one [len, inner] slab of x into y (which may alias x).
template <typename T>
void ScanColumn(const T* x, T* y, int64_t len, int64_t inner, bool exclusive, bool reverse) {
  T acc = -Eigen::NumTraits<T>::infinity();
  for (int64_t step = 0; step < len; ++step) {
    const int64_t at = (reverse ? len - 1 - step : step) * inner;
    const T v = x[at];
    if (exclusive) {
      y[at] = acc;
      acc = LogSumExp(acc, v);
    } else {
      acc = LogSumExp(acc, v);
      y[at] = acc;
    }
  }
}

template <typename T>
class CumulativeLogsumexpOp : public OpKernel {
 public:
  explicit CumulativeLogsumexpOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("exclusive", &exclusive_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("reverse", &reverse_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    ScanAxis scan;
    OP_REQUIRES_OK(ctx, ReadScanAxis(input, ctx->input(1), &scan));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &output));
    const int64_t total = input.NumElements();
    if (total == 0) return;
    const int64_t len = scan.len, inner = scan.inner;
    const int64_t columns = total / len;  // outer * inner
    const T* x = input.base<T>();
    T* y = output->base<T>();
    const bool exclusive = exclusive_;
    const bool reverse = reverse_;
    const Eigen::TensorOpCost cost(sizeof(T) * len, sizeof(T) * len, 40 * len);
    ParallelFor(ctx, columns, total, cost, [&](int64_t first, int64_t last) {
      for (int64_t c = first; c < last; ++c) {
        const int64_t offset = (c / inner) * len * inner + c % inner;
        ScanColumn(x + offset, y + offset, len, inner, exclusive, reverse);
      }
    });
  }

 private:
  bool exclusive_ = false;
  bool reverse_ = false;
};

#define REGISTER_CPU(T)                                                                          \
  REGISTER_KERNEL_BUILDER(Name("CumulativeLogsumexp").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          CumulativeLogsumexpOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace reduction
}  // namespace sluice
