// Trigonometric and hyperbolic functions and their inverses: Tan, Asin, Acos, Atan, Sinh,
// Cosh, Asinh, Acosh, Atanh (output shaped as the input) and Atan2 (broadcast). Each accepts
// exactly the dtypes TensorFlow lists for it. Sin and Cos are in unary_ops.cc.
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::BroadcastBinaryOpShapeFn;
using shape_inference::UnchangedShape;

constexpr char kFloatOrComplexTypes[] = "T: {bfloat16, half, float, double, complex64, complex128}";

}  // namespace

REGISTER_OP("Tan")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Asin")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Acos")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Atan")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Sinh")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Cosh")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Asinh")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Acosh")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Atanh")
    .Input("x: T")
    .Output("y: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(UnchangedShape);

// atan2(y, x): the angle of the point (x, y), with y first as in C.
REGISTER_OP("Atan2")
    .Input("y: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

}  // namespace sluice
