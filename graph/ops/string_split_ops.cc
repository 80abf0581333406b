// Ops that split strings into tokens, returned as a SparseTensor (indices, values,
// dense_shape) of one row per input string: StringSplit (TF1's tf.string_split) and
// StringSplitV2 (tf.strings.split, which Keras's TextVectorization emits); and StringNGrams,
// which joins the tokens of each row of a ragged tensor into n-grams (TextVectorization's
// ngrams option).
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

// A vector of strings and a scalar separator in; the sparse triple out.
absl::Status StringSplitShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &unused));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  c->set_output(0, c->Matrix(InferenceContext::kUnknownDim, 2));
  c->set_output(1, c->Vector(InferenceContext::kUnknownDim));
  c->set_output(2, c->Vector(2));
  return absl::OkStatus();
}

// StringNGrams: data and data_splits are vectors; the n-grams are a vector of unknown length
// and their splits have data_splits' shape (a vector, even when that is not known).
absl::Status StringNGramsShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &unused));
  ShapeHandle splits;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &splits));
  c->set_output(1, splits);
  c->set_output(0, c->Vector(InferenceContext::kUnknownDim));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("StringSplit")
    .Input("input: string")
    .Input("delimiter: string")
    .Output("indices: int64")
    .Output("values: string")
    .Output("shape: int64")
    .Attr("skip_empty: bool = true")
    .SetShapeFn(StringSplitShape);

REGISTER_OP("StringSplitV2")
    .Input("input: string")
    .Input("sep: string")
    .Output("indices: int64")
    .Output("values: string")
    .Output("shape: int64")
    .Attr("maxsplit: int = -1")
    .SetShapeFn(StringSplitShape);

REGISTER_OP("StringNGrams")
    .Attr("separator: string")
    .Attr("ngram_widths: list(int) >= 0")
    .Attr("left_pad: string")
    .Attr("right_pad: string")
    .Attr("pad_width: int")
    .Attr("preserve_short_sequences: bool")
    .Attr("Tsplits: {int32, int64} = DT_INT64")
    .Input("data: string")
    .Input("data_splits: Tsplits")
    .Output("ngrams: string")
    .Output("ngrams_splits: Tsplits")
    .SetShapeFn(StringNGramsShape);

}  // namespace sluice
