// Gather and GatherV2 on the CPU: output = params.shape[:axis] + indices.shape[batch_dims:]
// + params.shape[axis+1:], where each index selects a slice of params along `axis`.
//
// Algorithm: the shapes are checked and planned by gather_plan.h (shared with the GPU kernel):
// params is viewed as [batch, outer, gather_dim, inner] and the output as
// [batch, outer, N, inner] (N = indices per batch). Every index is range-checked before any
// element moves (INVALID_ARGUMENT "indices[0,1] = 7 is not in [0, 3)", TensorFlow's text,
// naming the first bad index); then each (batch, outer, n) slice of `inner` elements is
// copied, split over the intra-op pool when the output is large. Elements are moved by size
// (element_bytes.h), so one instantiation serves every dtype of that size; Gather's
// validate_indices attr is ignored as in TensorFlow (CPU indices are always checked).
#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/gather_plan.h"
#include "kernels/cpu/indexing/index_coordinates.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Index of the first entry of `indices` outside [0, limit), or -1.
template <typename Index>
int64_t FindBadIndex(const Index* indices, int64_t count, int64_t limit) {
  for (int64_t i = 0; i < count; ++i) {
    const int64_t v = static_cast<int64_t>(indices[i]);
    if (v < 0 || v >= limit) return i;
  }
  return -1;
}

template <typename U, typename Index>
void CopySlices(OpKernelContext* ctx, const GatherPlan& d, const U* params, const Index* indices,
                U* out) {
  const int64_t slices = d.batch * d.outer * d.n;
  const Eigen::TensorOpCost cost(d.inner * sizeof(U), d.inner * sizeof(U), 1);
  ParallelFor(ctx, slices, slices * d.inner, cost, [&](int64_t first, int64_t last) {
    for (int64_t s = first; s < last; ++s) {
      const int64_t i = s % d.n;
      const int64_t bo = s / d.n;  // batch * outer + outer index
      const int64_t b = bo / d.outer;
      const int64_t index = static_cast<int64_t>(indices[b * d.n + i]);
      const U* src = params + (bo * d.gather_dim + index) * d.inner;
      std::copy_n(src, d.inner, out + s * d.inner);
    }
  });
}

class GatherOp : public OpKernel {
 public:
  explicit GatherOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    // Gather (V1) has no batch_dims; its validate_indices is ignored on the CPU.
    if (ctx->HasAttr("batch_dims")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("batch_dims", &batch_dims_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& params = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    GatherPlan d;
    OP_REQUIRES_OK(ctx,
                   PlanGather(params, indices, ctx->num_inputs() == 3 ? &ctx->input(2) : nullptr,
                              batch_dims_, &d));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, d.output_shape, &out));
    if (d.empty()) return;
    const int64_t num_indices = indices.NumElements();

    VisitIndexType(indices.dtype(), [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      const Index* idx = indices.base<Index>();
      const int64_t bad = FindBadIndex(idx, num_indices, d.gather_dim);
      OP_REQUIRES(ctx, bad < 0,
                  errors::InvalidArgument("indices", SliceDebugString(indices.shape(), bad), " = ",
                                          static_cast<int64_t>(idx[bad]), " is not in [0, ",
                                          d.gather_dim, ")"));
      VisitByElementSize(params.dtype(), [&](auto tag) {
        using U = typename decltype(tag)::type;
        CopySlices<U, Index>(ctx, d, ElementsAs<U>(params), idx, MutableElementsAs<U>(out));
      });
    });
  }

 private:
  int32_t batch_dims_ = 0;
};

// TensorFlow's CPU registrations: every dtype with an element type here, resource handles
// included; indices int16/int32/int64 (each op's OpDef narrows that further).
constexpr DataType kGatherTypes[] = {
#define SLUICE_GATHER_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_ALL_TYPES(SLUICE_GATHER_TYPE)
#undef SLUICE_GATHER_TYPE
        DT_RESOURCE};

REGISTER_KERNEL_BUILDER(Name("Gather").Device(DEVICE_CPU).TypeConstraint("Tparams", kGatherTypes),
                        GatherOp);
REGISTER_KERNEL_BUILDER(
    Name("GatherV2").Device(DEVICE_CPU).TypeConstraint("Tparams", kGatherTypes).HostMemory("axis"),
    GatherOp);

}  // namespace
}  // namespace sluice
