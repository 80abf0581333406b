// Ops that grow a tensor: padding (constant, with a value, mirrored) and tiling, and
// MirrorPadGrad, which folds a mirror padding back (MirrorPad's gradient).
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// `paddings` is an [input rank, 2] matrix of (before, after) amounts; each output dim is
// the input dim plus both. MirrorPad has the same shape rule (its kernel checks that the
// amounts fit the input).
absl::Status PadShape(InferenceContext* c) {
  ShapeHandle paddings;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &paddings));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithValue(c->Dim(paddings, 1), 2, &unused));
  ShapeHandle input = c->input(0);
  DimensionHandle rank_dim = c->Dim(paddings, 0);
  if (c->ValueKnown(rank_dim)) {
    RETURN_IF_ERROR(c->WithRank(input, c->Value(rank_dim), &input));
  } else if (c->RankKnown(input)) {
    RETURN_IF_ERROR(c->WithValue(rank_dim, c->Rank(input), &rank_dim));
  }
  const Tensor* paddings_t = c->input_tensor(1);
  if (paddings_t == nullptr) {
    c->set_output(
        0, c->ValueKnown(rank_dim) ? c->UnknownShapeOfRank(c->Value(rank_dim)) : c->UnknownShape());
    return absl::OkStatus();
  }
  if (paddings_t->shape().dims() != 2 || paddings_t->shape().dim_size(1) != 2) {
    return errors::InvalidArgument("paddings must be a matrix with 2 columns, got shape ",
                                   paddings_t->shape().DebugString());
  }
  const int64_t rank = paddings_t->shape().dim_size(0);
  RETURN_IF_ERROR(c->WithRank(input, rank, &input));
  IntegerValues amounts;
  RETURN_IF_ERROR(IntegerTensorValues(*paddings_t, &amounts));
  std::vector<DimensionHandle> dims(rank);
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t before = amounts[2 * i];
    const int64_t after = amounts[2 * i + 1];
    if (before < 0 || after < 0) {
      return errors::InvalidArgument("Paddings must be non-negative");
    }
    int64_t total;
    if (__builtin_add_overflow(before, after, &total)) {
      return errors::InvalidArgument("Paddings of dimension ", i, " overflow int64");
    }
    RETURN_IF_ERROR(c->Add(c->Dim(input, i), total, &dims[i]));
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

// MirrorPadGrad's output: each input dim less both of its paddings. Without the paddings'
// values only the rank (paddings' first dim) is known.
absl::Status MirrorPadGradShape(InferenceContext* c) {
  ShapeHandle paddings;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &paddings));
  const DimensionHandle rank_dim = c->Dim(paddings, 0);
  if (!c->ValueKnown(rank_dim)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int64_t rank = c->Value(rank_dim);
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), rank, &input));
  RETURN_IF_ERROR(c->Merge(paddings, c->Matrix(rank, 2), &paddings));
  const Tensor* paddings_t = c->input_tensor(1);
  if (paddings_t == nullptr) {
    c->set_output(0, c->UnknownShapeOfRank(rank));
    return absl::OkStatus();
  }
  IntegerValues amounts;
  RETURN_IF_ERROR(IntegerTensorValues(*paddings_t, &amounts));
  std::vector<DimensionHandle> dims(rank);
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t before = amounts[2 * i];
    const int64_t after = amounts[2 * i + 1];
    if (before < 0 || after < 0) {
      return errors::InvalidArgument("Paddings must be non-negative");
    }
    int64_t total;
    if (__builtin_add_overflow(before, after, &total)) {
      return errors::InvalidArgument("Paddings of dimension ", i, " overflow int64");
    }
    RETURN_IF_ERROR(c->Subtract(c->Dim(input, i), total, &dims[i]));
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

// Each output dim is the input dim times its multiple. `multiples` is read as a shape so
// that partly known values (-1 for unknown) still give partly known output dims.
absl::Status TileShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  ShapeHandle multiples;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(1, &multiples));
  if (c->RankKnown(input)) {
    RETURN_IF_ERROR(c->WithRank(multiples, c->Rank(input), &multiples));
    ShapeHandle unused;
    RETURN_IF_ERROR(c->Merge(c->input(1), c->Vector(c->Rank(input)), &unused));
  }
  if (!c->RankKnown(multiples)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int32_t rank = c->Rank(multiples);
  RETURN_IF_ERROR(c->WithRank(input, rank, &input));
  std::vector<DimensionHandle> dims(rank);
  for (int32_t i = 0; i < rank; ++i) {
    RETURN_IF_ERROR(c->Multiply(c->Dim(input, i), c->Dim(multiples, i), &dims[i]));
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Pad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .SetShapeFn(PadShape);

REGISTER_OP("PadV2")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Input("constant_values: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .SetShapeFn(PadShape);

REGISTER_OP("MirrorPad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .SetShapeFn(PadShape);

REGISTER_OP("MirrorPadGrad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .Attr("mode: {'REFLECT', 'SYMMETRIC'}")
    .SetShapeFn(MirrorPadGradShape);

REGISTER_OP("Tile")
    .Input("input: T")
    .Input("multiples: Tmultiples")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tmultiples: {int32, int64} = DT_INT32")
    .SetShapeFn(TileShape);

}  // namespace sluice
