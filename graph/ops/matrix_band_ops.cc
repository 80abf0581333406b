// MatrixBandPart: the band of each innermost matrix (num_lower diagonals below the main one,
// num_upper above; a negative count keeps the whole triangle), zeros elsewhere. Keras builds
// causal attention masks with it.
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

// As in TensorFlow, the shape function checks neither the rank (the kernel requires a
// matrix or more) nor that the counts are scalars.
REGISTER_OP("MatrixBandPart")
    .Input("input: T")
    .Input("num_lower: Tindex")
    .Input("num_upper: Tindex")
    .Output("band: T")
    .Attr("T: type")
    .Attr("Tindex: {int32, int64} = DT_INT64")
    .SetShapeFn(shape_inference::UnchangedShape);

}  // namespace sluice
