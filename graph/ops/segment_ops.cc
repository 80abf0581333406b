// Segment reductions: rows of `data` reduced into the output row their segment id names.
// The Unsorted forms take any ids (negative ones dropped) and the output's row count as
// `num_segments`.
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

// [num_segments] + data.shape[rank(segment_ids):], data's leading dims merged with
// segment_ids' shape.
absl::Status UnsortedSegmentReductionShape(InferenceContext* c) {
  ShapeHandle data = c->input(0);
  ShapeHandle ids = c->input(1);
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(2), 0, &unused));
  if (!c->RankKnown(ids)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(c->MergePrefix(data, ids, &data, &ids));
  DimensionHandle num_segments;
  RETURN_IF_ERROR(c->MakeDimForScalarInput(2, &num_segments));
  ShapeHandle inner, out;
  RETURN_IF_ERROR(c->Subshape(data, c->Rank(ids), &inner));
  RETURN_IF_ERROR(c->Concatenate(c->Vector(num_segments), inner, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

#define SLUICE_UNSORTED_SEGMENT_OP(NAME, TYPES, INDEX_TYPES) \
  REGISTER_OP(NAME)                                          \
      .Input("data: T")                                      \
      .Input("segment_ids: Tindices")                        \
      .Input("num_segments: Tnumsegments")                   \
      .Output("output: T")                                   \
      .Attr("T: " TYPES)                                     \
      .Attr("Tindices: " INDEX_TYPES)                        \
      .Attr("Tnumsegments: {int32, int64} = DT_INT32")       \
      .SetShapeFn(UnsortedSegmentReductionShape)

SLUICE_UNSORTED_SEGMENT_OP("UnsortedSegmentSum", "numbertype", "{int16, int32, int64}");
SLUICE_UNSORTED_SEGMENT_OP("UnsortedSegmentProd", "numbertype", "{int32, int64}");
SLUICE_UNSORTED_SEGMENT_OP("UnsortedSegmentMax", "realnumbertype", "{int32, int64}");
SLUICE_UNSORTED_SEGMENT_OP("UnsortedSegmentMin", "realnumbertype", "{int32, int64}");

#undef SLUICE_UNSORTED_SEGMENT_OP

}  // namespace sluice
