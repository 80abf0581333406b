// Bitwise ops on integers: BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift
// (broadcast), Invert and PopulationCount (output shaped as the input; PopulationCount's is
// uint8).
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::BroadcastBinaryOpShapeFn;
using shape_inference::UnchangedShape;

constexpr char kIntegerTypes[] = "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}";

}  // namespace

REGISTER_OP("Invert").Input("x: T").Output("y: T").Attr(kIntegerTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("PopulationCount")
    .Input("x: T")
    .Output("y: uint8")
    .Attr(kIntegerTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("BitwiseAnd")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kIntegerTypes)
    .SetIsCommutative()
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("BitwiseOr")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kIntegerTypes)
    .SetIsCommutative()
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("BitwiseXor")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kIntegerTypes)
    .SetIsCommutative()
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("LeftShift")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kIntegerTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("RightShift")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kIntegerTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

}  // namespace sluice
