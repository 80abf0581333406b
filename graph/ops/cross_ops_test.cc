#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(CrossShapeTest, SameShapeLastDimThree) {
  EXPECT_EQ(Infer("Cross", "T=DT_FLOAT", "[2,3];[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Cross", "T=DT_INT32", "[?,3];[4,?]"), "[4,3]");
  EXPECT_EQ(Infer("Cross", "T=DT_FLOAT", "?;?"), "?");
  EXPECT_THAT(Infer("Cross", "T=DT_FLOAT", "[2,4];[2,4]"), IsInvalidArgument("must be 3"));
  EXPECT_THAT(Infer("Cross", "T=DT_FLOAT", "[];[]"), IsInvalidArgument("at least rank 1"));
  EXPECT_THAT(Infer("Cross", "T=DT_FLOAT", "[2,3];[3,3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
