// Ops that pick elements by index: Gather, GatherV2 (with an axis and batch dims),
// GatherNd, and OneHot, which expands indices into one-hot vectors.
#include <cstdint>
#include <cstdlib>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// indices' shape followed by params' shape without its first dim.
absl::Status GatherShape(InferenceContext* c) {
  ShapeHandle params;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &params));
  ShapeHandle params_inner, out;
  RETURN_IF_ERROR(c->Subshape(params, 1, &params_inner));
  RETURN_IF_ERROR(c->Concatenate(c->input(1), params_inner, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// params[:axis] + indices[batch_dims:] + params[axis+1:]. Without the axis's value only
// the rank is known.
absl::Status GatherV2Shape(InferenceContext* c) {
  ShapeHandle params;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &params));
  ShapeHandle indices = c->input(1);
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(2), 0, &unused));
  int32_t batch_dims;
  RETURN_IF_ERROR(c->GetAttr("batch_dims", &batch_dims));
  const Tensor* axis_t = c->input_tensor(2);
  if (axis_t == nullptr) {
    if (c->RankKnown(params) && c->RankKnown(indices)) {
      const int32_t indices_rank = c->Rank(indices);
      const int32_t batch = batch_dims < 0 ? batch_dims + indices_rank : batch_dims;
      c->set_output(0, c->UnknownShapeOfRank(int64_t{c->Rank(params)} + indices_rank - 1 - batch));
    } else {
      c->set_output(0, c->UnknownShape());
    }
    return absl::OkStatus();
  }
  int64_t axis;
  RETURN_IF_ERROR(IntegerTensorScalar(*axis_t, &axis));
  // Beyond any possible rank; rejecting it here keeps axis + 1 and -axis from overflowing.
  if (axis > TensorShape::kMaxDims || axis < -TensorShape::kMaxDims) {
    return errors::InvalidArgument("axis ", axis, " is out of range for params of shape ",
                                   c->DebugString(params));
  }
  // params must have the axis: rank >= axis + 1, or >= -axis for negative axes.
  RETURN_IF_ERROR(c->WithRankAtLeast(params, axis < 0 ? -axis : axis + 1, &unused));
  // -rank(indices) <= batch_dims <= rank(indices), and rank(params) > batch_dims.
  RETURN_IF_ERROR(c->WithRankAtLeast(indices, std::abs(int64_t{batch_dims}), &unused));
  if (batch_dims < 0) batch_dims += c->Rank(indices);
  RETURN_IF_ERROR(c->WithRankAtLeast(params, int64_t{batch_dims} + 1, &unused));
  ShapeHandle params_outer, indices_inner, out;
  RETURN_IF_ERROR(c->Subshape(params, 0, axis, &params_outer));
  RETURN_IF_ERROR(c->Subshape(indices, batch_dims, &indices_inner));
  RETURN_IF_ERROR(c->Concatenate(params_outer, indices_inner, &out));
  // axis + 1 would wrap to 0 for axis -1, whose inner part is empty anyway.
  if (axis != -1) {
    ShapeHandle params_inner;
    RETURN_IF_ERROR(c->Subshape(params, axis + 1, &params_inner));
    RETURN_IF_ERROR(c->Concatenate(out, params_inner, &out));
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

// indices' shape with a new dim of size `depth` at `axis` (-1: last).
absl::Status OneHotShape(InferenceContext* c) {
  int32_t axis;
  RETURN_IF_ERROR(c->GetAttr("axis", &axis));
  if (axis < -1) return errors::InvalidArgument("axis must be >= -1");
  DimensionHandle depth;
  RETURN_IF_ERROR(c->MakeDimForScalarInput(1, &depth));
  ShapeHandle indices = c->input(0);
  if (!c->RankKnown(indices)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  // TensorFlow wraps the axis modulo the output rank, so axes past the end count from
  // the front again.
  const int64_t new_rank = int64_t{c->Rank(indices)} + 1;
  const int64_t depth_index = (axis + new_rank) % new_rank;
  ShapeHandle front, back, out;
  RETURN_IF_ERROR(c->Subshape(indices, 0, depth_index, &front));
  RETURN_IF_ERROR(c->Subshape(indices, depth_index, &back));
  RETURN_IF_ERROR(c->Concatenate(front, c->Vector(depth), &out));
  RETURN_IF_ERROR(c->Concatenate(out, back, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Gather")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Output("output: Tparams")
    .Attr("validate_indices: bool = true")
    .Attr("Tparams: type")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn(GatherShape);

REGISTER_OP("GatherV2")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Input("axis: Taxis")
    .Output("output: Tparams")
    .Attr("batch_dims: int = 0")
    .Attr("Tparams: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("Taxis: {int32, int64}")
    .SetShapeFn(GatherV2Shape);

REGISTER_OP("GatherNd")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Output("output: Tparams")
    .Attr("Tparams: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(shape_inference::GatherNdShape);

REGISTER_OP("OneHot")
    .Input("indices: TI")
    .Input("depth: int32")
    .Input("on_value: T")
    .Input("off_value: T")
    .Output("output: T")
    .Attr("axis: int = -1")
    .Attr("T: type")
    .Attr("TI: {uint8, int8, int32, int64} = DT_INT64")
    .SetShapeFn(OneHotShape);

}  // namespace sluice
