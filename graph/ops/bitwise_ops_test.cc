#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(BitwiseOpsShapeTest, UnaryKeepShape) {
  EXPECT_EQ(Infer("Invert", "T=DT_INT32", "[2,?,3]"), "[2,?,3]");
  EXPECT_EQ(Infer("Invert", "T=DT_UINT8", "?"), "?");
  EXPECT_EQ(Infer("PopulationCount", "T=DT_INT64", "[4]"), "[4]");
  EXPECT_EQ(Infer("PopulationCount", "T=DT_UINT16", "[]"), "[]");
}

TEST(BitwiseOpsShapeTest, BinaryBroadcast) {
  for (const char* op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift"}) {
    EXPECT_EQ(Infer(op, "T=DT_INT32", "[2,1,3];[4,1]"), "[2,4,3]") << op;
    EXPECT_EQ(Infer(op, "T=DT_INT32", "[2,3];[]"), "[2,3]") << op;
    EXPECT_EQ(Infer(op, "T=DT_INT32", "?;[3]"), "?") << op;
  }
  EXPECT_THAT(Infer("LeftShift", "T=DT_INT8", "[2];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 3"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
