// Ops that move tensors along without computing on them: constants, placeholders, the
// identity family, and NoOp, which exists only to carry control edges.
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_shape.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;
using shape_inference::UnchangedShape;

// The output has the shape of the `value` attr, which must be a valid, fully known shape.
absl::Status ConstShape(InferenceContext* c) {
  const TensorProto* value = nullptr;
  RETURN_IF_ERROR(c->GetAttr("value", &value));
  RETURN_IF_ERROR(TensorShape::IsValidShape(value->tensor_shape()));
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeProto(value->tensor_shape(), &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// The output has the shape given by the `shape` attr.
absl::Status ShapeFromShapeAttr(InferenceContext* c, ShapeHandle* out) {
  PartialTensorShape shape;
  RETURN_IF_ERROR(c->GetAttr("shape", &shape));
  return c->MakeShapeFromPartialTensorShape(shape, out);
}

absl::Status PlaceholderShape(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(ShapeFromShapeAttr(c, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// The default must fit the `shape` attr, but the output promises only the attr's shape:
// a fed value may be any shape the attr allows.
absl::Status PlaceholderWithDefaultShape(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(ShapeFromShapeAttr(c, &out));
  ShapeHandle unused;
  RETURN_IF_ERROR(c->Merge(c->input(0), out, &unused));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status IdentityNShape(InferenceContext* c) {
  std::vector<ShapeHandle> shapes;
  RETURN_IF_ERROR(c->input("input", &shapes));
  return c->set_output("output", shapes);
}

// The output is what is known from both the input and the `shape` attr; an attr of known
// rank also fixes the input's rank (TensorFlow insists on that even when the attr's rank is
// unknown, so an unknown-rank attr only accepts unknown-rank inputs).
absl::Status EnsureShapeShape(InferenceContext* c) {
  PartialTensorShape desired;
  RETURN_IF_ERROR(c->GetAttr("shape", &desired));
  ShapeHandle input = c->input(0);
  if (desired.unknown_rank()) {
    if (c->RankKnown(input)) {
      return errors::InvalidArgument("Shape must be rank -1 but is rank ", c->Rank(input));
    }
  } else {
    RETURN_IF_ERROR(c->WithRank(input, desired.dims(), &input));
  }
  ShapeHandle desired_shape;
  RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(desired, &desired_shape));
  ShapeHandle merged;
  RETURN_IF_ERROR(c->Merge(desired_shape, input, &merged));
  c->set_output(0, merged);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Const")
    .Output("output: dtype")
    .Attr("value: tensor")
    .Attr("dtype: type")
    .SetShapeFn(ConstShape);

REGISTER_OP("Placeholder")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape = { unknown_rank: true }")
    .SetShapeFn(PlaceholderShape);

REGISTER_OP("PlaceholderWithDefault")
    .Input("input: dtype")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("shape: shape")
    .SetShapeFn(PlaceholderWithDefaultShape);

REGISTER_OP("NoOp").SetShapeFn(shape_inference::NoOutputs);

REGISTER_OP("Identity")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("IdentityN")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: list(type) >= 1")
    .SetShapeFn(IdentityNShape);

REGISTER_OP("Snapshot")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("StopGradient")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("PreventGradient")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("message: string = ''")
    .SetShapeFn(UnchangedShape);

// Stateful so that it is never constant-folded or CSE'd away: its point is the check.
REGISTER_OP("CheckNumerics")
    .Input("tensor: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("message: string")
    .SetIsStateful()
    .SetShapeFn(UnchangedShape);

// CheckNumerics telling -Inf from +Inf in its message (tf.debugging.enable_check_numerics).
REGISTER_OP("CheckNumericsV2")
    .Input("tensor: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("message: string")
    .SetIsStateful()
    .SetShapeFn(UnchangedShape);

// Promises that the input is constant over the session (tf.guarantee_const); an identity.
REGISTER_OP("GuaranteeConst")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(UnchangedShape);

// A copy of x in a buffer of its own.
REGISTER_OP("DeepCopy")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(UnchangedShape);

REGISTER_OP("EnsureShape")
    .Input("input: T")
    .Output("output: T")
    .Attr("shape: shape")
    .Attr("T: type")
    .SetShapeFn(EnsureShapeShape);

}  // namespace sluice
