// Ops on Unicode text (tf.strings.unicode_decode, unicode_decode_with_offsets, unicode_split,
// unicode_encode, unicode_transcode, unicode_script): strings decoded into code points as a
// ragged tensor (row_splits and the flat values), code points encoded back into strings, one
// encoding converted into another, and the script of each code point. Input encodings are
// any name ICU's converters know; the output encodings are the three TensorFlow writes.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

// One row per input string, whatever the input's shape: row_splits is a vector of the
// input's element count plus one; the code points (and their byte offsets, when the op has
// them) are vectors of one unknown length.
absl::Status UnicodeDecodeShape(InferenceContext* c) {
  DimensionHandle num_splits;
  RETURN_IF_ERROR(c->Add(c->NumElements(c->input(0)), 1, &num_splits));
  c->set_output(0, c->Vector(num_splits));
  const DimensionHandle num_chars = c->UnknownDim();
  for (int i = 1; i < c->num_outputs(); ++i) c->set_output(i, c->Vector(num_chars));
  return absl::OkStatus();
}

// A ragged vector of code points (flat values and row splits) in; one string per row out.
absl::Status UnicodeEncodeShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &unused));
  ShapeHandle splits;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &splits));
  DimensionHandle rows;
  RETURN_IF_ERROR(c->Subtract(c->Dim(splits, 0), 1, &rows));
  c->set_output(0, c->Vector(rows));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("UnicodeDecode")
    .Input("input: string")
    .Output("row_splits: Tsplits")
    .Output("char_values: int32")
    .Attr("input_encoding: string")
    .Attr("errors: {'strict', 'replace', 'ignore'} = 'replace'")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .SetShapeFn(UnicodeDecodeShape);

REGISTER_OP("UnicodeDecodeWithOffsets")
    .Input("input: string")
    .Output("row_splits: Tsplits")
    .Output("char_values: int32")
    .Output("char_to_byte_starts: int64")
    .Attr("input_encoding: string")
    .Attr("errors: {'strict', 'replace', 'ignore'} = 'replace'")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .SetShapeFn(UnicodeDecodeShape);

REGISTER_OP("UnicodeEncode")
    .Input("input_values: int32")
    .Input("input_splits: Tsplits")
    .Attr("errors: {'ignore', 'replace', 'strict'} = 'replace'")
    .Attr("output_encoding: {'UTF-8', 'UTF-16-BE', 'UTF-32-BE'}")
    .Attr("replacement_char: int = 65533")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .Output("output: string")
    .SetShapeFn(UnicodeEncodeShape);

REGISTER_OP("UnicodeTranscode")
    .Input("input: string")
    .Output("output: string")
    .Attr("input_encoding: string")
    .Attr("output_encoding: {'UTF-8', 'UTF-16-BE', 'UTF-32-BE'}")
    .Attr("errors: {'strict', 'replace', 'ignore'} = 'replace'")
    .Attr("replacement_char: int = 65533")
    .Attr("replace_control_characters: bool = false")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("UnicodeScript")
    .Input("input: int32")
    .Output("output: int32")
    .SetShapeFn(shape_inference::UnchangedShape);

}  // namespace sluice
