#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(FakeQuantShapeTest, OutputIsTheInput) {
  EXPECT_EQ(Infer("FakeQuantWithMinMaxArgs", "", "[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("FakeQuantWithMinMaxVars", "", "[3];[];[]"), "[3]");
  EXPECT_THAT(Infer("FakeQuantWithMinMaxVars", "", "[3];[1];[]"),
              IsInvalidArgument("must be rank 0"));
}

TEST(FakeQuantShapeTest, PerChannelRangesMatchTheLastDimension) {
  EXPECT_EQ(Infer("FakeQuantWithMinMaxVarsPerChannel", "", "[4,5];[5];[5]"), "[4,5]");
  EXPECT_EQ(Infer("FakeQuantWithMinMaxVarsPerChannel", "", "[4,?];[5];[?]"), "[4,?]");
  EXPECT_THAT(Infer("FakeQuantWithMinMaxVarsPerChannel", "", "[4,5];[4];[5]"),
              IsInvalidArgument("must be equal"));
  EXPECT_THAT(Infer("FakeQuantWithMinMaxVarsPerChannel", "", "[];[1];[1]"),
              IsInvalidArgument("must be at least rank 1"));
  EXPECT_THAT(Infer("FakeQuantWithMinMaxVarsPerChannel", "", "[?];[2];[3]"),
              IsInvalidArgument("must be equal"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
