// Ops that parse data out of strings: DecodeRaw (the bytes of each string as numbers),
// DecodeCSV (each string a CSV record, one output per column), the tf.train.Example parsers
// (ParseExample, ParseExampleV2, ParseSingleExample) and the TensorProto ones (ParseTensor,
// SerializeTensor).
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"
#include "graph/op/op_registry.h"
#include "graph/ops/example_parsing_spec.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::DimensionOrConstant;
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

// Sparse outputs: indices [?, rank], values [?], dense shapes [rank], where rank is the
// input's rank plus one (unknown when the input's rank is).
void SetSparseOutputs(InferenceContext* c, int64_t num_sparse, ShapeHandle input, int* index) {
  DimensionOrConstant rank(c->UnknownDim());
  if (c->RankKnown(input)) rank = DimensionOrConstant(int64_t{c->Rank(input)} + 1);
  for (int64_t i = 0; i < num_sparse; ++i) {
    c->set_output((*index)++, c->Matrix(c->UnknownDim(), rank));
  }
  for (int64_t i = 0; i < num_sparse; ++i) {
    c->set_output((*index)++, c->Vector(c->UnknownDim()));
  }
  for (int64_t i = 0; i < num_sparse; ++i) c->set_output((*index)++, c->Vector(rank));
}

// Dense outputs: the input's shape followed by each dense shape.
absl::Status SetDenseOutputs(InferenceContext* c, const std::vector<PartialTensorShape>& shapes,
                             ShapeHandle input, int* index) {
  for (const PartialTensorShape& shape : shapes) {
    ShapeHandle s;
    RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(shape, &s));
    RETURN_IF_ERROR(c->Concatenate(input, s, &s));
    c->set_output((*index)++, s);
  }
  return absl::OkStatus();
}

absl::Status ParseExampleShape(InferenceContext* c) {
  ExampleParserAttrs attrs;
  RETURN_IF_ERROR(ReadExampleParserAttrs(c, ExampleParserOp::kV1, &attrs));
  ShapeHandle input, names;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &input));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &names));
  int index = 0;
  SetSparseOutputs(c, attrs.num_sparse, input, &index);
  return SetDenseOutputs(c, attrs.dense_shapes, input, &index);
}

absl::Status ParseExampleV2Shape(InferenceContext* c) {
  ExampleParserAttrs attrs;
  RETURN_IF_ERROR(ReadExampleParserAttrs(c, ExampleParserOp::kV2, &attrs));
  ShapeHandle input, names;
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(0), 1, &input));
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(1), 1, &names));
  DimensionHandle num_examples = c->UnknownDim();
  if (c->RankKnown(input) && c->Rank(input) == 1) num_examples = c->Dim(input, 0);
  int index = 0;
  SetSparseOutputs(c, attrs.num_sparse, input, &index);
  RETURN_IF_ERROR(SetDenseOutputs(c, attrs.dense_shapes, input, &index));
  DimensionHandle num_splits;
  RETURN_IF_ERROR(c->Add(num_examples, 1, &num_splits));
  for (int64_t i = 0; i < attrs.num_ragged; ++i) {
    c->set_output(index++, c->Vector(c->UnknownDim()));
  }
  for (int64_t i = 0; i < attrs.num_ragged; ++i) c->set_output(index++, c->Vector(num_splits));
  return absl::OkStatus();
}

absl::Status ParseSingleExampleShape(InferenceContext* c) {
  ExampleParserAttrs attrs;
  RETURN_IF_ERROR(ReadExampleParserAttrs(c, ExampleParserOp::kSingle, &attrs));
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &input));
  int index = 0;
  SetSparseOutputs(c, attrs.num_sparse, input, &index);
  return SetDenseOutputs(c, attrs.dense_shapes, input, &index);
}

}  // namespace

REGISTER_OP("ParseExample")
    .Input("serialized: string")
    .Input("names: string")
    .Input("sparse_keys: Nsparse * string")
    .Input("dense_keys: Ndense * string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: Nsparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: Nsparse * int64")
    .Output("dense_values: Tdense")
    .Attr("Nsparse: int >= 0")
    .Attr("Ndense: int >= 0")
    .Attr("sparse_types: list({float,int64,string}) >= 0")
    .Attr("Tdense: list({float,int64,string}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseExampleShape);

// TensorFlow 2's form: `serialized` may be a scalar, the keys come as vectors, and ragged
// features are parsed too.
REGISTER_OP("ParseExampleV2")
    .Input("serialized: string")
    .Input("names: string")
    .Input("sparse_keys: string")
    .Input("dense_keys: string")
    .Input("ragged_keys: string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: num_sparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: num_sparse * int64")
    .Output("dense_values: Tdense")
    .Output("ragged_values: ragged_value_types")
    .Output("ragged_row_splits: ragged_split_types")
    .Attr("Tdense: list({float,int64,string}) >= 0")
    .Attr("num_sparse: int >= 0")
    .Attr("sparse_types: list({float,int64,string}) >= 0")
    .Attr("ragged_value_types: list({float,int64,string}) >= 0")
    .Attr("ragged_split_types: list({int32,int64}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseExampleV2Shape);

REGISTER_OP("ParseSingleExample")
    .Input("serialized: string")
    .Input("dense_defaults: Tdense")
    .Output("sparse_indices: num_sparse * int64")
    .Output("sparse_values: sparse_types")
    .Output("sparse_shapes: num_sparse * int64")
    .Output("dense_values: Tdense")
    .Attr("num_sparse: int >= 0")
    .Attr("sparse_keys: list(string) >= 0")
    .Attr("dense_keys: list(string) >= 0")
    .Attr("sparse_types: list({float,int64,string}) >= 0")
    .Attr("Tdense: list({float,int64,string}) >= 0")
    .Attr("dense_shapes: list(shape) >= 0")
    .SetShapeFn(ParseSingleExampleShape);

REGISTER_OP("ParseTensor")
    .Input("serialized: string")
    .Output("output: out_type")
    .Attr("out_type: type")
    .SetShapeFn(shape_inference::UnknownShape);

REGISTER_OP("SerializeTensor")
    .Input("tensor: T")
    .Output("serialized: string")
    .Attr("T: type")
    .SetShapeFn(shape_inference::ScalarShape);

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
