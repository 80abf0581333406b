// Gather and GatherV2 on the CPU: output = params.shape[:axis] + indices.shape[batch_dims:]
// + params.shape[axis+1:], where each index selects a slice of params along `axis`.
//
// Algorithm: params is viewed as [batch, outer, gather_dim, inner] and the output as
// [batch, outer, N, inner] (N = indices per batch). Every index is range-checked before any
// element moves (INVALID_ARGUMENT "indices[0,1] = 7 is not in [0, 3)", TensorFlow's text,
// naming the first bad index); then each (batch, outer, n) slice of `inner` elements is
// copied, split over the intra-op pool when the output is large. Elements are moved by size
// (element_bytes.h), so one instantiation serves every dtype of that size; Gather's
// validate_indices attr is ignored as in TensorFlow (CPU indices are always checked).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/index_coordinates.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The rank params needs for `axis`: axis + 1, or -axis for a negative axis. Saturates at
// INT64_MAX (which no rank reaches) for the int64 extremes a fed axis may hold, where the
// plain expressions overflow.
int64_t MinRankForAxis(int64_t axis) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (axis < 0) return axis == std::numeric_limits<int64_t>::min() ? kMax : -axis;
  return axis == kMax ? kMax : axis + 1;
}

struct GatherDims {
  int64_t batch = 1;
  int64_t outer = 1;
  int64_t gather_dim = 0;
  int64_t inner = 1;
  int64_t n = 0;  // indices per batch
};

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
void CopySlices(OpKernelContext* ctx, const GatherDims& d, const U* params, const Index* indices,
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
    OP_REQUIRES(ctx, params.dims() >= 1,
                errors::InvalidArgument("params must be at least 1 dimensional"));
    int64_t axis = 0;
    bool axis_is_set = false;
    if (ctx->num_inputs() == 3) {
      const Tensor& axis_tensor = ctx->input(2);
      OP_REQUIRES(ctx, axis_tensor.dims() == 0, errors::InvalidArgument("axis must be scalar"));
      axis = IndexElement(axis_tensor, 0);
      axis_is_set = true;
    }
    const int64_t min_params_dim = MinRankForAxis(axis);
    OP_REQUIRES(ctx, params.dims() >= min_params_dim,
                errors::InvalidArgument("Shape must be at least rank ", min_params_dim,
                                        " but is rank ", params.dims()));
    if (axis < 0) axis += params.dims();

    int64_t batch_dims = batch_dims_;
    if (batch_dims != 0) {
      OP_REQUIRES(ctx, batch_dims >= -indices.dims() && batch_dims <= indices.dims(),
                  errors::InvalidArgument("Expected batch_dims in the range [", -indices.dims(),
                                          ", ", indices.dims(), "], but got ", batch_dims));
      if (batch_dims < 0) batch_dims += indices.dims();
      if (!axis_is_set) axis = batch_dims;
      OP_REQUIRES(
          ctx, batch_dims < params.dims(),
          errors::InvalidArgument("batch_dims (", batch_dims, ") must be less than rank(params) (",
                                  params.dims(), ")."));
      OP_REQUIRES(ctx, axis >= batch_dims,
                  errors::InvalidArgument("batch_dims (", batch_dims,
                                          ") must be less than or equal to axis (", axis, ")."));
      for (int i = 0; i < batch_dims; ++i) {
        OP_REQUIRES(ctx, params.dim_size(i) == indices.dim_size(i),
                    errors::InvalidArgument("params.shape[", i, "]: ", params.dim_size(i),
                                            " should be equal to indices.shape[", i,
                                            "]: ", indices.dim_size(i)));
      }
    }

    GatherDims d;
    d.gather_dim = params.dim_size(axis);
    const int64_t index_max = MaxIndexValue(indices.dtype());
    OP_REQUIRES(ctx, d.gather_dim <= index_max,
                errors::InvalidArgument("params.shape[", axis, "] too large for ",
                                        DataTypeString(indices.dtype()),
                                        " indexing: ", d.gather_dim, " > ", index_max));
    // The first two loops add params' dims [0, axis), a prefix of a valid shape (batch_dims <=
    // axis < params.dims(), checked above); the dims after them can overflow and are checked.
    TensorShape result_shape;
    for (int i = 0; i < batch_dims; ++i) {
      result_shape.AddDim(params.dim_size(i));  // shape-safe: a prefix of params' dims
      d.batch *= params.dim_size(i);
    }
    for (int i = batch_dims; i < axis; ++i) {
      result_shape.AddDim(params.dim_size(i));  // shape-safe: a prefix of params' dims
      d.outer *= params.dim_size(i);
    }
    for (int i = batch_dims; i < indices.dims(); ++i) {
      OP_REQUIRES_OK(ctx, result_shape.AddDimWithStatus(indices.dim_size(i)));
    }
    for (int i = axis + 1; i < params.dims(); ++i) {
      OP_REQUIRES_OK(ctx, result_shape.AddDimWithStatus(params.dim_size(i)));
      d.inner *= params.dim_size(i);
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, result_shape, &out));
    const int64_t num_indices = indices.NumElements();
    if (num_indices == 0 || d.inner == 0 || d.outer == 0) return;
    d.n = num_indices / d.batch;

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
