#include <string>

#include "absl/status/statusor.h"
#include "graph/ops/ops_test_util.h"
#include "graph/shape/shape_inference_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

using shape_inference::InferShapesForTest;
using shape_inference::NodeDefFromTextForTest;

std::string InferText(const std::string& node_text, const std::string& inputs) {
  absl::StatusOr<std::string> result =
      InferShapesForTest(NodeDefFromTextForTest(node_text), inputs);
  return result.ok() ? *result : result.status().ToString();
}

constexpr char kFunc[] = "value { func { name: 'f' } }";

TEST(WhileShapeTest, OutputsHaveTheInputsShapesWithoutOutputShapes) {
  const std::string node = std::string("op: 'While' input: 'a' input: 'b' ") +
                           "attr { key: 'T' value { list { type: DT_INT32 type: DT_FLOAT } } } " +
                           "attr { key: 'cond' " + kFunc + " } attr { key: 'body' " + kFunc + " }";
  EXPECT_EQ(InferText(node, "[];[2,3]"), "[];[2,3]");
}

TEST(WhileShapeTest, DeclaredOutputShapesWin) {
  const std::string node = std::string("op: 'StatelessWhile' input: 'a' ") +
                           "attr { key: 'T' value { list { type: DT_FLOAT } } } " +
                           "attr { key: 'cond' " + kFunc + " } attr { key: 'body' " + kFunc +
                           " } attr { key: 'output_shapes' value { list { shape { "
                           "dim { size: -1 } dim { size: 3 } } } } }";
  EXPECT_EQ(InferText(node, "[2,3]"), "[?,3]");
}

TEST(IfShapeTest, UnknownWithoutOutputShapes) {
  const std::string node = std::string("op: 'If' input: 'c' input: 'x' ") +
                           "attr { key: 'Tcond' value { type: DT_BOOL } } " +
                           "attr { key: 'Tin' value { list { type: DT_FLOAT } } } " +
                           "attr { key: 'Tout' value { list { type: DT_FLOAT } } } " +
                           "attr { key: 'then_branch' " + kFunc + " } " +
                           "attr { key: 'else_branch' " + kFunc + " }";
  EXPECT_EQ(InferText(node, "[];[4]"), "?");
}

TEST(SwitchNShapeTest, EveryOutputHasTheDataShape) {
  EXPECT_EQ(InferText("op: '_SwitchN' input: 'd' input: 'i' "
                      "attr { key: 'T' value { type: DT_FLOAT } } "
                      "attr { key: 'num_outs' value { i: 3 } }",
                      "[5];[]"),
            "[5];[5];[5]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
