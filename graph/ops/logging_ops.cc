// Ops that check or report values while a graph runs: Assert (fails the step with the data
// summarized), Print and PrintV2 (write to a stream) and StringFormat (tensors formatted into
// a template string, as tf.print does).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The input must be a scalar string when its rank is known.
absl::Status PrintV2Shape(InferenceContext* c) {
  if (!c->RankKnown(c->input(0))) return absl::OkStatus();
  if (c->Rank(c->input(0)) != 0) {
    return errors::InvalidArgument("input must be a scalar, but has rank: ", c->Rank(c->input(0)));
  }
  return absl::OkStatus();
}

// One input per placeholder in the template; the output is a scalar string.
absl::Status StringFormatShape(InferenceContext* c) {
  std::string template_string;
  RETURN_IF_ERROR(c->GetAttr("template", &template_string));
  std::string placeholder;
  RETURN_IF_ERROR(c->GetAttr("placeholder", &placeholder));
  const std::vector<std::string> parts = absl::StrSplit(template_string, placeholder);
  const int64_t num_placeholders = static_cast<int64_t>(parts.size()) - 1;
  if (c->num_inputs() != num_placeholders) {
    return errors::InvalidArgument("num placeholders in template and num inputs must match: ",
                                   num_placeholders, " vs. ", c->num_inputs());
  }
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

}  // namespace

// Fails with INVALID_ARGUMENT "assertion failed: [data0] [data1] ..." (each summarized to
// `summarize` entries) when the scalar condition is false.
REGISTER_OP("Assert")
    .Input("condition: bool")
    .Input("data: T")
    .SetIsStateful()
    .Attr("T: list(type)")
    .Attr("summarize: int = 3")
    .SetShapeFn(shape_inference::NoOutputs);

// Forwards `input`; writes message followed by "[data_i]" for each data tensor to stderr, on
// the first first_n runs (all runs when negative).
REGISTER_OP("Print")
    .Input("input: T")
    .Input("data: U")
    .Output("output: T")
    .SetIsStateful()
    .Attr("T: type")
    .Attr("U: list(type) >= 0")
    .Attr("message: string = ''")
    .Attr("first_n: int = -1")
    .Attr("summarize: int = 3")
    .SetShapeFn(shape_inference::UnchangedShape);

// Writes the scalar string followed by `end` to output_stream: stdout, stderr, log(info),
// log(warning), log(error) or file://<path> (appended).
REGISTER_OP("PrintV2")
    .Input("input: string")
    .SetIsStateful()
    .Attr("output_stream: string = 'stderr'")
    .Attr("end: string = '\\n'")
    .SetShapeFn(PrintV2Shape);

REGISTER_OP("StringFormat")
    .Input("inputs: T")
    .Output("output: string")
    .Attr("T: list(type) >= 0")
    .Attr("template: string = '%s'")
    .Attr("placeholder: string = '%s'")
    .Attr("summarize: int = 3")
    .SetShapeFn(StringFormatShape);

// The wall-clock time of the run, in seconds since the Unix epoch.
REGISTER_OP("Timestamp")
    .Output("ts: double")
    .SetIsStateful()
    .SetShapeFn(shape_inference::ScalarShape);

}  // namespace sluice
