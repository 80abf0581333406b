#include "kernels/cpu/indexing/gather_nd_plan.h"

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/types.h"

namespace sluice {

absl::Status PlanGatherNd(const Tensor& params, const Tensor& indices, GatherNdPlan* plan) {
  *plan = GatherNdPlan();
  if (params.dims() < 1) return errors::InvalidArgument("params must be at least a vector");
  if (indices.dims() < 1) return errors::InvalidArgument("indices must be at least a vector");
  const int64_t depth = indices.dim_size(indices.dims() - 1);
  if (depth > params.dims()) {
    return errors::InvalidArgument("index innermost dimension length must be <= params rank; saw: ",
                                   depth, " vs. ", params.dims());
  }
  // TensorFlow addresses params with the index dtype, so narrow indices limit its size.
  const int64_t index_max = MaxIndexValue(indices.dtype());
  if (params.NumElements() > index_max) {
    return errors::InvalidArgument("params.NumElements() too large for ",
                                   DataTypeString(indices.dtype()),
                                   " indexing: ", params.NumElements(), " > ", index_max);
  }
  plan->output_shape = indices.shape();
  plan->output_shape.RemoveLastDims(1);  // shape-safe: indices has rank >= 1 (checked above)
  plan->rows = plan->output_shape.num_elements();
  for (int d = static_cast<int>(depth); d < params.dims(); ++d) {
    RETURN_IF_ERROR(plan->output_shape.AddDimWithStatus(params.dim_size(d)));
    plan->slice *= params.dim_size(d);
  }
  if (plan->rows == 0) return absl::OkStatus();
  if (params.NumElements() == 0) {
    return errors::InvalidArgument(
        "Requested more than 0 entries, but params is empty.  Params shape: ",
        params.shape().DebugString());
  }
  if (depth > GatherNdPlan::kMaxDepth) {
    return errors::InvalidArgument("Only indices.shape[-1] values between 1 and ",
                                   GatherNdPlan::kMaxDepth,
                                   " are currently supported.  Requested rank: ", depth);
  }
  plan->depth = static_cast<int>(depth);
  for (int64_t k = depth - 1, stride = plan->slice; k >= 0; --k) {
    plan->dims[k] = params.dim_size(k);
    plan->strides[k] = stride;
    stride *= params.dim_size(k);
  }
  return absl::OkStatus();
}

}  // namespace sluice
