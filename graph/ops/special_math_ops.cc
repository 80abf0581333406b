// Special and safe elementwise math: Mod, ApproximateEqual, MulNoNan, Xlogy, Xdivy, Xlog1py,
// NextAfter, and the special functions of one real tensor (Lgamma, Digamma, Erfinv, Ndtri,
// the Bessel functions, Dawsn, Expint, FresnelCos, FresnelSin, Spence). Each accepts exactly the
// dtypes TensorFlow lists for it.
#include "absl/status/status.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::BroadcastBinaryOpShapeFn;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;
using shape_inference::UnchangedShape;

// x and y must have compatible shapes; the output has x's (TensorFlow's choice: the merge
// only checks, it does not refine the output).
absl::Status SameShapeAsXFn(InferenceContext* c) {
  ShapeHandle merged;
  absl::Status status = c->Merge(c->input(0), c->input(1), &merged);
  if (!status.ok()) return status;
  return UnchangedShape(c);
}

// Betainc's a, b and x are each a scalar or of one common shape, which the output takes (the
// first input's when all are scalars). An input of unknown rank may be either.
absl::Status BetaincShapeFn(InferenceContext* c) {
  constexpr int kInputs = 3;
  ShapeHandle output = c->UnknownShape();
  ShapeHandle some_non_scalar;
  int scalars = 0;
  for (int i = 0; i < kInputs; ++i) {
    const ShapeHandle in = c->input(i);
    if (!InferenceContext::RankKnown(in)) {
      some_non_scalar = in;
    } else if (InferenceContext::Rank(in) == 0) {
      ++scalars;
    } else {
      absl::Status status = c->Merge(output, in, &output);
      if (!status.ok()) return status;
      some_non_scalar = output;
    }
  }
  if (scalars == kInputs - 1) {
    output = some_non_scalar;
  } else if (scalars == kInputs) {
    output = c->input(0);
  }
  c->set_output(0, output);
  return absl::OkStatus();
}

constexpr char kRealFloatTypes[] = "T: {bfloat16, half, float, double}";
constexpr char kFloatOrComplexTypes[] = "T: {half, bfloat16, float, double, complex64, complex128}";

}  // namespace

// Mod's name before TruncateMod: the remainder of truncated division (C's % and fmod). half
// is listed twice, as TensorFlow's OpDef lists it (float16 and half).
REGISTER_OP("Mod")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int32, int64, half, half, bfloat16, float, double}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("ApproximateEqual")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .SetIsCommutative()
    .Attr("T: numbertype")
    .Attr("tolerance: float = 0.00001")
    .SetShapeFn(SameShapeAsXFn);

REGISTER_OP("MulNoNan")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Xlogy")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Xdivy")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Xlog1py")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(kFloatOrComplexTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("NextAfter")
    .Attr("T: {double, float} = DT_FLOAT")
    .Input("x1: T")
    .Input("x2: T")
    .Output("output: T")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Lgamma").Input("x: T").Output("y: T").Attr(kRealFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Digamma")
    .Input("x: T")
    .Output("y: T")
    .Attr(kRealFloatTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Erfinv").Input("x: T").Output("y: T").Attr(kRealFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("Ndtri").Input("x: T").Output("y: T").Attr(kRealFloatTypes).SetShapeFn(UnchangedShape);

REGISTER_OP("BesselI0e")
    .Input("x: T")
    .Output("y: T")
    .Attr(kRealFloatTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("BesselI1e")
    .Input("x: T")
    .Output("y: T")
    .Attr(kRealFloatTypes)
    .SetShapeFn(UnchangedShape);

// The rest of tf.math.special: every one takes and returns one real float tensor.
#define SLUICE_SPECIAL_UNARY_OP(NAME) \
  REGISTER_OP(NAME).Input("x: T").Output("y: T").Attr(kRealFloatTypes).SetShapeFn(UnchangedShape);
SLUICE_SPECIAL_UNARY_OP("BesselI0")
SLUICE_SPECIAL_UNARY_OP("BesselI1")
SLUICE_SPECIAL_UNARY_OP("BesselJ0")
SLUICE_SPECIAL_UNARY_OP("BesselJ1")
SLUICE_SPECIAL_UNARY_OP("BesselY0")
SLUICE_SPECIAL_UNARY_OP("BesselY1")
SLUICE_SPECIAL_UNARY_OP("BesselK0")
SLUICE_SPECIAL_UNARY_OP("BesselK0e")
SLUICE_SPECIAL_UNARY_OP("BesselK1")
SLUICE_SPECIAL_UNARY_OP("BesselK1e")
SLUICE_SPECIAL_UNARY_OP("Dawsn")
SLUICE_SPECIAL_UNARY_OP("Expint")
SLUICE_SPECIAL_UNARY_OP("FresnelCos")
SLUICE_SPECIAL_UNARY_OP("FresnelSin")
SLUICE_SPECIAL_UNARY_OP("Spence")
#undef SLUICE_SPECIAL_UNARY_OP

REGISTER_OP("Igamma")
    .Input("a: T")
    .Input("x: T")
    .Output("z: T")
    .Attr(kRealFloatTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Igammac")
    .Input("a: T")
    .Input("x: T")
    .Output("z: T")
    .Attr(kRealFloatTypes)
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Zeta")
    .Input("x: T")
    .Input("q: T")
    .Output("z: T")
    .Attr("T: {float, double}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Polygamma")
    .Input("a: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {float, double}")
    .SetShapeFn(BroadcastBinaryOpShapeFn);

REGISTER_OP("Betainc")
    .Input("a: T")
    .Input("b: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {float, double}")
    .SetShapeFn(BetaincShapeFn);

}  // namespace sluice
