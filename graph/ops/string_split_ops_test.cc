#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(StringSplitShapeTest, SparseTriple) {
  EXPECT_EQ(Infer("StringSplit", "", "[3];[]"), "[?,2];[?];[2]");
  EXPECT_EQ(Infer("StringSplit", "skip_empty=false", "?;?"), "[?,2];[?];[2]");
  EXPECT_THAT(Infer("StringSplit", "", "[3,1];[]"), IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("StringSplit", "", "[3];[1]"), IsInvalidArgument("rank"));
}

TEST(StringSplitV2ShapeTest, SparseTriple) {
  EXPECT_EQ(Infer("StringSplitV2", "", "[?];[]"), "[?,2];[?];[2]");
  EXPECT_EQ(Infer("StringSplitV2", "maxsplit=2", "?;[]"), "[?,2];[?];[2]");
  EXPECT_THAT(Infer("StringSplitV2", "", "[];[]"), IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("StringSplitV2", "", "[2];[2]"), IsInvalidArgument("rank"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
