#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graph/op/op_registry.h"
#include "graph/ops/ops_test_util.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape/shape_inference_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

using shape_inference::InferenceContext;
using shape_inference::InferShapesForTest;
using shape_inference::NodeDefFromTextForTest;
using shape_inference::ShapeAndType;

// Runs the shape function of a node given as text: for the internal attrs (_output_shapes,
// _handle_dtypes) that Infer() cannot spell because the OpDef does not declare them.
std::string InferText(const std::string& node_text) {
  absl::StatusOr<std::string> result = InferShapesForTest(NodeDefFromTextForTest(node_text), "");
  return result.ok() ? *result : result.status().ToString();
}

TEST(ArgShapeTest, UnknownWithoutOutputShapes) {
  EXPECT_EQ(Infer("_Arg", "T=DT_FLOAT, index=0", ""), "?");
  EXPECT_EQ(Infer("_Arg", "T=DT_RESOURCE, index=3", ""), "?");
  EXPECT_EQ(Infer("_DeviceArg", "T=DT_FLOAT, index=1", ""), "?");
}

TEST(ArgShapeTest, OutputShapesAttrGivesTheShape) {
  EXPECT_EQ(InferText("op: '_Arg' attr { key: 'T' value { type: DT_FLOAT } } "
                      "attr { key: 'index' value { i: 0 } } "
                      "attr { key: '_output_shapes' value { list { shape { dim { size: 2 } "
                      "dim { size: -1 } } } } }"),
            "[2,?]");
}

TEST(ArgShapeTest, RejectsEmptyOutputShapes) {
  EXPECT_THAT(InferText("op: '_Arg' attr { key: 'T' value { type: DT_FLOAT } } "
                        "attr { key: 'index' value { i: 0 } } "
                        "attr { key: '_output_shapes' value { list { } } }"),
              IsInvalidArgument("Invalid \"_output_shapes\" attribute value for _Arg node"));
}

constexpr char kResourceArg[] =
    "op: '_Arg' attr { key: 'T' value { type: DT_RESOURCE } } "
    "attr { key: 'index' value { i: 0 } } ";

TEST(ArgShapeTest, ResourceHandleData) {
  const NodeDef def = NodeDefFromTextForTest(
      std::string(kResourceArg) +
      "attr { key: '_handle_dtypes' value { list { type: DT_FLOAT } } } "
      "attr { key: '_handle_shapes' value { list { shape { dim { size: 3 } } } } }");
  const OpRegistrationData* op = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUp("_Arg", &op).ok());
  InferenceContext c(&def, op->op_def, {}, {});
  ASSERT_TRUE(c.Run(op->shape_inference_fn).ok());
  EXPECT_EQ(c.DebugString(c.output(0)), "?");
  const std::vector<ShapeAndType>* handle_data = c.output_handle_shapes_and_types(0);
  ASSERT_NE(handle_data, nullptr);
  ASSERT_EQ(handle_data->size(), 1);
  EXPECT_EQ((*handle_data)[0].dtype, DT_FLOAT);
  EXPECT_EQ(c.DebugString((*handle_data)[0].shape), "[3]");
}

TEST(ArgShapeTest, RejectsEmptyHandleData) {
  EXPECT_THAT(InferText(std::string(kResourceArg) +
                        "attr { key: '_handle_dtypes' value { list { } } } "
                        "attr { key: '_handle_shapes' value { list { shape { } } } }"),
              IsInvalidArgument("Invalid \"_handle_dtypes\" attribute value for _Arg node"));
  EXPECT_THAT(InferText(std::string(kResourceArg) +
                        "attr { key: '_handle_dtypes' value { list { type: DT_FLOAT } } } "
                        "attr { key: '_handle_shapes' value { list { } } }"),
              IsInvalidArgument("Invalid \"_handle_shapes\" attribute value for _Arg node"));
}

TEST(RetvalShapeTest, NoOutputs) {
  EXPECT_EQ(Infer("_Retval", "T=DT_FLOAT, index=0", "[2]"), "");
  EXPECT_EQ(Infer("_DeviceRetval", "T=DT_INT32, index=2", "?"), "");
}

TEST(PartitionedCallShapeTest, UnknownOutputs) {
  EXPECT_EQ(Infer("PartitionedCall",
                  "Tin=[DT_FLOAT, DT_INT32], Tout=[DT_FLOAT, DT_BOOL], f={name: 'g'}", "[2];[]"),
            "?;?");
  EXPECT_EQ(Infer("StatefulPartitionedCall", "Tin=[], Tout=[DT_FLOAT], f={name: 'g'}", ""), "?");
  EXPECT_EQ(Infer("StatefulPartitionedCall", "Tin=[DT_FLOAT], Tout=[], f={name: 'g'}", "[1]"), "");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
