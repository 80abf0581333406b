// String ops that transform each string of a tensor: joining, case, stripping, substrings,
// lengths, numbers parsed from strings, base64 and regular expressions. Keras's
// TextVectorization and serving signatures emit them.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

// StringJoin: a scalar when every input is a scalar; otherwise the merge of the inputs of
// known non-zero rank (an input of unknown rank may be a scalar, so it is left out).
absl::Status StringJoinShape(InferenceContext* c) {
  bool all_scalar = true;
  for (int i = 0; i < c->num_inputs(); ++i) {
    if (c->Rank(c->input(i)) != 0) all_scalar = false;
  }
  if (all_scalar) {
    c->set_output(0, c->Scalar());
    return absl::OkStatus();
  }
  ShapeHandle out = c->UnknownShape();
  for (int i = 0; i < c->num_inputs(); ++i) {
    if (c->RankKnown(c->input(i)) && c->Rank(c->input(i)) != 0) {
      RETURN_IF_ERROR(c->Merge(out, c->input(i), &out));
    }
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

// Substr: pos and len must agree (rank, when len's is known, and every dim value, unknown
// dims included); the output is the broadcast of input and pos.
absl::Status SubstrShape(InferenceContext* c) {
  ShapeHandle pos_shape = c->input(1);
  ShapeHandle len_shape = c->input(2);
  ShapeHandle unused;
  if (c->RankKnown(len_shape)) {
    RETURN_IF_ERROR(c->WithRank(pos_shape, c->Rank(len_shape), &unused));
  }
  for (int i = 0; i < c->Rank(pos_shape); ++i) {
    DimensionHandle pos_dim = c->Dim(pos_shape, i);
    DimensionHandle len_dim = c->Dim(len_shape, i);
    if (c->Value(pos_dim) != c->Value(len_dim)) {
      return errors::InvalidArgument("pos and len shapes must match: ", c->DebugString(pos_shape),
                                     " vs. ", c->DebugString(len_shape));
    }
  }
  return shape_inference::BroadcastBinaryOpShapeFn(c);
}

// The regex ops with the pattern (and rewrite) as inputs: those are scalars; the output has
// the shape of the strings.
absl::Status DynamicRegexShape(InferenceContext* c) {
  ShapeHandle unused;
  for (int i = 1; i < c->num_inputs(); ++i) {
    RETURN_IF_ERROR(c->WithRank(c->input(i), 0, &unused));
  }
  c->set_output(0, c->input(0));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("StringJoin")
    .Input("inputs: N * string")
    .Attr("N: int >= 0")
    .Attr("separator: string = ''")
    .Output("output: string")
    .SetShapeFn(StringJoinShape);

REGISTER_OP("ReduceJoin")
    .Input("inputs: string")
    .Input("reduction_indices: int32")
    .Attr("keep_dims: bool = false")
    .Attr("separator: string = ''")
    .Output("output: string")
    .SetShapeFn(shape_inference::ReductionShape);

REGISTER_OP("StringLower")
    .Input("input: string")
    .Output("output: string")
    .Attr("encoding: string = ''")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("StringUpper")
    .Input("input: string")
    .Output("output: string")
    .Attr("encoding: string = ''")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("StringLength")
    .Input("input: string")
    .Output("output: int32")
    .Attr("unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("StringStrip")
    .Input("input: string")
    .Output("output: string")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("Substr")
    .Input("input: string")
    .Input("pos: T")
    .Input("len: T")
    .Output("output: string")
    .Attr("T: {int32, int64}")
    .Attr("unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'")
    .SetShapeFn(SubstrShape);

REGISTER_OP("StringToNumber")
    .Input("string_tensor: string")
    .Output("output: out_type")
    .Attr("out_type: {float, double, int32, int64, uint32, uint64} = DT_FLOAT")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("EncodeBase64")
    .Input("input: string")
    .Output("output: string")
    .Attr("pad: bool = false")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("DecodeBase64")
    .Input("input: string")
    .Output("output: string")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("StaticRegexReplace")
    .Input("input: string")
    .Attr("pattern: string")
    .Attr("rewrite: string")
    .Output("output: string")
    .Attr("replace_global: bool = true")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("RegexReplace")
    .Input("input: string")
    .Input("pattern: string")
    .Input("rewrite: string")
    .Output("output: string")
    .Attr("replace_global: bool = true")
    .SetShapeFn(DynamicRegexShape);

REGISTER_OP("StaticRegexFullMatch")
    .Input("input: string")
    .Output("output: bool")
    .Attr("pattern: string")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("RegexFullMatch")
    .Input("input: string")
    .Input("pattern: string")
    .Output("output: bool")
    .SetShapeFn(DynamicRegexShape);

}  // namespace sluice
