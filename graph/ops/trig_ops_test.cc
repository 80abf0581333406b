#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(TrigOpsShapeTest, OutputHasInputShape) {
  for (const char* op :
       {"Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh"}) {
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "[2,?,3]"), "[2,?,3]") << op;
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "?"), "?") << op;
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "[]"), "[]") << op;
  }
  EXPECT_EQ(Infer("Atan", "T=DT_COMPLEX64", "[0,4]"), "[0,4]");
  EXPECT_EQ(Infer("Acosh", "T=DT_HALF", "[7]"), "[7]");
}

TEST(TrigOpsShapeTest, Atan2Broadcasts) {
  EXPECT_EQ(Infer("Atan2", "T=DT_FLOAT", "[2,1,3];[4,1]"), "[2,4,3]");
  EXPECT_EQ(Infer("Atan2", "T=DT_DOUBLE", "[2,3];[]"), "[2,3]");
  EXPECT_EQ(Infer("Atan2", "T=DT_FLOAT", "[?];[3]"), "[3]");
  EXPECT_EQ(Infer("Atan2", "T=DT_FLOAT", "?;[3]"), "?");
  EXPECT_THAT(Infer("Atan2", "T=DT_FLOAT", "[2];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 3"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
