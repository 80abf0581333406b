// TopKV2 on the CPU: the k largest entries of each row (last dim) and their indices. TopK
// (its first version, in graphs older than GraphDef version 7) is the same kernel with k an
// attr and int32 indices.
//
// Order: larger values first; equal values by lower index first (TensorFlow's stable
// order); NaN after every number. That is a strict total order, so the result does not
// depend on the selection algorithm: each row is a partial sort of its indices, O(n log k).
// With sorted=false TensorFlow leaves the order unspecified (its heap order); Sluice returns
// the sorted order then too.
// Errors as TensorFlow: k a scalar >= 0, input at least 1-D with at least k columns.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/reduction/reducers.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {
namespace {

// Writes the top k of row[0, n) into values and indices, using `order` (n slots) as scratch.
template <typename T, typename Index>
void TopKRow(const T* row, int64_t n, int64_t k, int64_t* order, T* values, Index* indices) {
  using W = WideFloat<T>;
  std::iota(order, order + n, int64_t{0});
  const auto before = [row](int64_t a, int64_t b) {
    const W va = static_cast<W>(row[a]);
    const W vb = static_cast<W>(row[b]);
    if (va > vb) return true;
    if (va < vb) return false;
    const bool nan_a = IsNaN(va);
    const bool nan_b = IsNaN(vb);
    if (nan_a != nan_b) return nan_b;
    return a < b;
  };
  if (k < n) {
    std::partial_sort(order, order + k, order + n, before);
  } else {
    std::sort(order, order + n, before);
  }
  for (int64_t i = 0; i < k; ++i) {
    const int64_t c = order[i];
    values[i] = row[c];
    indices[i] = static_cast<Index>(c);
  }
}

template <typename T, typename Index, bool kKFromAttr>
class TopKOp : public OpKernel {
 public:
  explicit TopKOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (kKFromAttr) OP_REQUIRES_OK(ctx, ctx->GetAttr("k", &k_attr_));
  }

  void Compute(OpKernelContext* ctx) override {
    int64_t k = k_attr_;
    if (!kKFromAttr) {
      const Tensor& k_in = ctx->input(1);
      OP_REQUIRES(
          ctx, k_in.dims() == 0,
          errors::InvalidArgument("k must be scalar, got shape ", k_in.shape().DebugString()));
      k = ScalarIndexValue(k_in);
    }
    OP_REQUIRES(ctx, k >= 0, errors::InvalidArgument("Need k >= 0, got ", k));
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(
        ctx, input.dims() >= 1,
        errors::InvalidArgument("input must be >= 1-D, got shape ", input.shape().DebugString()));
    const int64_t n = input.dim_size(input.dims() - 1);
    OP_REQUIRES(
        ctx, n >= k,
        errors::InvalidArgument("input must have at least k columns. Had ", n, ", needed ", k));
    TensorShape output_shape = input.shape();
    output_shape.set_dim(output_shape.dims() - 1, k);  // shape-safe: 0 <= k <= n, rank >= 1
    Tensor* values = nullptr;
    Tensor* indices = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &values));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, output_shape, &indices));
    if (k == 0 || input.NumElements() == 0) return;
    const int64_t rows = input.NumElements() / n;
    const T* x = input.base<T>();
    T* v = values->base<T>();
    Index* idx = indices->base<Index>();
    const double log_k = std::log2(static_cast<double>(k) + 1);
    const Eigen::TensorOpCost row_cost(sizeof(T) * n, (sizeof(T) + sizeof(Index)) * k,
                                       n * log_k * 4);
    // Each range sorts a row's indices in its own n slots from the allocator.
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<int64_t>(
                            ctx, rows, input.NumElements(), row_cost, n,
                            [&](int64_t first, int64_t last, int64_t* order) {
                              for (int64_t r = first; r < last; ++r) {
                                TopKRow<T, Index>(x + r * n, n, k, order, v + r * k, idx + r * k);
                              }
                            }));
  }

 private:
  int64_t k_attr_ = 0;
};

#define REGISTER_TOPK(T, INDEX)                                     \
  REGISTER_KERNEL_BUILDER(Name("TopKV2")                            \
                              .Device(DEVICE_CPU)                   \
                              .TypeConstraint<T>("T")               \
                              .TypeConstraint<INDEX>("index_type"), \
                          (TopKOp<T, INDEX, false>));
#define REGISTER_TOPK_V1(T)                                                       \
  REGISTER_KERNEL_BUILDER(Name("TopK").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          (TopKOp<T, int32_t, true>));
#define REGISTER_CPU(T) \
  REGISTER_TOPK(T, int16_t) REGISTER_TOPK(T, int32_t) REGISTER_TOPK(T, int64_t) REGISTER_TOPK_V1(T)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU
#undef REGISTER_TOPK_V1
#undef REGISTER_TOPK

}  // namespace
}  // namespace reduction
}  // namespace sluice
