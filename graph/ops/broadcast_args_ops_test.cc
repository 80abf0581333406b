#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(BroadcastArgsShapeTest, TheLongerLength) {
  EXPECT_EQ(Infer("BroadcastArgs", "T=DT_INT32", "[3];[5]"), "[5]");
  EXPECT_EQ(Infer("BroadcastArgs", "T=DT_INT64", "[4];[0]"), "[4]");
  EXPECT_EQ(Infer("BroadcastArgs", "T=DT_INT32", "[?];[5]"), "[?]");
  EXPECT_EQ(Infer("BroadcastArgs", "T=DT_INT32", "?;?"), "[?]");
  // The values are not read.
  EXPECT_EQ(Infer("BroadcastArgs", "T=DT_INT32", "[2];[1]", {{0, Ints({2, 1})}, {1, Ints({3})}}),
            "[2]");
  EXPECT_THAT(Infer("BroadcastArgs", "T=DT_INT32", "[3,1];[5]"), IsInvalidArgument("rank 1"));
  EXPECT_THAT(Infer("BroadcastArgs", "T=DT_INT32", "[3];[]"), IsInvalidArgument("rank 1"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
