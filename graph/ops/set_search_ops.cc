// Set and search ops on vectors and rows: ListDiff, UniqueWithCounts{,V2} (Unique with the
// number of occurrences of each value), LowerBound and UpperBound (searchsorted).
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

absl::Status ListDiffShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &unused));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &unused));
  const ShapeHandle out = c->Vector(InferenceContext::kUnknownDim);
  c->set_output(0, out);
  c->set_output(1, out);
  return absl::OkStatus();
}

absl::Status UniqueWithCountsShape(InferenceContext* c) {
  const ShapeHandle unique = c->Vector(InferenceContext::kUnknownDim);
  c->set_output(0, unique);
  c->set_output(1, c->input(0));
  c->set_output(2, unique);
  return absl::OkStatus();
}

// y keeps x's rank when it is known; idx and count are vectors of unknown length (the axis
// is read by the kernel).
absl::Status UniqueWithCountsV2Shape(InferenceContext* c) {
  const ShapeHandle x = c->input(0);
  c->set_output(0, c->RankKnown(x) ? c->UnknownShapeOfRank(c->Rank(x)) : c->UnknownShape());
  c->set_output(1, c->Vector(InferenceContext::kUnknownDim));
  c->set_output(2, c->Vector(InferenceContext::kUnknownDim));
  return absl::OkStatus();
}

// One position per value, for each row of sorted_inputs and of values.
absl::Status SearchSortedShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &unused));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &unused));
  c->set_output(0, c->input(1));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("ListDiff")
    .Input("x: T")
    .Input("y: T")
    .Output("out: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn(ListDiffShape);

REGISTER_OP("UniqueWithCounts")
    .Input("x: T")
    .Output("y: T")
    .Output("idx: out_idx")
    .Output("count: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn(UniqueWithCountsShape);

REGISTER_OP("UniqueWithCountsV2")
    .Input("x: T")
    .Input("axis: Taxis")
    .Output("y: T")
    .Output("idx: out_idx")
    .Output("count: out_idx")
    .Attr("T: type")
    .Attr("Taxis: {int32, int64} = DT_INT64")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn(UniqueWithCountsV2Shape);

REGISTER_OP("LowerBound")
    .Input("sorted_inputs: T")
    .Input("values: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetShapeFn(SearchSortedShape);

REGISTER_OP("UpperBound")
    .Input("sorted_inputs: T")
    .Input("values: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetShapeFn(SearchSortedShape);

}  // namespace sluice
