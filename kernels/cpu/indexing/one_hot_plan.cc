#include "kernels/cpu/indexing/one_hot_plan.h"

#include "graph/core/errors.h"

namespace sluice {

absl::Status PlanOneHot(const Tensor& indices, const Tensor& depth, const Tensor& on_value,
                        const Tensor& off_value, int64_t axis_attr, OneHotPlan* plan) {
  *plan = OneHotPlan();
  const int indices_dims = indices.dims();
  const int output_dims = indices_dims + 1;
  if (depth.dims() != 0) {
    return errors::InvalidArgument("depth must be a scalar, but got: ",
                                   depth.shape().DebugString());
  }
  if (on_value.dims() != 0) {
    return errors::InvalidArgument("on_value must be a scalar, but got: ",
                                   on_value.shape().DebugString());
  }
  if (off_value.dims() != 0) {
    return errors::InvalidArgument("off_value must be a scalar, but got: ",
                                   off_value.shape().DebugString());
  }
  if (axis_attr != -1 && (axis_attr < 0 || axis_attr >= output_dims)) {
    return errors::InvalidArgument("Expected axis to be -1 or between [0, ", output_dims,
                                   ").  But received: ", axis_attr);
  }
  const int64_t depth_v = depth.base<int32_t>()[0];
  if (depth_v < 0) return errors::InvalidArgument("depth must be non-negative, got: ", depth_v);
  if (MultiplyWithoutOverflow(indices.NumElements(), depth_v) < 0) {
    return errors::InvalidArgument("OneHot result would have shape ", indices.shape().DebugString(),
                                   " + [", depth_v, "], which exceeds 2**63 - 1 elements");
  }
  const int axis = axis_attr == -1 ? indices_dims : static_cast<int>(axis_attr);
  plan->output_shape = indices.shape();
  RETURN_IF_ERROR(plan->output_shape.InsertDimWithStatus(axis, depth_v));
  plan->depth = depth_v;
  for (int i = 0; i < axis; ++i) plan->prefix *= indices.dim_size(i);
  plan->suffix = plan->prefix == 0 ? 0 : indices.NumElements() / plan->prefix;
  return absl::OkStatus();
}

}  // namespace sluice
