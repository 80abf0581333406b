// Ops that rearrange or reinterpret a tensor's elements without computing on them: Roll.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The input at least a vector, shift and axis scalars or vectors of one shape; the kernel
// checks the axes' values.
absl::Status RollShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &unused));
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(1), 1, &unused));
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(2), 1, &unused));
  RETURN_IF_ERROR(c->Merge(c->input(1), c->input(2), &unused));
  return shape_inference::UnchangedShape(c);
}

}  // namespace

REGISTER_OP("Roll")
    .Input("input: T")
    .Input("shift: Tshift")
    .Input("axis: Taxis")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tshift: {int32,int64}")
    .Attr("Taxis: {int32,int64}")
    .SetShapeFn(RollShape);

}  // namespace sluice
