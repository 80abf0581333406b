// Elementwise math of one tensor: the output has the input's shape. Each op accepts exactly
// the dtypes TensorFlow lists for it.
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::UnchangedShape;

// Ops defined on signed numbers (and complex ones).
constexpr char kSignedTypes[] =
    "T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}";
// Transcendental functions, defined on floating-point and complex numbers.
constexpr char kFloatOrComplexTypes[] = "T: {bfloat16, half, float, double, complex64, complex128}";
constexpr char kFloatTypes[] = "T: {bfloat16, half, float, double}";

}  // namespace

REGISTER_OP("Neg").Input("x: T").Output("y: T").Attr(kSignedTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Abs")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, int8, int16, int32, int64}")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Sign").Input("x: T").Output("y: T").Attr(kSignedTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Square")
    .Input("x: T")
    .Output("y: T")
    .Attr(
        "T: {bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, "
        "uint32, uint64, complex64, complex128}")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Reciprocal")
    .Input("x: T")
    .Output("y: T")
    .Attr(kSignedTypes)
    .SetShapeFn(UnchangedShape);

// Reciprocal's name before TensorFlow 1.0, still in its registry and in old graphs.
REGISTER_OP("Inv").Input("x: T").Output("y: T").Attr(kSignedTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Round").Input("x: T").Output("y: T").Attr(kSignedTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Sqrt")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Rsqrt")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Exp")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Expm1")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Log")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Log1p")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Sin")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Cos")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Tanh")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Sigmoid")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Floor").Input("x: T").Output("y: T").Attr(kFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Ceil").Input("x: T").Output("y: T").Attr(kFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Rint").Input("x: T").Output("y: T").Attr(kFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Erf").Input("x: T").Output("y: T").Attr(kFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Erfc").Input("x: T").Output("y: T").Attr(kFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("IsNan").Input("x: T").Output("y: bool").Attr(kFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("IsInf").Input("x: T").Output("y: bool").Attr(kFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("IsFinite")
    .Input("x: T")
    .Output("y: bool")
    .Attr(kFloatTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("LogicalNot").Input("x: bool").Output("y: bool").SetShapeFn(UnchangedShape);

}  // namespace sluice
