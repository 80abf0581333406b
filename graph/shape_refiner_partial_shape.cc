// ShapeRefiner's reading of shape tensors (TensorFlow's ConstantPartialShape): the partially
// known shape that an int32/int64 vector input denotes, followed through the ops that
// Python's shape arithmetic emits (Shape, ShapeN, Pack, Concat, Cast, StridedSlice), and the
// integer scalars those ops take. Anything else falls back to the input's value, when the
// ConstantEvaluator knows it, or to a vector of unknown dims.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/op/node_def_util.h"
#include "graph/shape_refiner.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

// Deeper chains of Concat/Cast/StridedSlice between a shape tensor and its consumer read as
// unknown, so that recursion stays shallow on hostile graphs.
constexpr int kMaxPartialShapeDepth = 64;

}  // namespace

absl::StatusOr<std::optional<int64_t>> ShapeRefiner::InputIntScalar(const Node* node, int input) {
  ASSIGN_OR_RETURN(std::optional<Tensor> value, InputValue(node, input));
  if (!value.has_value()) return std::nullopt;
  if (value->NumElements() != 1) {
    return errors::InvalidArgument("EvaluateConstantIntScalarEdge called on non-scalar edge: ",
                                   value->NumElements());
  }
  if (value->dtype() == DT_INT32) return value->flat<int32_t>()(0);
  if (value->dtype() == DT_INT64) return value->flat<int64_t>()(0);
  return errors::InvalidArgument("EvaluateConstantIntScalarEdge called on non-integer edge: ",
                                 DataTypeString(value->dtype()));
}

absl::Status ShapeRefiner::ConstantPartialShape(InferenceContext* target, const Node* node,
                                                int input, int depth, ShapeHandle* result) {
  const Edge* e = nullptr;
  InferenceContext* src_context = node->input_edge(input, &e).ok() ? GetContext(e->src()) : nullptr;
  if (src_context == nullptr) {
    *result = target->UnknownShape();
    return absl::OkStatus();
  }
  const Node* src = e->src();
  ShapeHandle src_shape = src_context->output(e->src_output());

  // A scalar denotes a shape only as -1, "unknown shape".
  if (InferenceContext::Rank(src_shape) == 0) {
    ASSIGN_OR_RETURN(std::optional<Tensor> value, InputValue(node, input));
    if (!value.has_value()) {
      return errors::InvalidArgument(
          "Received a shape scalar with unknown static value.  A static value of '-1' is "
          "required to represent an unknown shape.");
    }
    if (value->dims() == 0 && ((value->dtype() == DT_INT32 && value->flat<int32_t>()(0) == -1) ||
                               (value->dtype() == DT_INT64 && value->flat<int64_t>()(0) == -1))) {
      *result = target->UnknownShape();
      return absl::OkStatus();
    }
    return errors::InvalidArgument(
        "Received an invalid shape scalar with a static value that is not '-1': ",
        value->DebugString());
  }

  RETURN_IF_ERROR(src_context->WithRank(src_shape, 1, &src_shape));
  const std::string& src_op = src->type_string();
  if (InferenceContext::Value(InferenceContext::DimKnownRank(src_shape, 0)) == 0) {
    *result = target->Scalar();
  } else if (depth >= kMaxPartialShapeDepth) {
    RETURN_IF_ERROR(target->MakeShapeFromTensor(nullptr, src_shape, result));
  } else if (src_op == "Cast") {
    RETURN_IF_ERROR(PartialShapeOfCast(target, node, input, depth, src_shape, result));
  } else if (src_op == "Shape") {
    *result = src_context->input(0);
  } else if (src_op == "ShapeN") {
    *result = src_context->input(e->src_output());
  } else if (src_op == "Pack") {
    std::vector<DimensionHandle> dims;
    for (int i = 0; i < src->num_inputs(); ++i) {
      ASSIGN_OR_RETURN(std::optional<int64_t> size, InputIntScalar(src, i));
      dims.push_back(size.has_value() && *size >= 0 ? target->MakeDim(*size)
                                                    : target->UnknownDim());
    }
    *result = target->MakeShape(dims);
  } else if (src_op == "Concat" || src_op == "ConcatV2") {
    RETURN_IF_ERROR(PartialShapeOfConcat(target, src, depth, result));
  } else if (src_op == "StridedSlice") {
    RETURN_IF_ERROR(PartialShapeOfSlice(target, src, depth, result));
  } else {
    ASSIGN_OR_RETURN(std::optional<Tensor> value, InputValue(node, input));
    RETURN_IF_ERROR(
        target->MakeShapeFromTensor(value.has_value() ? &*value : nullptr, src_shape, result));
  }
  return absl::OkStatus();
}

// A cast of a shape tensor to int32/int64 denotes the same shape; a cast to anything else
// keeps only the rank.
absl::Status ShapeRefiner::PartialShapeOfCast(InferenceContext* target, const Node* node, int input,
                                              int depth, ShapeHandle src_shape,
                                              ShapeHandle* result) {
  absl::StatusOr<std::optional<Tensor>> value = InputValue(node, input);
  if (value.ok() && value->has_value() &&
      target->MakeShapeFromTensor(&**value, src_shape, result).ok()) {
    return absl::OkStatus();
  }
  const Edge* e = nullptr;
  RETURN_IF_ERROR(node->input_edge(input, &e));
  ShapeHandle pre_cast;
  if (!ConstantPartialShape(target, e->src(), 0, depth + 1, &pre_cast).ok() ||
      !InferenceContext::RankKnown(pre_cast)) {
    *result = target->UnknownShape();
    return absl::OkStatus();
  }
  DataType dst = DT_INVALID;
  if (!TryGetNodeAttr(e->src()->attrs(), "DstT", &dst) || (dst != DT_INT32 && dst != DT_INT64)) {
    *result = target->UnknownShapeOfRank(InferenceContext::Rank(pre_cast));
    return absl::OkStatus();
  }
  *result = pre_cast;
  return absl::OkStatus();
}

// Concat(V2) of shape vectors denotes the concatenation of the shapes they denote.
absl::Status ShapeRefiner::PartialShapeOfConcat(InferenceContext* target, const Node* concat,
                                                int depth, ShapeHandle* result) {
  *result = target->Scalar();
  // The axis is input 0 for Concat and the last input for ConcatV2.
  const int axis_input = concat->type_string() == "Concat" ? 0 : concat->num_inputs() - 1;
  for (int i = 0; i < concat->num_inputs(); ++i) {
    if (i == axis_input) continue;
    ShapeHandle part;
    RETURN_IF_ERROR(ConstantPartialShape(target, concat, i, depth + 1, &part));
    if (!InferenceContext::RankKnown(part)) {
      *result = target->UnknownShape();
      return absl::OkStatus();
    }
    RETURN_IF_ERROR(target->Concatenate(*result, part, result));
  }
  return absl::OkStatus();
}

// shape[begin:end:stride] of a shape vector, for the simple slices Python writes: scalar
// begin/end/stride, begin_mask and end_mask 0 or 1, no other masks.
absl::Status ShapeRefiner::PartialShapeOfSlice(InferenceContext* target, const Node* slice,
                                               int depth, ShapeHandle* result) {
  *result = target->UnknownShape();
  const InferenceContext* c = GetContext(slice);
  if (c == nullptr) return absl::OkStatus();
  for (int i = 1; i <= 3; ++i) {
    const ShapeHandle s = c->input(i);
    if (!InferenceContext::RankKnown(s) || InferenceContext::Rank(s) < 1 ||
        InferenceContext::Value(InferenceContext::DimKnownRank(s, 0)) != 1) {
      return absl::OkStatus();
    }
  }
  int64_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0, shrink_mask = 0;
  RETURN_IF_ERROR(GetNodeAttr(slice->attrs(), "begin_mask", &begin_mask));
  RETURN_IF_ERROR(GetNodeAttr(slice->attrs(), "end_mask", &end_mask));
  RETURN_IF_ERROR(GetNodeAttr(slice->attrs(), "ellipsis_mask", &ellipsis_mask));
  RETURN_IF_ERROR(GetNodeAttr(slice->attrs(), "new_axis_mask", &new_axis_mask));
  RETURN_IF_ERROR(GetNodeAttr(slice->attrs(), "shrink_axis_mask", &shrink_mask));
  if ((begin_mask != 0 && begin_mask != 1) || (end_mask != 0 && end_mask != 1) ||
      ellipsis_mask != 0 || new_axis_mask != 0 || shrink_mask != 0) {
    return absl::OkStatus();
  }
  std::optional<int64_t> begin = 0;
  if (begin_mask == 0) {
    ASSIGN_OR_RETURN(begin, InputIntScalar(slice, 1));
  }
  std::optional<int64_t> end = std::numeric_limits<int64_t>::max();
  if (end_mask == 0) {
    ASSIGN_OR_RETURN(end, InputIntScalar(slice, 2));
  }
  ASSIGN_OR_RETURN(std::optional<int64_t> stride, InputIntScalar(slice, 3));
  if (!begin.has_value() || !end.has_value() || !stride.has_value()) return absl::OkStatus();
  ShapeHandle sliced;
  RETURN_IF_ERROR(ConstantPartialShape(target, slice, 0, depth + 1, &sliced));
  return target->Subshape(sliced, *begin, *end, *stride, result);
}

}  // namespace sluice
