// Ops that parse data out of strings: DecodeRaw (the bytes of each string as numbers).
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

// The input's shape and one more dim, which depends on the strings' length.
absl::Status DecodeRawShape(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(c->input(0), c->Vector(InferenceContext::kUnknownDim), &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("DecodeRaw")
    .Input("bytes: string")
    .Output("output: out_type")
    .Attr(
        "out_type: {half, float, double, int32, uint16, uint8, int16, int8, int64, complex64, "
        "complex128, bool, bfloat16}")
    .Attr("little_endian: bool = true")
    .SetShapeFn(DecodeRawShape);

}  // namespace sluice
