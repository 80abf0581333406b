// Ops that rearrange, reinterpret or index a tensor's elements without arithmetic on their
// values: Roll, InvertPermutation, UnravelIndex, Bitcast, Empty.
#include "graph/core/errors.h"
#include "graph/core/types.h"
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

absl::Status InvertPermutationShape(InferenceContext* c) {
  ShapeHandle x;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &x));
  c->set_output(0, x);
  return absl::OkStatus();
}

// One coordinate per dimension: a vector for a scalar index, a [dims, indices] matrix for a
// vector of them (TensorFlow sizes it by the indices' element count whatever their rank).
absl::Status UnravelIndexShape(InferenceContext* c) {
  ShapeHandle indices = c->input(0);
  ShapeHandle dims;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &dims));
  if (!c->RankKnown(indices)) {
    c->set_output(0, c->UnknownShape());
  } else if (c->Rank(indices) == 0) {
    c->set_output(0, c->Vector(c->Dim(dims, 0)));
  } else {
    c->set_output(0, c->Matrix(c->Dim(dims, 0), c->NumElements(indices)));
  }
  return absl::OkStatus();
}

// The same bytes as elements of `type`: a wider type consumes the last dimension (which must
// hold the size ratio), a narrower one adds a dimension of that ratio.
absl::Status BitcastShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  if (!c->RankKnown(input)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  DataType from = DT_INVALID, to = DT_INVALID;
  RETURN_IF_ERROR(c->GetAttr("T", &from));
  RETURN_IF_ERROR(c->GetAttr("type", &to));
  const int64_t from_size = DataTypeSize(from), to_size = DataTypeSize(to);
  if (from_size == 0 || to_size == 0) {
    return errors::InvalidArgument("Cannot bitcast types ", DataTypeString(from), " to ",
                                   DataTypeString(to), " because one of the type sizes is zero.");
  }
  ShapeHandle out = input;
  if (from_size < to_size) {
    RETURN_IF_ERROR(c->WithRankAtLeast(input, 1, &out));
    const int64_t ratio = to_size / from_size;
    const auto last = c->Dim(out, -1);
    if (c->ValueKnown(last) && c->Value(last) != ratio) {
      return errors::InvalidArgument("Cannot bitcast due to shape. ", c->Value(last),
                                     " does not match ", ratio);
    }
    RETURN_IF_ERROR(c->Subshape(out, 0, -1, &out));
  } else if (from_size > to_size) {
    RETURN_IF_ERROR(c->Concatenate(input, c->Vector(from_size / to_size), &out));
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status EmptyShape(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(0, &out));
  c->set_output(0, out);
  return absl::OkStatus();
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

REGISTER_OP("InvertPermutation")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(InvertPermutationShape);

REGISTER_OP("UnravelIndex")
    .Input("indices: Tidx")
    .Input("dims: Tidx")
    .Output("output: Tidx")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(UnravelIndexShape);

REGISTER_OP("Bitcast")
    .Input("input: T")
    .Output("output: type")
    .Attr(
        "T: {bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, "
        "int16, complex64, complex128, qint8, quint8, qint16, quint16, qint32}")
    .Attr(
        "type: {bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, "
        "int8, int16, complex64, complex128, qint8, quint8, qint16, quint16, qint32}")
    .SetShapeFn(BitcastShape);

// Stateful, as in TensorFlow: without `init` its output's contents are whatever the memory
// held, so two Empty nodes must not be merged or folded.
REGISTER_OP("Empty")
    .Input("shape: int32")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("init: bool = false")
    .SetIsStateful()
    .SetShapeFn(EmptyShape);

}  // namespace sluice
