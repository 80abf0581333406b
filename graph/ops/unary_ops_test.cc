#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(UnaryOpsShapeTest, OutputHasInputShape) {
  for (const char* op :
       {"Neg", "Abs",   "Sign",       "Square", "Sqrt", "Rsqrt", "Exp",   "Expm1",
        "Log", "Log1p", "Reciprocal", "Floor",  "Ceil", "Round", "Rint",  "Sin",
        "Cos", "Tanh",  "Sigmoid",    "Erf",    "Erfc", "IsNan", "IsInf", "IsFinite"}) {
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "[2,?,3]"), "[2,?,3]") << op;
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "?"), "?") << op;
    EXPECT_EQ(Infer(op, "T=DT_FLOAT", "[]"), "[]") << op;
  }
}

TEST(UnaryOpsShapeTest, OtherDtypes) {
  EXPECT_EQ(Infer("Neg", "T=DT_INT64", "[5]"), "[5]");
  EXPECT_EQ(Infer("Square", "T=DT_UINT8", "[0,2]"), "[0,2]");
  EXPECT_EQ(Infer("Exp", "T=DT_COMPLEX64", "[3]"), "[3]");
  EXPECT_EQ(Infer("IsNan", "T=DT_HALF", "[2,2]"), "[2,2]");
  EXPECT_EQ(Infer("LogicalNot", "", "[7,?]"), "[7,?]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
