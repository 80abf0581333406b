// Segment reductions: rows of `data` reduced into the output row their segment id names.
// The Unsorted forms take any ids (negative ones dropped) and the output's row count as
// `num_segments`; the sorted forms (Segment*) need sorted ids and end at the last one; the
// Sparse forms reduce the rows `indices` picks, with sorted ids, optionally into
// `num_segments` rows.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
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

// [?] + data.shape[1:]: the row count depends on the ids' values.
absl::Status SegmentReductionShape(InferenceContext* c) {
  ShapeHandle data, unused, inner, out;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &data));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &unused));
  RETURN_IF_ERROR(c->Subshape(data, 1, &inner));
  RETURN_IF_ERROR(c->Concatenate(c->Vector(InferenceContext::kUnknownDim), inner, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// [num_segments or ?] + data.shape[1:], indices and segment_ids vectors of one length.
absl::Status SparseSegmentReductionShape(InferenceContext* c, bool has_num_segments) {
  ShapeHandle data, indices, ids, unused, inner, out;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &data));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &indices));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &ids));
  DimensionHandle rows = c->MakeDim(InferenceContext::kUnknownDim);
  if (has_num_segments) {
    RETURN_IF_ERROR(c->WithRank(c->input(3), 0, &unused));
  }
  RETURN_IF_ERROR(c->Merge(indices, ids, &unused));
  RETURN_IF_ERROR(c->Subshape(data, 1, &inner));
  if (has_num_segments && c->input_tensor(3) != nullptr) {
    int64_t num_segments = 0;
    RETURN_IF_ERROR(IntegerTensorScalar(*c->input_tensor(3), &num_segments));
    if (num_segments < 0) {
      return errors::InvalidArgument("Cannot specify a negative value for num_segments");
    }
    rows = c->MakeDim(num_segments);
  }
  RETURN_IF_ERROR(c->Concatenate(c->Vector(rows), inner, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// The gradients of SparseSegmentSum/Mean/SqrtN: grad's rows scattered to rows of the data.
// The first version's output has output_dim0 rows (known when that input is constant); V2's
// has one row per distinct index, and its second output lists those indices.
absl::Status SparseSegmentGradShape(InferenceContext* c, bool unique_rows) {
  ShapeHandle grad, indices, unused, inner, out;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &grad));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &indices));
  RETURN_IF_ERROR(c->Merge(c->input(2), indices, &unused));
  RETURN_IF_ERROR(c->WithRank(c->input(3), 0, &unused));
  RETURN_IF_ERROR(c->Subshape(grad, 1, &inner));
  DimensionHandle rows = c->UnknownDim();
  if (!unique_rows && c->input_tensor(3) != nullptr) {
    int64_t dim0 = 0;
    RETURN_IF_ERROR(IntegerTensorScalar(*c->input_tensor(3), &dim0));
    if (dim0 < 0) {
      return errors::InvalidArgument("Cannot specify a negative value for output_dim0");
    }
    rows = c->MakeDim(dim0);
  }
  RETURN_IF_ERROR(c->Concatenate(c->Vector(rows), inner, &out));
  c->set_output(0, out);
  if (unique_rows) c->set_output(1, c->Vector(InferenceContext::kUnknownDim));
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

#define SLUICE_SEGMENT_OP(NAME, TYPES)  \
  REGISTER_OP(NAME)                     \
      .Input("data: T")                 \
      .Input("segment_ids: Tindices")   \
      .Output("output: T")              \
      .Attr("T: " TYPES)                \
      .Attr("Tindices: {int32, int64}") \
      .SetShapeFn(SegmentReductionShape)

SLUICE_SEGMENT_OP("SegmentSum", "numbertype");
SLUICE_SEGMENT_OP("SegmentMean", "numbertype");
SLUICE_SEGMENT_OP("SegmentProd", "numbertype");
SLUICE_SEGMENT_OP("SegmentMax", "realnumbertype");
SLUICE_SEGMENT_OP("SegmentMin", "realnumbertype");

#undef SLUICE_SEGMENT_OP

#define SLUICE_SPARSE_SEGMENT_OP(NAME, TYPES)         \
  REGISTER_OP(NAME)                                   \
      .Input("data: T")                               \
      .Input("indices: Tidx")                         \
      .Input("segment_ids: Tsegmentids")              \
      .Output("output: T")                            \
      .Attr("T: " TYPES)                              \
      .Attr("Tidx: {int32, int64} = DT_INT32")        \
      .Attr("Tsegmentids: {int32, int64} = DT_INT32") \
      .Attr("sparse_gradient: bool = false")          \
      .SetShapeFn([](InferenceContext* c) { return SparseSegmentReductionShape(c, false); })

#define SLUICE_SPARSE_SEGMENT_WITH_NUM_SEGMENTS_OP(NAME, TYPES) \
  REGISTER_OP(NAME)                                             \
      .Input("data: T")                                         \
      .Input("indices: Tidx")                                   \
      .Input("segment_ids: Tsegmentids")                        \
      .Input("num_segments: Tnumsegments")                      \
      .Output("output: T")                                      \
      .Attr("T: " TYPES)                                        \
      .Attr("Tidx: {int32, int64} = DT_INT32")                  \
      .Attr("Tnumsegments: {int32, int64} = DT_INT32")          \
      .Attr("Tsegmentids: {int32, int64} = DT_INT32")           \
      .Attr("sparse_gradient: bool = false")                    \
      .SetShapeFn([](InferenceContext* c) { return SparseSegmentReductionShape(c, true); })

SLUICE_SPARSE_SEGMENT_OP("SparseSegmentSum", "realnumbertype");
SLUICE_SPARSE_SEGMENT_OP("SparseSegmentMean", "{bfloat16, half, float, double}");
SLUICE_SPARSE_SEGMENT_OP("SparseSegmentSqrtN", "{bfloat16, half, float, double}");
SLUICE_SPARSE_SEGMENT_WITH_NUM_SEGMENTS_OP("SparseSegmentSumWithNumSegments", "realnumbertype");
SLUICE_SPARSE_SEGMENT_WITH_NUM_SEGMENTS_OP("SparseSegmentMeanWithNumSegments",
                                           "{bfloat16, half, float, double}");
SLUICE_SPARSE_SEGMENT_WITH_NUM_SEGMENTS_OP("SparseSegmentSqrtNWithNumSegments",
                                           "{bfloat16, half, float, double}");

#undef SLUICE_SPARSE_SEGMENT_WITH_NUM_SEGMENTS_OP
#undef SLUICE_SPARSE_SEGMENT_OP

#define SLUICE_SPARSE_SEGMENT_GRAD_OP(NAME)           \
  REGISTER_OP(NAME)                                   \
      .Input("grad: T")                               \
      .Input("indices: Tidx")                         \
      .Input("segment_ids: Tsegmentids")              \
      .Input("output_dim0: int32")                    \
      .Output("output: T")                            \
      .Attr("T: {bfloat16, half, float, double}")     \
      .Attr("Tidx: {int32, int64} = DT_INT32")        \
      .Attr("Tsegmentids: {int32, int64} = DT_INT32") \
      .SetShapeFn([](InferenceContext* c) { return SparseSegmentGradShape(c, false); })

#define SLUICE_SPARSE_SEGMENT_GRAD_V2_OP(NAME)        \
  REGISTER_OP(NAME)                                   \
      .Input("grad: T")                               \
      .Input("indices: Tidx")                         \
      .Input("segment_ids: Tsegmentids")              \
      .Input("dense_output_dim0: int32")              \
      .Output("output: T")                            \
      .Output("sorted_unique_indices: Tidx")          \
      .Attr("T: {bfloat16, half, float, double}")     \
      .Attr("Tidx: {int32, int64} = DT_INT32")        \
      .Attr("Tsegmentids: {int32, int64} = DT_INT32") \
      .SetShapeFn([](InferenceContext* c) { return SparseSegmentGradShape(c, true); })

SLUICE_SPARSE_SEGMENT_GRAD_OP("SparseSegmentSumGrad");
SLUICE_SPARSE_SEGMENT_GRAD_OP("SparseSegmentMeanGrad");
SLUICE_SPARSE_SEGMENT_GRAD_OP("SparseSegmentSqrtNGrad");
SLUICE_SPARSE_SEGMENT_GRAD_V2_OP("SparseSegmentSumGradV2");
SLUICE_SPARSE_SEGMENT_GRAD_V2_OP("SparseSegmentMeanGradV2");
SLUICE_SPARSE_SEGMENT_GRAD_V2_OP("SparseSegmentSqrtNGradV2");

#undef SLUICE_SPARSE_SEGMENT_GRAD_V2_OP
#undef SLUICE_SPARSE_SEGMENT_GRAD_OP

REGISTER_OP("EuclideanNorm")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: numbertype")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_inference::ReductionShape);

REGISTER_OP("L2Loss")
    .Input("t: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_inference::ScalarShape);

REGISTER_OP("CumulativeLogsumexp")
    .Input("x: T")
    .Input("axis: Tidx")
    .Output("out: T")
    .Attr("exclusive: bool = false")
    .Attr("reverse: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_inference::UnchangedShape);

}  // namespace sluice
