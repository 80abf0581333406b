// Lookup tables (tf.lookup, Keras StringLookup/IntegerLookup/TextVectorization): the ops
// that make a table resource (HashTableV2 and the mutable tables, named or anonymous) and
// the ops that find, insert, remove, export, import and initialize through its DT_RESOURCE
// handle. The mutable tables' handles carry {key shape and dtype, value shape and dtype} as
// handle data, which LookupTableFindV2 checks its keys against to infer its output shape.
// The ref-typed V1 forms (HashTable, LookupTableFind, ...) pass the table as a
// Ref(string) tensor of two elements, container and name; MutableDenseHashTable, whose
// TensorFlow kernel reads a deleted_key input the V1 op lacks, is not registered.
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeAndType;
using shape_inference::ShapeHandle;

absl::Status ScalarHandleOutput(InferenceContext* c) {
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

// A mutable table's handle: a scalar whose handle data is {key, value} shape and dtype.
absl::Status MutableTableShape(InferenceContext* c, ShapeHandle key, ShapeHandle value) {
  c->set_output(0, c->Scalar());
  ShapeHandle key_shape;
  RETURN_IF_ERROR(c->WithRankAtMost(key, 1, &key_shape));
  DataType key_dtype;
  RETURN_IF_ERROR(c->GetAttr("key_dtype", &key_dtype));
  DataType value_dtype;
  RETURN_IF_ERROR(c->GetAttr("value_dtype", &value_dtype));
  c->set_output_handle_shapes_and_types(
      0, std::vector<ShapeAndType>{ShapeAndType(key_shape, key_dtype),
                                   ShapeAndType(value, value_dtype)});
  return absl::OkStatus();
}

absl::Status ScalarKeyAndValueTableShape(InferenceContext* c) {
  return MutableTableShape(c, c->Scalar(), c->Scalar());
}

absl::Status ValueShapeAttr(InferenceContext* c, ShapeHandle* value) {
  PartialTensorShape value_shape;
  RETURN_IF_ERROR(c->GetAttr("value_shape", &value_shape));
  return c->MakeShapeFromPartialTensorShape(value_shape, value);
}

absl::Status TableOfTensorsShape(InferenceContext* c) {
  ShapeHandle value;
  RETURN_IF_ERROR(ValueShapeAttr(c, &value));
  return MutableTableShape(c, c->Scalar(), value);
}

// The dense table's keys have the empty key's shape.
absl::Status DenseTableShape(InferenceContext* c) {
  ShapeHandle value;
  RETURN_IF_ERROR(ValueShapeAttr(c, &value));
  return MutableTableShape(c, c->input(0), value);
}

// The handle data's dtypes must be the op's key and value dtype attrs.
absl::Status CheckTableDtypes(InferenceContext* c, const ShapeAndType& key,
                              const char* key_dtype_attr, const ShapeAndType& value,
                              const char* value_dtype_attr) {
  DataType key_dtype;
  RETURN_IF_ERROR(c->GetAttr(key_dtype_attr, &key_dtype));
  if (key.dtype != key_dtype) {
    return errors::InvalidArgument("Trying to read value with wrong dtype. Expected ",
                                   DataTypeString(key.dtype), " got ", DataTypeString(key_dtype));
  }
  DataType value_dtype;
  RETURN_IF_ERROR(c->GetAttr(value_dtype_attr, &value_dtype));
  if (value.dtype != value_dtype) {
    return errors::InvalidArgument("Trying to read value with wrong dtype. Expected ",
                                   DataTypeString(value.dtype), " got ",
                                   DataTypeString(value_dtype));
  }
  return absl::OkStatus();
}

// LookupTableFindV2: with the table's handle data, the keys must end with the table's key
// shape and the values are the keys' leading dims followed by the value shape.
absl::Status FindShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
  const std::vector<ShapeAndType>* handle_data = c->input_handle_shapes_and_types(0);
  if (handle_data == nullptr || handle_data->size() != 2) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const ShapeAndType& key = (*handle_data)[0];
  const ShapeAndType& value = (*handle_data)[1];
  RETURN_IF_ERROR(CheckTableDtypes(c, key, "Tin", value, "Tout"));
  ShapeHandle keys = c->input(1);
  if (!c->RankKnown(key.shape) || !c->RankKnown(keys)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int64_t keys_rank = c->Rank(keys);
  const int64_t key_rank = c->Rank(key.shape);
  if (keys_rank < key_rank) {
    return errors::InvalidArgument("Expected keys to have suffix ", c->DebugString(key.shape),
                                   " but saw shape: ", c->DebugString(keys));
  }
  for (int64_t d = 0; d < key_rank; ++d) {
    RETURN_IF_ERROR(c->ReplaceDim(keys, keys_rank - key_rank + d, c->Dim(key.shape, d), &keys));
  }
  std::vector<DimensionHandle> prefix;
  for (int64_t d = 0; d < keys_rank - key_rank; ++d) prefix.push_back(c->Dim(keys, d));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(c->MakeShape(prefix), value.shape, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status ScalarHandleInput(InferenceContext* c) {
  ShapeHandle unused;
  return c->WithRank(c->input(0), 0, &unused);
}

absl::Status RemoveShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
  return c->WithRankAtLeast(c->input(1), 1, &unused);
}

absl::Status SizeShape(InferenceContext* c) {
  RETURN_IF_ERROR(ScalarHandleInput(c));
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

absl::Status ExportShape(InferenceContext* c) {
  RETURN_IF_ERROR(ScalarHandleInput(c));
  const std::vector<ShapeAndType>* handle_data = c->input_handle_shapes_and_types(0);
  if (handle_data != nullptr && handle_data->size() == 2) {
    RETURN_IF_ERROR(CheckTableDtypes(c, (*handle_data)[0], "Tkeys", (*handle_data)[1], "Tvalues"));
  }
  c->set_output(0, c->UnknownShape());
  c->set_output(1, c->UnknownShape());
  return absl::OkStatus();
}

// InitializeTableV2: keys and values are vectors of one length.
absl::Status KeysVectorLikeValuesShape(InferenceContext* c) {
  RETURN_IF_ERROR(ScalarHandleInput(c));
  ShapeHandle keys;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &keys));
  return c->Merge(keys, c->input(2), &keys);
}

// LookupTableImportV2: a vector of keys and as many values, each of any shape (the tables
// of tensors import rows).
absl::Status ImportShape(InferenceContext* c) {
  RETURN_IF_ERROR(ScalarHandleInput(c));
  ShapeHandle keys;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &keys));
  ShapeHandle values;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(2), 1, &values));
  DimensionHandle unused;
  return c->Merge(c->Dim(keys, 0), c->Dim(values, 0), &unused);
}

// The V1 handle: a vector of two strings.
absl::Status TwoElementHandle(InferenceContext* c) {
  ShapeHandle handle;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &handle));
  DimensionHandle unused;
  return c->WithValue(c->Dim(handle, 0), 2, &unused);
}

absl::Status TwoElementOutput(InferenceContext* c) {
  c->set_output(0, c->Vector(2));
  return absl::OkStatus();
}

absl::Status FindV1Shape(InferenceContext* c) {
  RETURN_IF_ERROR(TwoElementHandle(c));
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(2), 1, &unused));
  c->set_output(0, c->UnknownShape());
  return absl::OkStatus();
}

absl::Status SizeV1Shape(InferenceContext* c) {
  RETURN_IF_ERROR(TwoElementHandle(c));
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

absl::Status ExportV1Shape(InferenceContext* c) {
  RETURN_IF_ERROR(TwoElementHandle(c));
  ShapeHandle values = c->UnknownShape();
  RETURN_IF_ERROR(c->WithRankAtLeast(values, 1, &values));
  c->set_output(0, c->Vector(c->Dim(values, 0)));
  c->set_output(1, values);
  return absl::OkStatus();
}

absl::Status InitializeV1Shape(InferenceContext* c) {
  RETURN_IF_ERROR(TwoElementHandle(c));
  ShapeHandle keys;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &keys));
  return c->Merge(keys, c->input(2), &keys);
}

absl::Status TextFileInitV1Shape(InferenceContext* c) {
  RETURN_IF_ERROR(TwoElementHandle(c));
  ShapeHandle unused;
  return c->WithRank(c->input(1), 0, &unused);
}

absl::Status TextFileInitShape(InferenceContext* c) {
  RETURN_IF_ERROR(ScalarHandleInput(c));
  ShapeHandle unused;
  return c->WithRank(c->input(1), 0, &unused);
}

}  // namespace

REGISTER_OP("HashTableV2")
    .Output("table_handle: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .SetIsStateful()
    .SetShapeFn(ScalarHandleOutput);

REGISTER_OP("AnonymousHashTable")
    .Output("table_handle: resource")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .SetIsStateful()
    .SetShapeFn(ScalarHandleOutput);

REGISTER_OP("MutableHashTableV2")
    .Output("table_handle: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .SetIsStateful()
    .SetShapeFn(ScalarKeyAndValueTableShape);

REGISTER_OP("AnonymousMutableHashTable")
    .Output("table_handle: resource")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .SetIsStateful()
    .SetShapeFn(ScalarKeyAndValueTableShape);

REGISTER_OP("MutableHashTableOfTensorsV2")
    .Output("table_handle: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .Attr("value_shape: shape = {}")
    .SetIsStateful()
    .SetShapeFn(TableOfTensorsShape);

REGISTER_OP("AnonymousMutableHashTableOfTensors")
    .Output("table_handle: resource")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .Attr("value_shape: shape = {}")
    .SetIsStateful()
    .SetShapeFn(TableOfTensorsShape);

REGISTER_OP("MutableDenseHashTableV2")
    .Input("empty_key: key_dtype")
    .Input("deleted_key: key_dtype")
    .Output("table_handle: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .Attr("value_shape: shape = {}")
    .Attr("initial_num_buckets: int = 131072")
    .Attr("max_load_factor: float = 0.8")
    .SetIsStateful()
    .SetShapeFn(DenseTableShape);

REGISTER_OP("AnonymousMutableDenseHashTable")
    .Input("empty_key: key_dtype")
    .Input("deleted_key: key_dtype")
    .Output("table_handle: resource")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .Attr("value_shape: shape = {}")
    .Attr("initial_num_buckets: int = 131072")
    .Attr("max_load_factor: float = 0.8")
    .SetIsStateful()
    .SetShapeFn(DenseTableShape);

REGISTER_OP("LookupTableFindV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Input("default_value: Tout")
    .Output("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetIsStateful()
    .SetShapeFn(FindShape);

REGISTER_OP("LookupTableInsertV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Input("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetIsStateful()
    .SetShapeFn(ScalarHandleInput);

REGISTER_OP("LookupTableRemoveV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Attr("Tin: type")
    .SetIsStateful()
    .SetShapeFn(RemoveShape);

REGISTER_OP("LookupTableSizeV2")
    .Input("table_handle: resource")
    .Output("size: int64")
    .SetIsStateful()
    .SetShapeFn(SizeShape);

REGISTER_OP("LookupTableExportV2")
    .Input("table_handle: resource")
    .Output("keys: Tkeys")
    .Output("values: Tvalues")
    .Attr("Tkeys: type")
    .Attr("Tvalues: type")
    .SetIsStateful()
    .SetShapeFn(ExportShape);

REGISTER_OP("LookupTableImportV2")
    .Input("table_handle: resource")
    .Input("keys: Tin")
    .Input("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetIsStateful()
    .SetShapeFn(ImportShape);

REGISTER_OP("InitializeTableV2")
    .Input("table_handle: resource")
    .Input("keys: Tkey")
    .Input("values: Tval")
    .Attr("Tkey: type")
    .Attr("Tval: type")
    .SetIsStateful()
    .SetShapeFn(KeysVectorLikeValuesShape);

REGISTER_OP("InitializeTableFromTextFileV2")
    .Input("table_handle: resource")
    .Input("filename: string")
    .Attr("key_index: int >= -2")
    .Attr("value_index: int >= -2")
    .Attr("vocab_size: int >= -1 = -1")
    .Attr("delimiter: string = '\\t'")
    .Attr("offset: int = 0")
    .SetIsStateful()
    .SetShapeFn(TextFileInitShape);

REGISTER_OP("HashTable")
    .Output("table_handle: Ref(string)")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .SetIsStateful()
    .SetShapeFn(TwoElementOutput);

REGISTER_OP("MutableHashTable")
    .Output("table_handle: Ref(string)")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .SetIsStateful()
    .SetShapeFn(TwoElementOutput);

REGISTER_OP("MutableHashTableOfTensors")
    .Output("table_handle: Ref(string)")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("use_node_name_sharing: bool = false")
    .Attr("key_dtype: type")
    .Attr("value_dtype: type")
    .Attr("value_shape: shape = {}")
    .SetIsStateful()
    .SetShapeFn(TwoElementOutput);

REGISTER_OP("LookupTableFind")
    .Input("table_handle: Ref(string)")
    .Input("keys: Tin")
    .Input("default_value: Tout")
    .Output("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetShapeFn(FindV1Shape);

REGISTER_OP("LookupTableInsert")
    .Input("table_handle: Ref(string)")
    .Input("keys: Tin")
    .Input("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetShapeFn(TwoElementHandle);

REGISTER_OP("LookupTableSize")
    .Input("table_handle: Ref(string)")
    .Output("size: int64")
    .SetShapeFn(SizeV1Shape);

REGISTER_OP("LookupTableExport")
    .Input("table_handle: Ref(string)")
    .Output("keys: Tkeys")
    .Output("values: Tvalues")
    .Attr("Tkeys: type")
    .Attr("Tvalues: type")
    .SetShapeFn(ExportV1Shape);

REGISTER_OP("LookupTableImport")
    .Input("table_handle: Ref(string)")
    .Input("keys: Tin")
    .Input("values: Tout")
    .Attr("Tin: type")
    .Attr("Tout: type")
    .SetShapeFn(TwoElementHandle);

REGISTER_OP("InitializeTable")
    .Input("table_handle: Ref(string)")
    .Input("keys: Tkey")
    .Input("values: Tval")
    .Attr("Tkey: type")
    .Attr("Tval: type")
    .SetShapeFn(InitializeV1Shape);

REGISTER_OP("InitializeTableFromTextFile")
    .Input("table_handle: Ref(string)")
    .Input("filename: string")
    .Attr("key_index: int >= -2")
    .Attr("value_index: int >= -2")
    .Attr("vocab_size: int >= -1 = -1")
    .Attr("delimiter: string = '\\t'")
    .Attr("offset: int = 0")
    .SetShapeFn(TextFileInitV1Shape);

}  // namespace sluice
