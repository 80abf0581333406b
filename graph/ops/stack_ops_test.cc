#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(StackV2ShapeTest, TwoElementHandle) {
  EXPECT_EQ(Infer("StackV2", "elem_type=DT_FLOAT", "[]"), "[2]");
  EXPECT_EQ(Infer("StackV2", "elem_type=DT_FLOAT", "?"), "[2]");
}

TEST(StackPushV2ShapeTest, PassesTheElementOn) {
  EXPECT_EQ(Infer("StackPushV2", "T=DT_FLOAT", "[2];[3,?]"), "[3,?]");
  EXPECT_EQ(Infer("StackPushV2", "T=DT_INT32", "[2];?"), "?");
}

TEST(StackPopV2ShapeTest, Unknown) {
  EXPECT_EQ(Infer("StackPopV2", "elem_type=DT_FLOAT", "[2]"), "?");
}

TEST(StackCloseV2ShapeTest, HandleMustBeTwoElementVector) {
  EXPECT_EQ(Infer("StackCloseV2", "", "[2]"), "");
  EXPECT_EQ(Infer("StackCloseV2", "", "[?]"), "");
  EXPECT_THAT(Infer("StackCloseV2", "", "[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
  EXPECT_THAT(Infer("StackCloseV2", "", "[3]"), IsInvalidArgument("must be 2 but is 3"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
