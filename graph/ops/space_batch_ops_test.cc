#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(SpaceToBatchNDShapeTest, KnownArguments) {
  EXPECT_EQ(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,6,3];[2];[2,2]",
                  {{1, Ints({2, 3})}, {2, IntMatrix({{0, 0}, {1, 2}})}}),
            "[6,2,3,3]");
  EXPECT_EQ(Infer("SpaceToBatchND", "T=DT_FLOAT", "[?,7,4];[1];[1,2]",
                  {{1, Ints({2})}, {2, IntMatrix({{2, 1}})}}),
            "[?,5,4]");
  EXPECT_EQ(Infer("SpaceToBatchND", "T=DT_FLOAT", "[2,3];[0];[0,2]", {{1, Ints({})}}), "[2,3]");
}

TEST(SpaceToBatchNDShapeTest, UnknownArguments) {
  EXPECT_EQ(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,6,3];[2];[2,2]"), "[?,?,?,3]");
  EXPECT_EQ(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,6,3];[2];?", {{1, Ints({2, 3})}}),
            "[6,?,?,3]");
  EXPECT_EQ(Infer("SpaceToBatchND", "T=DT_FLOAT", "?;[2];?"), "?");
}

TEST(SpaceToBatchNDShapeTest, Errors) {
  EXPECT_THAT(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,6,3];?;[2,2]"),
              IsInvalidArgument("block_shape must have rank 1."));
  EXPECT_THAT(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,6,3];[?];[2,2]"),
              IsInvalidArgument("block_shape must have known size."));
  EXPECT_THAT(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4];[2];[2,2]"),
              IsInvalidArgument("must be at least rank 3"));
  EXPECT_THAT(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,6,3];[2];[3,2]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,6,3];[2];[2,2]", {{1, Ints({2, 0})}}),
              IsInvalidArgument("block_shape must be positive"));
  EXPECT_THAT(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,6,3];[2];[2,2]",
                    {{2, IntMatrix({{0, -1}, {0, 0}})}}),
              IsInvalidArgument("paddings cannot be negative"));
  EXPECT_THAT(Infer("SpaceToBatchND", "T=DT_FLOAT", "[1,4,5,3];[2];[2,2]",
                    {{1, Ints({2, 2})}, {2, IntMatrix({{0, 0}, {0, 0}})}}),
              IsInvalidArgument("evenly divisible"));
}

TEST(BatchToSpaceNDShapeTest, KnownArguments) {
  EXPECT_EQ(Infer("BatchToSpaceND", "T=DT_FLOAT", "[6,2,3,3];[2];[2,2]",
                  {{1, Ints({2, 3})}, {2, IntMatrix({{0, 0}, {1, 2}})}}),
            "[1,4,6,3]");
  EXPECT_EQ(Infer("BatchToSpaceND", "T=DT_FLOAT", "[?,5,4];[1];[1,2]",
                  {{1, Ints({2})}, {2, IntMatrix({{0, 1}})}}),
            "[?,9,4]");
}

TEST(BatchToSpaceNDShapeTest, UnknownArguments) {
  EXPECT_EQ(Infer("BatchToSpaceND", "T=DT_FLOAT", "[4,2,2,3];[2];[2,2]"), "[?,?,?,3]");
  EXPECT_EQ(Infer("BatchToSpaceND", "T=DT_FLOAT", "[4,2,2,3];[2];?", {{1, Ints({2, 2})}}),
            "[1,?,?,3]");
}

TEST(BatchToSpaceNDShapeTest, Errors) {
  EXPECT_THAT(Infer("BatchToSpaceND", "T=DT_FLOAT", "[4,2,2,3];[2,1];[2,2]"),
              IsInvalidArgument("block_shape must have rank 1."));
  EXPECT_THAT(Infer("BatchToSpaceND", "T=DT_FLOAT", "[4,2,2,3];[2];[2,2]", {{1, Ints({-1, 2})}}),
              IsInvalidArgument("block_shape must be positive"));
  EXPECT_THAT(Infer("BatchToSpaceND", "T=DT_FLOAT", "[6,2,2,3];[2];[2,2]", {{1, Ints({2, 2})}}),
              IsInvalidArgument("evenly divisible"));
  EXPECT_THAT(Infer("BatchToSpaceND", "T=DT_FLOAT", "[4,2,2,3];[2];[2,2]",
                    {{2, IntMatrix({{0, 0}, {-1, 0}})}}),
              IsInvalidArgument("crops cannot be negative"));
  EXPECT_THAT(Infer("BatchToSpaceND", "T=DT_FLOAT", "[4,2,2,3];[2];[2,2]",
                    {{1, Ints({2, 2})}, {2, IntMatrix({{3, 2}, {0, 0}})}}),
              IsInvalidArgument("Negative dimension size"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
