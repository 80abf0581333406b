// Ops that write slices of `updates` at the places `indices` name: ScatterNd (into zeros of a
// given shape, duplicates accumulating) and the TensorScatter family (into a copy of
// `tensor`, replacing, adding, subtracting or taking the max or min).
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The checks TensorFlow's shape function makes of indices [..., ix], updates and the output
// shape: no updates into an empty output, updates' outer dims those of indices, and its inner
// dims the output's from ix on. Checks that need an unknown rank or ix are left to the kernel.
absl::Status CheckScatterNdShapes(InferenceContext* c, ShapeHandle indices, ShapeHandle updates,
                                  ShapeHandle output) {
  if (c->Value(c->NumElements(output)) == 0 &&
      (c->Value(c->NumElements(indices)) > 0 || c->Value(c->NumElements(updates)) > 0)) {
    return errors::InvalidArgument("Indices and updates specified for empty input");
  }
  if (!c->RankKnown(indices) || !c->RankKnown(updates) || c->Rank(updates) == 0) {
    return absl::OkStatus();
  }
  const int64_t outer = int64_t{c->Rank(indices)} - 1;
  const DimensionHandle ix_dim = c->Dim(indices, -1);
  if (!c->ValueKnown(ix_dim)) return absl::OkStatus();
  const int64_t ix = c->Value(ix_dim);
  ShapeHandle indices_outer, updates_outer, unused;
  RETURN_IF_ERROR(c->Subshape(indices, 0, outer, &indices_outer));
  RETURN_IF_ERROR(c->Subshape(updates, 0, outer, &updates_outer));
  absl::Status merged = c->Merge(indices_outer, updates_outer, &unused);
  if (!merged.ok()) {
    return errors::InvalidArgument(
        "Dimensions [0,", outer, ") of indices[shape=", c->DebugString(indices),
        "] = ", c->DebugString(indices_outer), " must match dimensions [0,", outer,
        ") of updates[shape=", c->DebugString(updates), "] = ", c->DebugString(updates_outer), ": ",
        merged.message());
  }
  ShapeHandle output_inner, updates_inner;
  RETURN_IF_ERROR(c->Subshape(output, ix, &output_inner));
  RETURN_IF_ERROR(c->Subshape(updates, outer, &updates_inner));
  merged = c->Merge(output_inner, updates_inner, &unused);
  if (!merged.ok()) {
    return errors::InvalidArgument(
        "Dimensions [", ix, ",", c->Rank(output), ") of input[shape=", c->DebugString(output),
        "] = ", c->DebugString(output_inner), " must match dimensions [", outer, ",",
        c->Rank(updates), ") of updates[shape=", c->DebugString(updates),
        "] = ", c->DebugString(updates_inner), ": ", merged.message());
  }
  return absl::OkStatus();
}

// ScatterNd(indices, updates, shape): the output has the shape the `shape` tensor holds.
absl::Status ScatterNdShape(InferenceContext* c) {
  ShapeHandle indices, updates, output;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &indices));
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 1, &updates));
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(2, &output));
  RETURN_IF_ERROR(CheckScatterNdShapes(c, indices, updates, output));
  c->set_output(0, output);
  return absl::OkStatus();
}

// TensorScatterXxx(tensor, indices, updates): the output has tensor's shape.
absl::Status TensorScatterShape(InferenceContext* c) {
  ShapeHandle output, indices, updates;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &output));
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 1, &indices));
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(2), 1, &updates));
  RETURN_IF_ERROR(CheckScatterNdShapes(c, indices, updates, output));
  c->set_output(0, output);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("ScatterNd")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Input("shape: Tindices")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int16, int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(ScatterNdShape);

REGISTER_OP("TensorScatterUpdate")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int16, int32, int64, uint16}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

REGISTER_OP("TensorScatterAdd")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

REGISTER_OP("TensorScatterSub")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

REGISTER_OP("TensorScatterMax")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

REGISTER_OP("TensorScatterMin")
    .Input("tensor: T")
    .Input("indices: Tindices")
    .Input("updates: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("bad_indices_policy: string = ''")
    .SetShapeFn(TensorScatterShape);

}  // namespace sluice
