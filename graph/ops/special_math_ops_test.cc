#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(SpecialMathOpsShapeTest, BinaryBroadcast) {
  for (const char* op :
       {"Mod", "MulNoNan", "Xlogy", "Xdivy", "Xlog1py", "Igamma", "Igammac", "Zeta", "Polygamma"}) {
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "[2,1,3];[4,1]"), "[2,4,3]") << op;
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "[2,3];[]"), "[2,3]") << op;
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "?;[3]"), "?") << op;
  }
  EXPECT_EQ(Infer("NextAfter", "T=DT_DOUBLE", "[5,1];[1,2]"), "[5,2]");
  EXPECT_EQ(Infer("NextAfter", "", "[3];[]"), "[3]");
  EXPECT_THAT(Infer("Mod", "T=DT_INT32", "[2];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 3"));
}

TEST(SpecialMathOpsShapeTest, ApproximateEqualNeedsOneShape) {
  EXPECT_EQ(Infer("ApproximateEqual", "T=DT_FLOAT", "[2,3];[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("ApproximateEqual", "T=DT_FLOAT", "[?,3];[2,?]"), "[?,3]");
  EXPECT_EQ(Infer("ApproximateEqual", "T=DT_DOUBLE", "?;[4]"), "?");
  EXPECT_THAT(Infer("ApproximateEqual", "T=DT_FLOAT", "[2,3];[3]"),
              IsInvalidArgument("Shapes must be equal rank, but are 2 and 1"));
  EXPECT_THAT(Infer("ApproximateEqual", "T=DT_FLOAT", "[2,3];[2,4]"),
              IsInvalidArgument("Dimension 1 in both shapes must be equal, but are 3 and 4"));
}

TEST(SpecialMathOpsShapeTest, SpecialFunctionsKeepShape) {
  for (const char* op : {"Lgamma", "Digamma", "Erfinv", "Ndtri", "BesselI0e", "BesselI1e"}) {
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "[2,?,3]"), "[2,?,3]") << op;
    EXPECT_EQ(Infer(op, "T=DT_DOUBLE", "?"), "?") << op;
  }
  EXPECT_EQ(Infer("Lgamma", "T=DT_HALF", "[]"), "[]");
  EXPECT_EQ(Infer("BesselI1e", "T=DT_BFLOAT16", "[0,4]"), "[0,4]");
  for (const char* op : {"BesselI0", "BesselI1", "BesselJ0", "BesselJ1", "BesselY0", "BesselY1",
                         "BesselK0", "BesselK0e", "BesselK1", "BesselK1e", "Dawsn", "Expint",
                         "FresnelCos", "FresnelSin", "Spence"}) {
    EXPECT_EQ(Infer(op, "T=DT_HALF", "[2,?,3]"), "[2,?,3]") << op;
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "?"), "?") << op;
  }
}

TEST(SpecialMathOpsShapeTest, BetaincTakesTheNonScalarShape) {
  EXPECT_EQ(Infer("Betainc", "T=DT_FLOAT", "[2,3];[2,3];[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Betainc", "T=DT_FLOAT", "[];[2,3];[]"), "[2,3]");
  EXPECT_EQ(Infer("Betainc", "T=DT_DOUBLE", "[];[];[]"), "[]");
  EXPECT_EQ(Infer("Betainc", "T=DT_FLOAT", "[?,3];[2,?];[]"), "[2,3]");
  EXPECT_EQ(Infer("Betainc", "T=DT_FLOAT", "?;[];[]"), "?");
  EXPECT_EQ(Infer("Betainc", "T=DT_FLOAT", "?;[2];[]"), "[2]");
  EXPECT_EQ(Infer("Betainc", "T=DT_FLOAT", "?;[2];[2]"), "[2]");
  EXPECT_THAT(Infer("Betainc", "T=DT_FLOAT", "[2];[3];[]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal, but are 2 and 3"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
