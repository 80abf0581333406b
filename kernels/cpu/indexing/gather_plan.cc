#include "kernels/cpu/indexing/gather_plan.h"

#include <limits>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/types.h"

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

}  // namespace

absl::Status PlanGather(const Tensor& params, const Tensor& indices, const Tensor* axis_tensor,
                        int32_t batch_dims_attr, GatherPlan* plan) {
  *plan = GatherPlan();
  if (params.dims() < 1) {
    return errors::InvalidArgument("params must be at least 1 dimensional");
  }
  int64_t axis = 0;
  if (axis_tensor != nullptr) {
    if (axis_tensor->dims() != 0) return errors::InvalidArgument("axis must be scalar");
    axis = IndexElement(*axis_tensor, 0);
  }
  const int64_t min_params_dim = MinRankForAxis(axis);
  if (params.dims() < min_params_dim) {
    return errors::InvalidArgument("Shape must be at least rank ", min_params_dim, " but is rank ",
                                   params.dims());
  }
  if (axis < 0) axis += params.dims();

  int64_t batch_dims = batch_dims_attr;
  if (batch_dims != 0) {
    if (batch_dims < -indices.dims() || batch_dims > indices.dims()) {
      return errors::InvalidArgument("Expected batch_dims in the range [", -indices.dims(), ", ",
                                     indices.dims(), "], but got ", batch_dims);
    }
    if (batch_dims < 0) batch_dims += indices.dims();
    if (axis_tensor == nullptr) axis = batch_dims;
    if (batch_dims >= params.dims()) {
      return errors::InvalidArgument("batch_dims (", batch_dims,
                                     ") must be less than rank(params) (", params.dims(), ").");
    }
    if (axis < batch_dims) {
      return errors::InvalidArgument("batch_dims (", batch_dims,
                                     ") must be less than or equal to axis (", axis, ").");
    }
    for (int i = 0; i < batch_dims; ++i) {
      if (params.dim_size(i) != indices.dim_size(i)) {
        return errors::InvalidArgument("params.shape[", i, "]: ", params.dim_size(i),
                                       " should be equal to indices.shape[", i,
                                       "]: ", indices.dim_size(i));
      }
    }
  }

  plan->gather_dim = params.dim_size(axis);
  const int64_t index_max = MaxIndexValue(indices.dtype());
  if (plan->gather_dim > index_max) {
    return errors::InvalidArgument("params.shape[", axis, "] too large for ",
                                   DataTypeString(indices.dtype()), " indexing: ", plan->gather_dim,
                                   " > ", index_max);
  }
  // The first two loops add params' dims [0, axis), a prefix of a valid shape (batch_dims <=
  // axis < params.dims(), checked above); the dims after them can overflow and are checked.
  TensorShape& shape = plan->output_shape;
  for (int i = 0; i < batch_dims; ++i) {
    shape.AddDim(params.dim_size(i));  // shape-safe: a prefix of params' dims
    plan->batch *= params.dim_size(i);
  }
  for (int i = batch_dims; i < axis; ++i) {
    shape.AddDim(params.dim_size(i));  // shape-safe: a prefix of params' dims
    plan->outer *= params.dim_size(i);
  }
  for (int i = batch_dims; i < indices.dims(); ++i) {
    RETURN_IF_ERROR(shape.AddDimWithStatus(indices.dim_size(i)));
  }
  for (int i = axis + 1; i < params.dims(); ++i) {
    RETURN_IF_ERROR(shape.AddDimWithStatus(params.dim_size(i)));
    plan->inner *= params.dim_size(i);
  }
  const int64_t num_indices = indices.NumElements();
  plan->n = num_indices == 0 ? 0 : num_indices / plan->batch;
  return absl::OkStatus();
}

}  // namespace sluice
