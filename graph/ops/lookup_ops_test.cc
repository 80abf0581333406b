#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/ops/ops_test_util.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape/shape_inference_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeAndType;
using shape_inference::ShapeHandle;

// The handle data a table op's shape function gives its output 0, as "key;value" with
// dtypes, or "none".
std::string HandleData(const std::string& op, const std::string& attrs, const std::string& shapes) {
  NodeDef node = OpNode(op, attrs);
  const OpRegistrationData* reg = nullptr;
  EXPECT_TRUE(OpRegistry::Global()->LookUp(op, &reg).ok());
  AddDefaultsToNodeDef(reg->op_def, &node);
  std::vector<PartialTensorShape> inputs = *shape_inference::ParseShapesForTest(shapes);
  InferenceContext c(&node, reg->op_def, inputs, {});
  absl::Status s = c.Run(reg->shape_inference_fn);
  if (!s.ok()) return "INVALID_ARGUMENT: " + std::string(s.message());
  const std::vector<ShapeAndType>* data = c.output_handle_shapes_and_types(0);
  if (data == nullptr) return "none";
  std::string out;
  for (const ShapeAndType& st : *data) {
    if (!out.empty()) out += ";";
    out += c.DebugString(st.shape) + ":" + DataTypeString(st.dtype);
  }
  return out;
}

// Runs `op` with input 0 carrying a table's handle data (key shape and dtype, value shape
// and dtype).
std::string InferWithTable(const std::string& op, const std::string& attrs,
                           const std::string& shapes, DataType key_dtype,
                           const std::string& key_shape, DataType value_dtype,
                           const std::string& value_shape) {
  NodeDef node = OpNode(op, attrs);
  const OpRegistrationData* reg = nullptr;
  EXPECT_TRUE(OpRegistry::Global()->LookUp(op, &reg).ok());
  AddDefaultsToNodeDef(reg->op_def, &node);
  std::vector<PartialTensorShape> inputs = *shape_inference::ParseShapesForTest(shapes);
  InferenceContext c(&node, reg->op_def, inputs, {});
  ShapeHandle key;
  ShapeHandle value;
  EXPECT_TRUE(
      c.MakeShapeFromPartialTensorShape(*shape_inference::ParseShapeForTest(key_shape), &key).ok());
  EXPECT_TRUE(
      c.MakeShapeFromPartialTensorShape(*shape_inference::ParseShapeForTest(value_shape), &value)
          .ok());
  c.set_input_handle_shapes_and_types(
      0, {ShapeAndType(key, key_dtype), ShapeAndType(value, value_dtype)});
  absl::Status s = c.Run(reg->shape_inference_fn);
  if (!s.ok()) return "INVALID_ARGUMENT: " + std::string(s.message());
  std::string out;
  for (int i = 0; i < c.num_outputs(); ++i) {
    if (i > 0) out += ";";
    out += c.DebugString(c.output(i));
  }
  return out;
}

TEST(LookupOpsTest, TableHandlesAreScalars) {
  EXPECT_EQ(Infer("HashTableV2", "key_dtype=DT_STRING, value_dtype=DT_INT64", ""), "[]");
  EXPECT_EQ(Infer("AnonymousHashTable", "key_dtype=DT_STRING, value_dtype=DT_INT64", ""), "[]");
  EXPECT_EQ(Infer("MutableHashTableV2", "key_dtype=DT_INT64, value_dtype=DT_FLOAT", ""), "[]");
  EXPECT_EQ(Infer("AnonymousMutableHashTable", "key_dtype=DT_INT64, value_dtype=DT_FLOAT", ""),
            "[]");
  EXPECT_EQ(Infer("MutableHashTableOfTensorsV2",
                  "key_dtype=DT_INT64, value_dtype=DT_FLOAT, value_shape=[3]", ""),
            "[]");
  EXPECT_EQ(Infer("AnonymousMutableHashTableOfTensors",
                  "key_dtype=DT_INT64, value_dtype=DT_FLOAT, value_shape=[3]", ""),
            "[]");
  EXPECT_EQ(Infer("MutableDenseHashTableV2", "key_dtype=DT_INT64, value_dtype=DT_FLOAT", "[];[]"),
            "[]");
  EXPECT_EQ(Infer("AnonymousMutableDenseHashTable", "key_dtype=DT_INT64, value_dtype=DT_FLOAT",
                  "[2];[2]"),
            "[]");
}

TEST(LookupOpsTest, DenseTableKeysAreAtMostVectors) {
  EXPECT_THAT(
      Infer("MutableDenseHashTableV2", "key_dtype=DT_INT64, value_dtype=DT_FLOAT", "[2,2];[]"),
      IsInvalidArgument("must be at most rank 1"));
}

TEST(LookupOpsTest, MutableTablesCarryKeyAndValueShapes) {
  EXPECT_EQ(HandleData("HashTableV2", "key_dtype=DT_STRING, value_dtype=DT_INT64", ""), "none");
  EXPECT_EQ(HandleData("MutableHashTableV2", "key_dtype=DT_STRING, value_dtype=DT_INT64", ""),
            "[]:string;[]:int64");
  EXPECT_EQ(HandleData("MutableHashTableOfTensorsV2",
                       "key_dtype=DT_INT64, value_dtype=DT_FLOAT, value_shape=[2,?]", ""),
            "[]:int64;[2,?]:float");
  EXPECT_EQ(HandleData("MutableDenseHashTableV2",
                       "key_dtype=DT_INT64, value_dtype=DT_DOUBLE, value_shape=[4]", "[3];[3]"),
            "[3]:int64;[4]:double");
}

TEST(LookupOpsTest, FindWithoutHandleDataIsUnknown) {
  EXPECT_EQ(Infer("LookupTableFindV2", "Tin=DT_STRING, Tout=DT_INT64", "[];[2,3];[]"), "?");
  EXPECT_THAT(Infer("LookupTableFindV2", "Tin=DT_STRING, Tout=DT_INT64", "[2];[2,3];[]"),
              IsInvalidArgument("must be rank 0"));
}

TEST(LookupOpsTest, FindAppendsTheValueShapeToTheKeysPrefix) {
  EXPECT_EQ(InferWithTable("LookupTableFindV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[2,3];[]",
                           DT_INT64, "[]", DT_FLOAT, "[]"),
            "[2,3]");
  EXPECT_EQ(InferWithTable("LookupTableFindV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[5];[4]",
                           DT_INT64, "[]", DT_FLOAT, "[4]"),
            "[5,4]");
  EXPECT_EQ(InferWithTable("LookupTableFindV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[5,?];[4]",
                           DT_INT64, "[2]", DT_FLOAT, "[4]"),
            "[5,4]");
  EXPECT_EQ(InferWithTable("LookupTableFindV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];?;[]", DT_INT64,
                           "[]", DT_FLOAT, "[]"),
            "?");
  EXPECT_THAT(InferWithTable("LookupTableFindV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[];[]",
                             DT_INT64, "[2]", DT_FLOAT, "[]"),
              IsInvalidArgument("Expected keys to have suffix [2] but saw shape: []"));
  // The table's key dims replace the keys' (TensorFlow's ReplaceDim, not a merge).
  EXPECT_EQ(InferWithTable("LookupTableFindV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[5,3];[]",
                           DT_INT64, "[2]", DT_FLOAT, "[]"),
            "[5]");
  EXPECT_THAT(InferWithTable("LookupTableFindV2", "Tin=DT_INT32, Tout=DT_FLOAT", "[];[5];[]",
                             DT_INT64, "[]", DT_FLOAT, "[]"),
              IsInvalidArgument("Trying to read value with wrong dtype. Expected int64 got int32"));
}

TEST(LookupOpsTest, ExportChecksDtypesAndIsUnknown) {
  EXPECT_EQ(Infer("LookupTableExportV2", "Tkeys=DT_INT64, Tvalues=DT_FLOAT", "[]"), "?;?");
  EXPECT_THAT(InferWithTable("LookupTableExportV2", "Tkeys=DT_INT64, Tvalues=DT_INT32", "[]",
                             DT_INT64, "[]", DT_FLOAT, "[]"),
              IsInvalidArgument("Trying to read value with wrong dtype. Expected float got int32"));
}

TEST(LookupOpsTest, InsertRemoveSize) {
  EXPECT_EQ(Infer("LookupTableInsertV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[2,3];[7]"), "");
  EXPECT_THAT(Infer("LookupTableInsertV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[1];[2];[2]"),
              IsInvalidArgument("must be rank 0"));
  EXPECT_EQ(Infer("LookupTableRemoveV2", "Tin=DT_INT64", "[];[2]"), "");
  EXPECT_THAT(Infer("LookupTableRemoveV2", "Tin=DT_INT64", "[];[]"),
              IsInvalidArgument("must be at least rank 1"));
  EXPECT_EQ(Infer("LookupTableSizeV2", "", "[]"), "[]");
  EXPECT_THAT(Infer("LookupTableSizeV2", "", "[2]"), IsInvalidArgument("must be rank 0"));
}

TEST(LookupOpsTest, ImportAndInitializeTakeVectorsOfOneLength) {
  EXPECT_EQ(Infer("LookupTableImportV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[3];[3]"), "");
  EXPECT_EQ(Infer("LookupTableImportV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[?];?"), "");
  EXPECT_THAT(Infer("LookupTableImportV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[3];[4]"),
              IsInvalidArgument("must be equal, but are"));
  EXPECT_EQ(Infer("LookupTableImportV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[3];[3,2]"), "");
  EXPECT_THAT(Infer("LookupTableImportV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[3,2];[3]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("LookupTableImportV2", "Tin=DT_INT64, Tout=DT_FLOAT", "[];[3];[]"),
              IsInvalidArgument("must be at least rank 1"));
  EXPECT_THAT(Infer("InitializeTableV2", "Tkey=DT_INT64, Tval=DT_FLOAT", "[];[3];[3,2]"),
              IsInvalidArgument("Shapes must be equal rank"));
  EXPECT_EQ(Infer("InitializeTableV2", "Tkey=DT_STRING, Tval=DT_INT64", "[];[3];[3]"), "");
  EXPECT_THAT(Infer("InitializeTableV2", "Tkey=DT_STRING, Tval=DT_INT64", "[];[3,1];[3]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("InitializeTableV2", "Tkey=DT_STRING, Tval=DT_INT64", "[];[3];[2]"),
              IsInvalidArgument("must be equal, but are"));
}

TEST(LookupOpsTest, TextFileInitTakesAScalarName) {
  EXPECT_EQ(Infer("InitializeTableFromTextFileV2", "key_index=-2, value_index=-1", "[];[]"), "");
  EXPECT_THAT(Infer("InitializeTableFromTextFileV2", "key_index=-2, value_index=-1", "[];[1]"),
              IsInvalidArgument("must be rank 0"));
}

// The V1 ops that take a Ref(string) handle: TensorFlow's Python cannot feed a placeholder
// to a ref input, so check_shape_tests_with_tf.py cannot re-run these; the shape functions
// are TensorFlow's (a handle of two elements, then as the V2 forms).
std::string InferRefHandle(absl::string_view op, absl::string_view attrs,
                           absl::string_view shapes) {
  return Infer(op, attrs, shapes);
}

TEST(LookupOpsTest, V1HandlesAreTwoStrings) {
  EXPECT_EQ(Infer("HashTable", "key_dtype=DT_STRING, value_dtype=DT_INT64", ""), "[2]");
  EXPECT_EQ(Infer("MutableHashTableOfTensors",
                  "key_dtype=DT_STRING, value_dtype=DT_INT64, value_shape=[2]", ""),
            "[2]");
  EXPECT_EQ(InferRefHandle("LookupTableFind", "Tin=DT_STRING, Tout=DT_INT64", "[2];[3];[]"), "?");
  EXPECT_THAT(InferRefHandle("LookupTableFind", "Tin=DT_STRING, Tout=DT_INT64", "[3];[3];[]"),
              IsInvalidArgument("must be 2"));
  EXPECT_THAT(InferRefHandle("LookupTableFind", "Tin=DT_STRING, Tout=DT_INT64", "[2];[3];[2,2]"),
              IsInvalidArgument("must be at most rank 1"));
  EXPECT_EQ(InferRefHandle("LookupTableSize", "", "[2]"), "[]");
  EXPECT_THAT(InferRefHandle("LookupTableSize", "", "[]"), IsInvalidArgument("must be rank 1"));
  EXPECT_EQ(InferRefHandle("LookupTableExport", "Tkeys=DT_STRING, Tvalues=DT_INT64", "[2]"),
            "[?];?");
  EXPECT_EQ(InferRefHandle("LookupTableInsert", "Tin=DT_STRING, Tout=DT_INT64", "[2];[3];[7]"), "");
  EXPECT_EQ(InferRefHandle("LookupTableImport", "Tin=DT_STRING, Tout=DT_INT64", "[2];[3];[7]"), "");
  EXPECT_EQ(InferRefHandle("InitializeTable", "Tkey=DT_STRING, Tval=DT_INT64", "[2];[3];[3]"), "");
  EXPECT_THAT(InferRefHandle("InitializeTable", "Tkey=DT_STRING, Tval=DT_INT64", "[2];[3];[4]"),
              IsInvalidArgument("must be equal, but are"));
  EXPECT_EQ(InferRefHandle("InitializeTableFromTextFile", "key_index=-2, value_index=-1", "[2];[]"),
            "");
  EXPECT_THAT(
      InferRefHandle("InitializeTableFromTextFile", "key_index=-2, value_index=-1", "[2];[2]"),
      IsInvalidArgument("must be rank 0"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
