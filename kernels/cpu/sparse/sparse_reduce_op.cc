// SparseReduceSum, SparseReduceMax and their *Sparse forms on the CPU: a SparseTensor reduced
// over reduction_axes (negative axes count from the end, repeats allowed, none reduces
// nothing). The entries are sorted by the kept dims and then the reduced ones, and each run
// with equal kept coordinates is one output value (TensorFlow's Reorder and group). The dense
// form writes it into a zero-filled tensor (so an absent group reads 0, for Max too); the
// sparse form lists the groups in order. As in TensorFlow, index values are not validated:
// the dense form reports a group whose position falls outside the output as INTERNAL.
#include <algorithm>
#include <array>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckReduceInputs(const Tensor& shape, const Tensor& axes) {
  if (shape.dims() != 1) {
    return errors::InvalidArgument("Expected input_shape to be a vector; got shape: ",
                                   shape.shape().DebugString());
  }
  if (axes.dims() > 1) {
    return errors::InvalidArgument(
        "Expected reduction_axes to be a scalar or a vector; got shape: ",
        axes.shape().DebugString());
  }
  const int32_t* a = static_cast<const int32_t*>(axes.raw_data());
  const int64_t rank = shape.NumElements();
  for (int64_t i = 0; i < axes.NumElements(); ++i) {
    if (a[i] < -rank || a[i] >= rank) {
      return errors::InvalidArgument("Invalid reduction dimension ", a[i], ", for input with ",
                                     rank, " dimensions.");
    }
  }
  return absl::OkStatus();
}

// The reduction's plan: the kept dims in order, then the reduced ones, and the output shape.
struct ReducePlan {
  int rank = 0;
  int num_kept = 0;
  std::array<int, TensorShape::kMaxDims> order;  // kept dims, then reduced dims
  std::array<bool, TensorShape::kMaxDims> reduced;
  TensorShape out_shape;
};

absl::Status PlanReduce(const Tensor& axes, const TensorShape& shape, bool keep_dims,
                        ReducePlan* plan) {
  plan->rank = shape.dims();
  std::fill_n(plan->reduced.begin(), plan->rank, false);
  const int32_t* a = static_cast<const int32_t*>(axes.raw_data());
  for (int64_t i = 0; i < axes.NumElements(); ++i) {
    plan->reduced[(a[i] + plan->rank) % plan->rank] = true;
  }
  int k = 0;
  for (int d = 0; d < plan->rank; ++d) {
    if (!plan->reduced[d]) plan->order[k++] = d;
  }
  plan->num_kept = k;
  for (int d = 0; d < plan->rank; ++d) {
    if (plan->reduced[d]) plan->order[k++] = d;
  }
  for (int d = 0; d < plan->rank; ++d) {
    if (plan->reduced[d] && !keep_dims) continue;
    RETURN_IF_ERROR(plan->out_shape.AddDimWithStatus(plan->reduced[d] ? 1 : shape.dim_size(d)));
  }
  return absl::OkStatus();
}

struct SumReducer {
  template <typename T>
  static T Combine(const T& acc, const T& x) {
    return acc + x;
  }
};
struct MaxReducer {
  template <typename T>
  static T Combine(const T& acc, const T& x) {
    return acc < x ? x : acc;
  }
};

template <typename T, typename Reducer, bool kSparseOutput>
class SparseReduceOp : public OpKernel {
 public:
  explicit SparseReduceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("keep_dims", &keep_dims_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& values = ctx->input(1);
    const Tensor& shape_t = ctx->input(2);
    const Tensor& axes = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckReduceInputs(shape_t, axes));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, sparse::DenseShape(shape_t, &shape));
    OP_REQUIRES_OK(ctx, sparse::ValidateCreate(indices, values, shape.dims()));
    ReducePlan plan;
    OP_REQUIRES_OK(ctx, PlanReduce(axes, shape, keep_dims_, &plan));

    // The index columns rearranged into the plan's order, then sorted row-major.
    const int64_t nnz = indices.dim_size(0);
    const int rank = plan.rank;
    const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());
    ScratchArray<int64_t> keys;
    OP_REQUIRES_OK(ctx, keys.Allocate(ctx, nnz * rank));
    for (int64_t i = 0; i < nnz; ++i) {
      for (int d = 0; d < rank; ++d) keys[i * rank + d] = ix[i * rank + plan.order[d]];
    }
    ScratchArray<int64_t> perm;
    OP_REQUIRES_OK(ctx, perm.Allocate(ctx, nnz));
    sparse::SortRows(keys.data(), nnz, rank, perm.data());
    const T* v = values.flat<T>().data();
    const int kept = plan.num_kept;
    auto same_group = [&](int64_t a, int64_t b) {
      return sparse::CompareRows(keys.data() + perm[a] * rank, keys.data() + perm[b] * rank,
                                 kept) == 0;
    };
    if constexpr (kSparseOutput) {
      int64_t groups = 0;
      for (int64_t i = 0; i < nnz; ++i) groups += (i == 0 || !same_group(i - 1, i)) ? 1 : 0;
      const int out_rank = plan.out_shape.dims();
      Tensor* out_indices = nullptr;
      OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {groups, out_rank}, &out_indices));
      Tensor* out_values = nullptr;
      OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {groups}, &out_values));
      OP_REQUIRES_OK(ctx, sparse::OutputShapeVector(ctx, 2, plan.out_shape.dim_sizes()));
      int64_t* ox = static_cast<int64_t*>(out_indices->raw_data());
      std::fill_n(ox, groups * out_rank, 0);
      T* ov = out_values->flat<T>().data();
      int64_t g = -1;
      for (int64_t i = 0; i < nnz; ++i) {
        const int64_t* key = keys.data() + perm[i] * rank;
        if (i > 0 && same_group(i - 1, i)) {
          ov[g] = Reducer::Combine(ov[g], v[perm[i]]);
          continue;
        }
        ov[++g] = v[perm[i]];
        for (int j = 0; j < kept; ++j) {
          ox[g * out_rank + (keep_dims_ ? plan.order[j] : j)] = key[j];
        }
      }
    } else {
      Tensor* out = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.out_shape, &out));
      T* o = out->flat<T>().data();
      const int64_t size = out->NumElements();
      std::fill_n(o, size, T(0));
      int64_t i = 0;
      while (i < nnz) {
        T acc = v[perm[i]];
        int64_t end = i + 1;
        for (; end < nnz && same_group(i, end); ++end) acc = Reducer::Combine(acc, v[perm[end]]);
        // The group's position from its kept coordinates (wrapping, as TensorFlow's).
        const int64_t* key = keys.data() + perm[i] * rank;
        uint64_t pos = 0;
        for (int j = 0; j < kept; ++j) {
          pos = pos * static_cast<uint64_t>(shape.dim_size(plan.order[j])) +
                static_cast<uint64_t>(key[j]);
        }
        const int64_t idx = static_cast<int64_t>(pos);
        OP_REQUIRES(ctx, idx >= 0 && idx < size,
                    errors::Internal("Obtained a write index of ", idx,
                                     " which is outside of bounds of [0, ", size, ")"));
        o[idx] = acc;
        i = end;
      }
    }
  }

 private:
  bool keep_dims_ = false;
};

#define REGISTER_SUM(T)                                                                            \
  REGISTER_KERNEL_BUILDER(Name("SparseReduceSum").Device(DEVICE_CPU).TypeConstraint<T>("T"),       \
                          SparseReduceOp<T, SumReducer, false>);                                   \
  REGISTER_KERNEL_BUILDER(Name("SparseReduceSumSparse").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseReduceOp<T, SumReducer, true>);
#define REGISTER_MAX(T)                                                                            \
  REGISTER_KERNEL_BUILDER(Name("SparseReduceMax").Device(DEVICE_CPU).TypeConstraint<T>("T"),       \
                          SparseReduceOp<T, MaxReducer, false>);                                   \
  REGISTER_KERNEL_BUILDER(Name("SparseReduceMaxSparse").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseReduceOp<T, MaxReducer, true>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_SUM)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_MAX)
#undef REGISTER_SUM
#undef REGISTER_MAX

}  // namespace
}  // namespace sluice
