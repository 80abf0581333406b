// Complex numbers: Complex builds them from real and imaginary parts (broadcasting as the
// binary ops do); Real, Imag, ComplexAbs (|z|) and Angle (arg z) take them apart into the
// matching real type; Conj conjugates. Keras's STFT-based layers use Real and Imag on RFFT's
// output.
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

REGISTER_OP("Complex")
    .Input("real: T")
    .Input("imag: T")
    .Output("out: Tout")
    .Attr("T: {float, double} = DT_FLOAT")
    .Attr("Tout: {complex64, complex128} = DT_COMPLEX64")
    .SetShapeFn(shape_inference::BroadcastBinaryOpShapeFn);

#define SLUICE_REGISTER_COMPLEX_PART(name)               \
  REGISTER_OP(name)                                      \
      .Input("input: T")                                 \
      .Output("output: Tout")                            \
      .Attr("T: {complex64, complex128} = DT_COMPLEX64") \
      .Attr("Tout: {float, double} = DT_FLOAT")          \
      .SetShapeFn(shape_inference::UnchangedShape);

SLUICE_REGISTER_COMPLEX_PART("Real")
SLUICE_REGISTER_COMPLEX_PART("Imag")
SLUICE_REGISTER_COMPLEX_PART("Angle")
#undef SLUICE_REGISTER_COMPLEX_PART

REGISTER_OP("ComplexAbs")
    .Input("x: T")
    .Output("y: Tout")
    .Attr("T: {complex64, complex128} = DT_COMPLEX64")
    .Attr("Tout: {float, double} = DT_FLOAT")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("Conj")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {complex64, complex128, variant} = DT_COMPLEX64")
    .SetShapeFn(shape_inference::UnchangedShape);

}  // namespace sluice
