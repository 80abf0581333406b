// Common shape functions: trivial ones, broadcasting, matrix products, reductions,
// concatenation and slicing. Convolution, pooling and normalization live in
// common_shape_fns_nn.cc.
#include "graph/shape/common_shape_fns.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"

namespace sluice {
namespace shape_inference {
namespace {

// Value `i` of an int32 or int64 tensor. REQUIRES: dtype checked and i in range.
int64_t IndexValue(const Tensor& t, int64_t i) {
  if (t.dtype() == DT_INT32) return t.unaligned_flat<int32_t>()(i);
  return t.unaligned_flat<int64_t>()(i);
}

bool IsIndexTensor(const Tensor& t) { return t.dtype() == DT_INT32 || t.dtype() == DT_INT64; }

}  // namespace

// ---- Trivial shape functions -----------------------------------------------------------

absl::Status UnchangedShape(InferenceContext* c) {
  c->set_output(0, c->input(0));
  const std::vector<ShapeAndType>* handle_data = c->input_handle_shapes_and_types(0);
  if (handle_data != nullptr) c->set_output_handle_shapes_and_types(0, *handle_data);
  return absl::OkStatus();
}

absl::Status UnchangedShapeWithRank(InferenceContext* c, int32_t rank) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->WithRank(c->input(0), rank, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status UnchangedShapeWithRankAtLeast(InferenceContext* c, int32_t rank) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), rank, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status UnchangedShapeWithRankAtMost(InferenceContext* c, int32_t rank) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(0), rank, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status NoOutputs(InferenceContext* c) { return absl::OkStatus(); }

absl::Status ScalarShape(InferenceContext* c) {
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

absl::Status UnknownShape(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->UnknownShape());
  return absl::OkStatus();
}

absl::Status MergeBothInputsShapeFn(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->Merge(c->input(0), c->input(1), &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status ExplicitShape(InferenceContext* c) {
  PartialTensorShape shape;
  RETURN_IF_ERROR(c->GetAttr("shape", &shape));
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(shape, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status ExplicitShapes(InferenceContext* c) {
  std::vector<PartialTensorShape> shapes;
  RETURN_IF_ERROR(c->GetAttr("shapes", &shapes));
  if (shapes.empty()) return errors::Internal("shapes attribute is empty");
  if (static_cast<int>(shapes.size()) > c->num_outputs()) {
    return errors::InvalidArgument("shapes attribute has ", shapes.size(),
                                   " shapes but the op has ", c->num_outputs(), " outputs");
  }
  for (int i = 0; i < static_cast<int>(shapes.size()); ++i) {
    ShapeHandle out;
    RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(shapes[i], &out));
    c->set_output(i, out);
  }
  return absl::OkStatus();
}

absl::Status RandomShape(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(0, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// ---- Broadcasting ----------------------------------------------------------------------

namespace {

// Broadcasts one pair of dims where at least one is unknown. Returns false when the pair
// is (possibly) incompatible and the caller asked for an unknown shape instead of guessing.
bool BroadcastUnknownDims(InferenceContext* c, DimensionHandle dim_x, DimensionHandle dim_y,
                          bool incompatible_shape_error, DimensionHandle* out) {
  const int64_t x = InferenceContext::Value(dim_x);
  const int64_t y = InferenceContext::Value(dim_y);
  // A known dim > 1 wins: a correct program must broadcast the unknown one to it.
  if (x > 1 || y > 1) {
    *out = x > 1 ? dim_x : dim_y;
    return incompatible_shape_error;
  }
  if (x == 1) {
    *out = dim_y;
  } else if (y == 1) {
    *out = dim_x;
  } else if (dim_x.SameHandle(dim_y)) {
    *out = dim_x;
  } else if (x == InferenceContext::kUnknownDim && y == InferenceContext::kUnknownDim) {
    *out = c->UnknownDim();
  } else {
    // One unknown, the other 0: the unknown one must be 0 or 1.
    *out = c->UnknownDim();
    return incompatible_shape_error;
  }
  return true;
}

}  // namespace

absl::Status BroadcastBinaryOpOutputShapeFnHelper(InferenceContext* c, ShapeHandle shape_x,
                                                  ShapeHandle shape_y,
                                                  bool incompatible_shape_error, ShapeHandle* out) {
  if (!c->RankKnown(shape_x) || !c->RankKnown(shape_y)) {
    *out = c->UnknownShape();
    return absl::OkStatus();
  }
  const int32_t rank_x = c->Rank(shape_x);
  const int32_t rank_y = c->Rank(shape_y);
  const int32_t rank_out = std::max(rank_x, rank_y);
  // The shorter shape is padded on the left with 1s.
  const DimensionHandle dim_one = rank_x != rank_y ? c->MakeDim(1) : DimensionHandle();
  std::vector<DimensionHandle> dims;
  dims.reserve(rank_out);
  for (int i = 0; i < rank_out; ++i) {
    const bool x_is_padding = i < rank_out - rank_x;
    const bool y_is_padding = i < rank_out - rank_y;
    const DimensionHandle dim_x = x_is_padding ? dim_one : c->Dim(shape_x, i - (rank_out - rank_x));
    const DimensionHandle dim_y = y_is_padding ? dim_one : c->Dim(shape_y, i - (rank_out - rank_y));
    DimensionHandle dim;
    if (!c->ValueKnown(dim_x) || !c->ValueKnown(dim_y)) {
      if (!BroadcastUnknownDims(c, dim_x, dim_y, incompatible_shape_error, &dim)) {
        *out = c->UnknownShape();
        return absl::OkStatus();
      }
    } else if (c->Value(dim_x) == 1 && !y_is_padding) {
      dim = dim_y;
    } else if (c->Value(dim_y) == 1) {
      dim = dim_x;
    } else {
      const absl::Status merged = c->Merge(dim_x, dim_y, &dim);
      if (!merged.ok()) {
        if (incompatible_shape_error) return merged;
        // TensorFlow answers a scalar here; callers treat it as "not broadcastable".
        *out = c->Scalar();
        return absl::OkStatus();
      }
    }
    dims.push_back(dim);
  }
  *out = c->MakeShape(dims);
  return absl::OkStatus();
}

absl::Status BroadcastBinaryOpOutputShapeFn(InferenceContext* c, int output_index) {
  ShapeHandle out;
  RETURN_IF_ERROR(BroadcastBinaryOpOutputShapeFnHelper(c, c->input(0), c->input(1), true, &out));
  c->set_output(output_index, out);
  return absl::OkStatus();
}

absl::Status BroadcastBinaryOpShapeFn(InferenceContext* c) {
  return BroadcastBinaryOpOutputShapeFn(c, 0);
}

// ---- Matrix products -------------------------------------------------------------------

absl::Status MatMulShape(InferenceContext* c) {
  ShapeHandle a;
  ShapeHandle b;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &a));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &b));
  bool transpose_a;
  bool transpose_b;
  RETURN_IF_ERROR(c->GetAttr("transpose_a", &transpose_a));
  RETURN_IF_ERROR(c->GetAttr("transpose_b", &transpose_b));
  const DimensionHandle rows = c->Dim(a, transpose_a ? 1 : 0);
  const DimensionHandle cols = c->Dim(b, transpose_b ? 0 : 1);
  DimensionHandle inner;
  RETURN_IF_ERROR(c->Merge(c->Dim(a, transpose_a ? 0 : 1), c->Dim(b, transpose_b ? 1 : 0), &inner));
  c->set_output(0, c->Matrix(rows, cols));
  return absl::OkStatus();
}

namespace {

// What both BatchMatMul versions need: the batch dims of each side, the output matrix
// dims, and the inner dims that must agree.
struct BatchMatMulParts {
  ShapeHandle a_batch;
  ShapeHandle b_batch;
  ShapeHandle matrix;
  DimensionHandle a_inner;
  DimensionHandle b_inner;
};

absl::Status GetBatchMatMulParts(InferenceContext* c, BatchMatMulParts* parts) {
  ShapeHandle a;
  ShapeHandle b;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &a));
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 2, &b));
  bool adj_x;
  bool adj_y;
  RETURN_IF_ERROR(c->GetAttr("adj_x", &adj_x));
  RETURN_IF_ERROR(c->GetAttr("adj_y", &adj_y));
  parts->matrix = c->Matrix(c->Dim(a, adj_x ? -1 : -2), c->Dim(b, adj_y ? -2 : -1));
  parts->a_inner = c->Dim(a, adj_x ? -2 : -1);
  parts->b_inner = c->Dim(b, adj_y ? -1 : -2);
  RETURN_IF_ERROR(c->Subshape(a, 0, -2, &parts->a_batch));
  return c->Subshape(b, 0, -2, &parts->b_batch);
}

}  // namespace

absl::Status BatchMatMulShape(InferenceContext* c) {
  BatchMatMulParts parts;
  RETURN_IF_ERROR(GetBatchMatMulParts(c, &parts));
  ShapeHandle batch;
  RETURN_IF_ERROR(c->Merge(parts.a_batch, parts.b_batch, &batch));
  DimensionHandle inner;
  RETURN_IF_ERROR(c->Merge(parts.a_inner, parts.b_inner, &inner));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(batch, parts.matrix, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status BatchMatMulV2Shape(InferenceContext* c) {
  BatchMatMulParts parts;
  RETURN_IF_ERROR(GetBatchMatMulParts(c, &parts));
  DimensionHandle inner;
  RETURN_IF_ERROR(c->Merge(parts.a_inner, parts.b_inner, &inner));
  ShapeHandle batch;
  RETURN_IF_ERROR(
      BroadcastBinaryOpOutputShapeFnHelper(c, parts.a_batch, parts.b_batch, true, &batch));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(batch, parts.matrix, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// ---- Reductions ------------------------------------------------------------------------

absl::Status ReductionShape(InferenceContext* c) {
  const ShapeHandle input = c->input(0);
  ShapeHandle indices;
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(1), 1, &indices));
  bool keep_dims;
  RETURN_IF_ERROR(c->GetAttr("keep_dims", &keep_dims));

  const Tensor* indices_t = c->input_tensor(1);
  if (indices_t == nullptr || !c->RankKnown(input)) {
    if (keep_dims && c->RankKnown(input)) {
      c->set_output(0, c->UnknownShapeOfRank(c->Rank(input)));
      return absl::OkStatus();
    }
    return UnknownShape(c);
  }
  if (!IsIndexTensor(*indices_t)) {
    return errors::InvalidArgument("reduction_indices can only be int32 or int64");
  }
  const int32_t rank = c->Rank(input);
  std::set<int64_t> reduced;
  for (int64_t i = 0; i < indices_t->NumElements(); ++i) {
    const int64_t index = IndexValue(*indices_t, i);
    if (index < -rank || index >= rank) {
      return errors::InvalidArgument("Invalid reduction dimension ", index, " for input with ",
                                     rank, " dimensions.");
    }
    reduced.insert(index < 0 ? index + rank : index);
  }
  std::vector<DimensionHandle> dims;
  for (int i = 0; i < rank; ++i) {
    if (reduced.count(i) == 0) {
      dims.push_back(c->Dim(input, i));
    } else if (keep_dims) {
      dims.push_back(c->MakeDim(1));
    }
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

// ---- Concatenation ---------------------------------------------------------------------

namespace {

// Output when the axis is unknown: all inputs must share a rank, whose dims are unknown.
absl::Status ConcatWithUnknownAxis(InferenceContext* c, int start, int end) {
  int32_t rank = InferenceContext::kUnknownRank;
  for (int i = start; i < end && rank == InferenceContext::kUnknownRank; ++i) {
    rank = c->Rank(c->input(i));
  }
  if (rank == InferenceContext::kUnknownRank) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  if (rank == 0) {
    return errors::InvalidArgument("Can't concatenate scalars (use tf.stack instead)");
  }
  ShapeHandle unused;
  for (int i = start; i < end; ++i) RETURN_IF_ERROR(c->WithRank(c->input(i), rank, &unused));
  c->set_output(0, c->UnknownShapeOfRank(rank));
  return absl::OkStatus();
}

// Splits input `i` around `axis` into the dims before it, the axis dim, and those after.
absl::Status SplitAroundAxis(InferenceContext* c, int i, int64_t axis, ShapeHandle* before,
                             DimensionHandle* middle, ShapeHandle* after) {
  const int64_t min_rank = axis < 0 ? -axis : axis + 1;
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(i), min_rank, &input));
  RETURN_IF_ERROR(c->Subshape(input, 0, axis, before));
  *middle = c->Dim(input, axis);
  if (axis == -1) {
    *after = c->Scalar();
    return absl::OkStatus();
  }
  return c->Subshape(input, axis + 1, after);
}

// Values are inputs [start, end); the scalar axis is input `axis_index`.
absl::Status ConcatShapeHelper(InferenceContext* c, int start, int end, int axis_index) {
  if (end <= start)
    return errors::InvalidArgument("Concat needs at least one value to concatenate");
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(axis_index), 0, &unused));
  const Tensor* axis_t = c->input_tensor(axis_index);
  if (axis_t == nullptr) return ConcatWithUnknownAxis(c, start, end);
  if (!IsIndexTensor(*axis_t) || axis_t->NumElements() != 1) {
    return errors::InvalidArgument("Concat axis must be an int32 or int64 scalar");
  }
  const int64_t axis = IndexValue(*axis_t, 0);
  // SplitAroundAxis needs -axis and axis + 1, which overflow at the int64 extremes.
  if (axis == std::numeric_limits<int64_t>::min() || axis == std::numeric_limits<int64_t>::max()) {
    return errors::InvalidArgument("Concat axis ", axis, " is out of range");
  }
  ShapeHandle out_before;
  DimensionHandle out_middle;
  ShapeHandle out_after;
  RETURN_IF_ERROR(SplitAroundAxis(c, end - 1, axis, &out_before, &out_middle, &out_after));
  for (int i = end - 2; i >= start; --i) {
    ShapeHandle before;
    DimensionHandle middle;
    ShapeHandle after;
    RETURN_IF_ERROR(SplitAroundAxis(c, i, axis, &before, &middle, &after));
    RETURN_IF_ERROR(c->Merge(before, out_before, &out_before));
    RETURN_IF_ERROR(c->Add(out_middle, middle, &out_middle));
    RETURN_IF_ERROR(c->Merge(after, out_after, &out_after));
  }
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(out_before, c->Vector(out_middle), &out));
  RETURN_IF_ERROR(c->Concatenate(out, out_after, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

absl::Status ConcatShape(InferenceContext* c, int num_inputs_to_concat) {
  if (num_inputs_to_concat < 0 || num_inputs_to_concat + 1 > c->num_inputs()) {
    return errors::InvalidArgument("Concat expects ", num_inputs_to_concat + 1, " inputs, but has ",
                                   c->num_inputs());
  }
  return ConcatShapeHelper(c, 1, 1 + num_inputs_to_concat, 0);
}

absl::Status ConcatV2Shape(InferenceContext* c) {
  return ConcatShapeHelper(c, 0, c->num_inputs() - 1, c->num_inputs() - 1);
}

// ---- Slicing and gathering -------------------------------------------------------------

namespace {

// Slice dims when the `size` values are known.
absl::Status SliceDimsFromSizes(InferenceContext* c, ShapeHandle begin, const Tensor& sizes,
                                std::vector<DimensionHandle>* dims) {
  for (int64_t i = 0; i < sizes.NumElements(); ++i) {
    const int64_t size = IndexValue(sizes, i);
    const DimensionHandle dim = c->Dim(c->input(0), i);
    if (size == -1) {
      DimensionHandle rest;
      RETURN_IF_ERROR(c->Subtract(dim, c->Dim(begin, i), &rest));
      dims->push_back(rest);
    } else if (size < 0) {
      return errors::InvalidArgument("Out of bounds slicing on dimension ", i, " of length ",
                                     c->Value(dim), ": sizes vector cannot be < -1, but was ",
                                     size);
    } else {
      dims->push_back(c->MakeDim(size));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SliceShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  ShapeHandle begin_shape;
  ShapeHandle sizes_shape;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &begin_shape));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &sizes_shape));
  RETURN_IF_ERROR(c->Merge(begin_shape, sizes_shape, &begin_shape));
  const DimensionHandle ndims = c->Dim(begin_shape, 0);
  if (c->ValueKnown(ndims)) RETURN_IF_ERROR(c->WithRank(input, c->Value(ndims), &input));

  // `begin` is no shape, but reading it as one handles partially known values.
  ShapeHandle begin;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(1, &begin));
  const Tensor* sizes = c->input_tensor(2);
  if (sizes != nullptr) {
    if (!IsIndexTensor(*sizes)) {
      return errors::InvalidArgument("Slice size must be int32 or int64");
    }
    RETURN_IF_ERROR(c->WithRank(begin, sizes->NumElements(), &begin));
    std::vector<DimensionHandle> dims;
    RETURN_IF_ERROR(SliceDimsFromSizes(c, begin, *sizes, &dims));
    c->set_output(0, c->MakeShape(dims));
    return absl::OkStatus();
  }
  // Sizes partially known: -1 entries (to the end) become unknown dims.
  ShapeHandle sizes_value;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(2, &sizes_value));
  if (c->RankKnown(sizes_value)) {
    RETURN_IF_ERROR(c->WithRank(begin, c->Rank(sizes_value), &begin));
    c->set_output(0, sizes_value);
    return absl::OkStatus();
  }
  if (c->RankKnown(input)) {
    c->set_output(0, c->UnknownShapeOfRank(c->Rank(input)));
    return absl::OkStatus();
  }
  return UnknownShape(c);
}

absl::Status GatherNdShape(InferenceContext* c) {
  const ShapeHandle params = c->input(0);
  ShapeHandle indices;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 1, &indices));
  const DimensionHandle r_dim = c->Dim(indices, -1);
  if (!c->RankKnown(params) || !c->ValueKnown(r_dim)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  if (c->Value(r_dim) > c->Rank(params)) {
    return errors::InvalidArgument(
        "indices.shape[-1] must be <= params.rank, but saw indices shape: ",
        c->DebugString(indices), " and params shape: ", c->DebugString(params));
  }
  ShapeHandle indices_slice;
  ShapeHandle params_slice;
  RETURN_IF_ERROR(c->Subshape(indices, 0, -1, &indices_slice));
  RETURN_IF_ERROR(c->Subshape(params, c->Value(r_dim), &params_slice));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(indices_slice, params_slice, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace shape_inference
}  // namespace sluice
