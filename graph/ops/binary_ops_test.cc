#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(BinaryOpsShapeTest, EveryOpBroadcasts) {
  for (const char* op :
       {"Add",         "AddV2",        "Sub",      "Mul",       "Div",
        "RealDiv",     "DivNoNan",     "FloorDiv", "FloorMod",  "TruncateDiv",
        "TruncateMod", "Maximum",      "Minimum",  "Pow",       "SquaredDifference",
        "Greater",     "GreaterEqual", "Less",     "LessEqual", "Equal",
        "NotEqual"}) {
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "[2,1,3];[4,1]"), "[2,4,3]") << op;
  }
  for (const char* op : {"LogicalAnd", "LogicalOr"}) {
    EXPECT_EQ(Infer(op, "", "[2,1,3];[4,1]"), "[2,4,3]") << op;
  }
}

TEST(BinaryOpsShapeTest, KnownDims) {
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[2,3];[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[2,3];[]"), "[2,3]");
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[];[]"), "[]");
  EXPECT_EQ(Infer("Mul", "T=DT_INT32", "[1];[5]"), "[5]");
  EXPECT_EQ(Infer("Sub", "T=DT_FLOAT", "[0,1];[1,4]"), "[0,4]");
  EXPECT_EQ(Infer("Add", "T=DT_STRING", "[3];[3]"), "[3]");
}

TEST(BinaryOpsShapeTest, UnknownDims) {
  // A known side greater than 1 wins; a known 1 yields the other side.
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[?];[3]"), "[3]");
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[?];[1]"), "[?]");
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[?,2];[?]"), "[?,2]");
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[?,1];[5,?,3]"), "[5,?,3]");
  EXPECT_EQ(Infer("Maximum", "T=DT_FLOAT", "[?];[?]"), "[?]");
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[0];[?]"), "[?]");
}

TEST(BinaryOpsShapeTest, UnknownRank) {
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[?];?"), "?");
  EXPECT_EQ(Infer("Add", "T=DT_FLOAT", "[];?"), "?");
  EXPECT_EQ(Infer("Less", "T=DT_FLOAT", "?;?"), "?");
}

TEST(BinaryOpsShapeTest, RejectsIncompatibleDims) {
  EXPECT_THAT(Infer("Add", "T=DT_FLOAT", "[2];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 3"));
  EXPECT_THAT(Infer("Greater", "T=DT_INT32", "[2,4];[3,4]"),
              IsInvalidArgument("Dimensions must be equal"));
}

TEST(EqualShapeTest, IncompatibleShapesWithoutErrorFlag) {
  EXPECT_THAT(Infer("Equal", "T=DT_FLOAT", "[2];[3]"),
              IsInvalidArgument("Dimensions must be equal"));
  // With the flag off, mismatched shapes compare unequal as a whole: a scalar.
  EXPECT_EQ(Infer("Equal", "T=DT_FLOAT, incompatible_shape_error=false", "[2];[3]"), "[]");
  EXPECT_EQ(Infer("NotEqual", "T=DT_INT32, incompatible_shape_error=false", "[2,1];[3]"), "[2,3]");
  // An unknown dim against a known one may or may not broadcast.
  EXPECT_EQ(Infer("Equal", "T=DT_FLOAT, incompatible_shape_error=false", "[?];[3]"), "?");
  EXPECT_EQ(Infer("Equal", "T=DT_FLOAT, incompatible_shape_error=false", "[?];[0]"), "?");
  EXPECT_EQ(Infer("Equal", "T=DT_FLOAT, incompatible_shape_error=false", "[?];[1]"), "[?]");
}

TEST(LogicalShapeTest, Broadcasts) {
  EXPECT_EQ(Infer("LogicalAnd", "", "[4,1];[1,5]"), "[4,5]");
  EXPECT_THAT(Infer("LogicalOr", "", "[4];[5]"), IsInvalidArgument("Dimensions must be equal"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
