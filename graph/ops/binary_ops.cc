// Elementwise ops of two tensors with numpy-style broadcasting: arithmetic, comparisons
// and logical connectives. Each op accepts exactly the dtypes TensorFlow lists for it.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::BroadcastBinaryOpShapeFn;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// Mul, Div and the other ops TensorFlow declares over its "more types" list.
constexpr char kArithmeticTypes[] =
    "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, "
    "int64, complex64, complex128}";
constexpr char kOrderedTypes[] =
    "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, "
    "uint64}";

// With incompatible_shape_error=false, Equal and NotEqual accept shapes that do not
// broadcast and then yield a scalar, so the output shape is only known when they do.
absl::Status EqualityShape(InferenceContext* c) {
  bool incompatible_shape_error = true;
  RETURN_IF_ERROR(c->GetAttr("incompatible_shape_error", &incompatible_shape_error));
  ShapeHandle out;
  RETURN_IF_ERROR(shape_inference::BroadcastBinaryOpOutputShapeFnHelper(
      c, c->input(0), c->input(1), incompatible_shape_error, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

// ---- Arithmetic ----------------------------------------------------------------------

REGISTER_OP("Add")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
        "complex128, string}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

// AddV2 differs from Add in being commutative and an aggregate (so the graph optimizer may
// reorder and combine it), and in not accepting strings.
REGISTER_OP("AddV2")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, "
        "int32, int64, complex64, complex128}")
    .SetIsCommutative()
    .SetIsAggregate()
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Sub")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, "
        "complex64, complex128, uint32, uint64}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Mul")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kArithmeticTypes)
    .SetIsCommutative()
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Div")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kArithmeticTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("RealDiv")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kArithmeticTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("DivNoNan")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {half, float, bfloat16, double, complex64, complex128}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("FloorDiv")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kArithmeticTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("FloorMod")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, "
        "float, double}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("TruncateDiv")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kArithmeticTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("TruncateMod")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int32, int64, bfloat16, half, float, double}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Maximum")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kOrderedTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Minimum")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kOrderedTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Pow")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, float, half, double, int8, int16, int32, int64, complex64, "
        "complex128}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("SquaredDifference")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetIsCommutative()
    .SetShapeFn(BroadcastBinaryOpShapeFn);

// ---- Comparisons ---------------------------------------------------------------------

REGISTER_OP("Greater")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr("T: realnumbertype")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("GreaterEqual")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr("T: realnumbertype")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Less")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr("T: realnumbertype")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("LessEqual")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr("T: realnumbertype")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Equal")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr("T: type")
    .Attr("incompatible_shape_error: bool = true")
    .SetIsCommutative()
    .SetShapeFn(EqualityShape);

REGISTER_OP("NotEqual")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr("T: type")
    .Attr("incompatible_shape_error: bool = true")
    .SetIsCommutative()
    .SetShapeFn(EqualityShape);

// ---- Logical -------------------------------------------------------------------------

REGISTER_OP("LogicalAnd")
    .Input("x: bool")
    .Input("y: bool")
    .Output("z: bool")
    .SetIsCommutative()
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("LogicalOr")
    .Input("x: bool")
    .Input("y: bool")
    .Output("z: bool")
    .SetIsCommutative()
    .SetShapeFn(BroadcastBinaryOpShapeFn);

}  // namespace sluice
