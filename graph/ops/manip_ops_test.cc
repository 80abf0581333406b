#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(RollShapeTest, UnchangedAfterChecks) {
  EXPECT_EQ(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[2,3];[];[]"), "[2,3]");
  EXPECT_EQ(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT64, Taxis=DT_INT32", "[2,?];[2];[2]"), "[2,?]");
  EXPECT_EQ(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT64", "?;[?];[3]"), "?");
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[];[];[]"),
              IsInvalidArgument("at least rank 1"));
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[3];[1,1];[]"),
              IsInvalidArgument("at most rank 1"));
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[3];[];[2,1]"),
              IsInvalidArgument("at most rank 1"));
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[3];[2];[1]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[3];[];[1]"),
              IsInvalidArgument("Shapes must be equal rank"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
