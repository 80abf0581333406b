// Ops that parse data out of strings: DecodeRaw (the bytes of each string as numbers) and
// DecodeCSV (each string a CSV record, one output per column).
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

// DecodeCSV: each default is a scalar or a vector of at most one element; every output has
// the records' shape.
absl::Status DecodeCsvShape(InferenceContext* c) {
  for (int i = 1; i < c->num_inputs(); ++i) {
    ShapeHandle v;
    RETURN_IF_ERROR(c->WithRankAtMost(c->input(i), 1, &v));
    if (c->Rank(c->input(i)) == 1 && c->Value(c->Dim(v, 0)) > 1) {
      return errors::InvalidArgument(
          "Shape of a default must be a length-0 or length-1 vector, or a scalar.");
    }
  }
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->input(0));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("DecodeCSV")
    .Input("records: string")
    .Input("record_defaults: OUT_TYPE")
    .Output("output: OUT_TYPE")
    .Attr("OUT_TYPE: list({float,double,int32,int64,string})")
    .Attr("field_delim: string = ','")
    .Attr("use_quote_delim: bool = true")
    .Attr("na_value: string = ''")
    .Attr("select_cols: list(int) = []")
    .SetShapeFn(DecodeCsvShape);

REGISTER_OP("DecodeRaw")
    .Input("bytes: string")
    .Output("output: out_type")
    .Attr(
        "out_type: {half, float, double, int32, uint16, uint8, int16, int8, int64, complex64, "
        "complex128, bool, bfloat16}")
    .Attr("little_endian: bool = true")
    .SetShapeFn(DecodeRawShape);

}  // namespace sluice
