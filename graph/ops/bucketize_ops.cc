// Bucketize: the index of the bucket of each input value among sorted float boundaries
// (the number of boundaries <= the value). Keras's Discretization layer uses it.
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

REGISTER_OP("Bucketize")
    .Input("input: T")
    .Output("output: int32")
    .Attr("T: {int32, int64, float, double}")
    .Attr("boundaries: list(float)")
    .SetShapeFn(shape_inference::UnchangedShape);

}  // namespace sluice
