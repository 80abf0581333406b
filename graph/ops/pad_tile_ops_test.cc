#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(PadShapeTest, KnownPaddings) {
  EXPECT_EQ(Infer("Pad", "T=DT_FLOAT", "[2,3];[2,2]", {{1, IntMatrix({{1, 1}, {0, 2}})}}), "[4,5]");
  EXPECT_EQ(Infer("Pad", "T=DT_FLOAT", "[2,?];[2,2]", {{1, IntMatrix({{1, 1}, {0, 2}})}}), "[4,?]");
  EXPECT_EQ(Infer("Pad", "T=DT_FLOAT", "?;[3,2]", {{1, IntMatrix({{1, 1}, {0, 2}, {0, 0}})}}),
            "[?,?,?]");
  EXPECT_EQ(Infer("PadV2", "T=DT_FLOAT", "[2,3];[2,2];[]", {{1, IntMatrix({{1, 1}, {0, 2}})}}),
            "[4,5]");
  EXPECT_EQ(Infer("MirrorPad", "T=DT_FLOAT, mode='REFLECT'", "[2,3];[2,2]",
                  {{1, IntMatrix({{1, 1}, {0, 2}})}}),
            "[4,5]");
  EXPECT_EQ(
      Infer("MirrorPad", "T=DT_FLOAT, mode='SYMMETRIC'", "[3];[1,2]", {{1, IntMatrix({{0, 0}})}}),
      "[3]");
}

TEST(PadShapeTest, UnknownPaddings) {
  EXPECT_EQ(Infer("Pad", "T=DT_FLOAT", "[2,3];[2,2]"), "[?,?]");
  EXPECT_EQ(Infer("Pad", "T=DT_FLOAT", "?;[2,2]"), "[?,?]");
  EXPECT_EQ(Infer("Pad", "T=DT_FLOAT", "?;[?,2]"), "?");
  EXPECT_EQ(Infer("Pad", "T=DT_FLOAT", "[2,3,4];?"), "[?,?,?]");
}

TEST(MirrorPadGradShapeTest, FoldsThePaddingsAway) {
  EXPECT_EQ(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "[4,5];[2,2]",
                  {{1, IntMatrix({{1, 1}, {0, 2}})}}),
            "[2,3]");
  EXPECT_EQ(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='SYMMETRIC'", "[4,?];[2,2]",
                  {{1, IntMatrix({{1, 1}, {0, 2}})}}),
            "[2,?]");
  EXPECT_EQ(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "[4,5];[2,2]"), "[?,?]");
  EXPECT_EQ(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "?;[3,2]"), "[?,?,?]");
  EXPECT_EQ(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "?;[?,2]"), "?");
  EXPECT_EQ(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "?;?"), "?");
}

TEST(MirrorPadGradShapeTest, RejectsBadPaddings) {
  EXPECT_THAT(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "[4,5];[2,2]",
                    {{1, IntMatrix({{-1, 1}, {0, 2}})}}),
              IsInvalidArgument("Paddings must be non-negative"));
  EXPECT_THAT(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "[4,5];[2,2]",
                    {{1, IntMatrix({{3, 2}, {0, 2}})}}),
              IsInvalidArgument("Negative dimension size"));
  EXPECT_THAT(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "[4,5];[3,2]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
  EXPECT_THAT(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "[4,5];[2,3]"),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
  EXPECT_THAT(Infer("MirrorPadGrad", "T=DT_FLOAT, mode='REFLECT'", "[4,5];[2]"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
}

TEST(PadShapeTest, RejectsBadPaddings) {
  EXPECT_THAT(Infer("Pad", "T=DT_FLOAT", "[2,3];[2,2]", {{1, IntMatrix({{-1, 1}, {0, 2}})}}),
              IsInvalidArgument("Paddings must be non-negative"));
  EXPECT_THAT(Infer("Pad", "T=DT_FLOAT", "[2,3];[3,2]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
  EXPECT_THAT(Infer("Pad", "T=DT_FLOAT", "[2,3];[2,3]"),
              IsInvalidArgument("Dimension must be 2 but is 3"));
  EXPECT_THAT(Infer("Pad", "T=DT_FLOAT", "[2,3];[2]"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
}

TEST(TileShapeTest, KnownMultiples) {
  EXPECT_EQ(Infer("Tile", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({2, 3})}}), "[4,9]");
  EXPECT_EQ(Infer("Tile", "T=DT_FLOAT", "[2,?];[2]", {{1, Ints({2, 3})}}), "[4,?]");
  EXPECT_EQ(Infer("Tile", "T=DT_FLOAT", "?;[2]", {{1, Ints({2, 0})}}), "[?,0]");
  EXPECT_EQ(Infer("Tile", "T=DT_FLOAT, Tmultiples=DT_INT64", "[2,3];[2]", {{1, Int64s({-1, 2})}}),
            "[?,6]");
}

TEST(TileShapeTest, UnknownMultiples) {
  EXPECT_EQ(Infer("Tile", "T=DT_FLOAT", "[2,3];[2]"), "[?,?]");
  EXPECT_EQ(Infer("Tile", "T=DT_FLOAT", "[2,3];?"), "[?,?]");
  EXPECT_EQ(Infer("Tile", "T=DT_FLOAT", "?;?"), "?");
}

TEST(TileShapeTest, RejectsBadMultiples) {
  EXPECT_THAT(Infer("Tile", "T=DT_FLOAT", "[2,3];[3]"),
              IsInvalidArgument("Shape must be rank 2 but is rank 3"));
  EXPECT_THAT(Infer("Tile", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({-2, 2})}}),
              IsInvalidArgument(""));
  EXPECT_THAT(Infer("Tile", "T=DT_FLOAT, Tmultiples=DT_INT64", "[3,3];[2]",
                    {{1, Int64s({int64_t{1} << 62, 1})}}),
              IsInvalidArgument("overflow"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
