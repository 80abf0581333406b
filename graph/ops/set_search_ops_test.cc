#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ListDiffShapeTest, Vectors) {
  EXPECT_EQ(Infer("ListDiff", "T=DT_INT32", "[5];[3]"), "[?];[?]");
  EXPECT_EQ(Infer("ListDiff", "T=DT_FLOAT", "?;?"), "[?];[?]");
  EXPECT_THAT(Infer("ListDiff", "T=DT_INT32", "[5,1];[3]"), IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("ListDiff", "T=DT_INT32", "[5];[]"), IsInvalidArgument("must be rank 1"));
}

TEST(UniqueWithCountsShapeTest, Outputs) {
  EXPECT_EQ(Infer("UniqueWithCounts", "T=DT_INT32", "[5]"), "[?];[5];[?]");
  EXPECT_EQ(Infer("UniqueWithCounts", "T=DT_INT32", "?"), "[?];?;[?]");
  EXPECT_EQ(Infer("UniqueWithCountsV2", "T=DT_INT32", "[5,3];[1]"), "[?,?];[?];[?]");
  EXPECT_EQ(Infer("UniqueWithCountsV2", "T=DT_FLOAT", "?;[1]"), "?;[?];[?]");
}

TEST(SearchSortedShapeTest, Matrices) {
  EXPECT_EQ(Infer("LowerBound", "T=DT_FLOAT", "[2,5];[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("UpperBound", "T=DT_INT32, out_type=DT_INT64", "?;[?,3]"), "[?,3]");
  EXPECT_THAT(Infer("LowerBound", "T=DT_FLOAT", "[5];[2,3]"), IsInvalidArgument("must be rank 2"));
  EXPECT_THAT(Infer("UpperBound", "T=DT_FLOAT", "[2,5];[2,3,1]"),
              IsInvalidArgument("must be rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
