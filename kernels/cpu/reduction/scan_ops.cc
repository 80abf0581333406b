// Cumsum and Cumprod on the CPU: running sums (products) along one axis, optionally
// exclusive (each output leaves out its own element, so the first is 0 (1)) and/or reversed
// (the scan runs from the end). One scan, parameterised by the reducer of reducers.h.
//
// The axis is a scalar in [-rank, rank) (TensorFlow's "ScanOp: ..." errors). The input is
// viewed as [outer, len, inner]; each (outer, block of inner) unit walks len once, keeping
// one accumulator per column so the inner loop vectorises. half and bfloat16 accumulate in
// float; signed integers wrap. An unshared input buffer becomes the output: element r is
// read before it is written.
#include <algorithm>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/reduction/reducers.h"
#include "kernels/cpu/reduction/scan_axis.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {
namespace {

constexpr int64_t kColumnBlock = 512;

// Scans rows [0, len) of x (row stride `stride`, `n` columns) into y, which may alias x,
// folding with Reducer (SumReducer<T> or ProdReducer<T>).
template <typename T, typename Reducer>
void ScanColumns(const T* x, T* y, int64_t len, int64_t stride, int64_t n, bool exclusive,
                 bool reverse) {
  using Acc = typename Reducer::Acc;
  Acc acc[kColumnBlock];
  for (int64_t i = 0; i < n; ++i) acc[i] = Reducer::Identity();
  for (int64_t step = 0; step < len; ++step) {
    const int64_t r = reverse ? len - 1 - step : step;
    const T* in = x + r * stride;
    T* out = y + r * stride;
    if (exclusive) {
      for (int64_t i = 0; i < n; ++i) {
        const Acc v = static_cast<Acc>(in[i]);
        out[i] = static_cast<T>(acc[i]);
        acc[i] = Reducer::Combine(acc[i], v);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        acc[i] = Reducer::Combine(acc[i], static_cast<Acc>(in[i]));
        out[i] = static_cast<T>(acc[i]);
      }
    }
  }
}

template <typename T, typename Reducer>
class ScanOp : public OpKernel {
 public:
  explicit ScanOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
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
    const int64_t outer = scan.outer;
    const T* x = input.base<T>();
    T* y = output->base<T>();
    const int64_t blocks = (inner + kColumnBlock - 1) / kColumnBlock;
    const int64_t unit = len * std::min(inner, kColumnBlock);
    const Eigen::TensorOpCost cost(sizeof(T) * unit, sizeof(T) * unit, unit);
    const bool exclusive = exclusive_;
    const bool reverse = reverse_;
    ParallelFor(ctx, outer * blocks, total, cost, [&](int64_t first, int64_t last) {
      for (int64_t u = first; u < last; ++u) {
        const int64_t o = u / blocks;
        const int64_t begin = (u % blocks) * kColumnBlock;
        const int64_t offset = o * len * inner + begin;
        ScanColumns<T, Reducer>(x + offset, y + offset, len, inner,
                                std::min(kColumnBlock, inner - begin), exclusive, reverse);
      }
    });
  }

 private:
  bool exclusive_ = false;
  bool reverse_ = false;
};

#define REGISTER_CPU(T)                                                              \
  REGISTER_KERNEL_BUILDER(Name("Cumsum").Device(DEVICE_CPU).TypeConstraint<T>("T"),  \
                          ScanOp<T, SumReducer<T>>);                                 \
  REGISTER_KERNEL_BUILDER(Name("Cumprod").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ScanOp<T, ProdReducer<T>>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace reduction
}  // namespace sluice
