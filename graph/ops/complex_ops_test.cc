#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ComplexShapeTest, ComplexBroadcasts) {
  EXPECT_EQ(Infer("Complex", "T=DT_FLOAT, Tout=DT_COMPLEX64", "[3,1];[5]"), "[3,5]");
  EXPECT_EQ(Infer("Complex", "T=DT_DOUBLE, Tout=DT_COMPLEX128", "[];[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("Complex", "T=DT_FLOAT, Tout=DT_COMPLEX64", "?;[4]"), "?");
  EXPECT_THAT(Infer("Complex", "T=DT_FLOAT, Tout=DT_COMPLEX64", "[2,3];[4]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 4"));
}

TEST(ComplexShapeTest, PartsKeepTheShape) {
  EXPECT_EQ(Infer("Real", "T=DT_COMPLEX64, Tout=DT_FLOAT", "[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Imag", "T=DT_COMPLEX128, Tout=DT_DOUBLE", "[?,3]"), "[?,3]");
  EXPECT_EQ(Infer("Angle", "T=DT_COMPLEX64, Tout=DT_FLOAT", "[]"), "[]");
  EXPECT_EQ(Infer("ComplexAbs", "T=DT_COMPLEX64, Tout=DT_FLOAT", "?"), "?");
  EXPECT_EQ(Infer("Conj", "T=DT_COMPLEX128", "[4,0]"), "[4,0]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
