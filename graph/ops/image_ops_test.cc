#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(SpaceToDepthShapeTest, Formats) {
  EXPECT_EQ(Infer("SpaceToDepth", "T=DT_FLOAT, block_size=2", "[1,4,6,3]"), "[1,2,3,12]");
  EXPECT_EQ(Infer("SpaceToDepth", "T=DT_FLOAT, block_size=3", "[?,6,?,2]"), "[?,2,?,18]");
  EXPECT_EQ(Infer("SpaceToDepth", "T=DT_FLOAT, block_size=2, data_format='NCHW'", "[1,3,4,6]"),
            "[1,12,2,3]");
  EXPECT_EQ(
      Infer("SpaceToDepth", "T=DT_QINT8, block_size=2, data_format='NCHW_VECT_C'", "[1,3,4,6,4]"),
      "[1,12,2,3,4]");
  EXPECT_EQ(Infer("SpaceToDepth", "T=DT_FLOAT, block_size=2", "?"), "[?,?,?,?]");
}

TEST(SpaceToDepthShapeTest, RejectsIndivisibleDims) {
  EXPECT_THAT(Infer("SpaceToDepth", "T=DT_FLOAT, block_size=2", "[1,5,6,3]"),
              IsInvalidArgument("Dimension size must be evenly divisible by 2 but is 5"));
  EXPECT_THAT(Infer("SpaceToDepth", "T=DT_FLOAT, block_size=2", "[1,4,6]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
}

TEST(DepthToSpaceShapeTest, Formats) {
  EXPECT_EQ(Infer("DepthToSpace", "T=DT_FLOAT, block_size=2", "[1,4,6,12]"), "[1,8,12,3]");
  EXPECT_EQ(Infer("DepthToSpace", "T=DT_FLOAT, block_size=2, data_format='NCHW'", "[1,8,?,3]"),
            "[1,2,?,6]");
  EXPECT_EQ(
      Infer("DepthToSpace", "T=DT_QINT8, block_size=2, data_format='NCHW_VECT_C'", "[1,8,4,6,4]"),
      "[1,2,8,12,4]");
  EXPECT_THAT(Infer("DepthToSpace", "T=DT_FLOAT, block_size=2", "[1,4,6,10]"),
              IsInvalidArgument("Dimension size must be evenly divisible by 4 but is 10"));
}

TEST(ResizeShapeTest, KnownSize) {
  EXPECT_EQ(Infer("ResizeBilinear", "T=DT_FLOAT", "[1,4,4,3];[2]", {{1, Ints({8, 6})}}),
            "[1,8,6,3]");
  EXPECT_EQ(Infer("ResizeNearestNeighbor", "T=DT_UINT8, align_corners=true", "[?,4,4,3];[2]",
                  {{1, Ints({2, 2})}}),
            "[?,2,2,3]");
  EXPECT_EQ(Infer("ResizeBilinear", "T=DT_FLOAT", "[1,4,4,3];[2]", {{1, Ints({-1, 3})}}),
            "[1,?,3,3]");
}

TEST(ResizeShapeTest, UnknownSize) {
  EXPECT_EQ(Infer("ResizeBilinear", "T=DT_HALF", "[1,4,4,3];[2]"), "[1,?,?,3]");
  EXPECT_EQ(Infer("ResizeNearestNeighbor", "T=DT_FLOAT", "?;[2]"), "[?,?,?,?]");
}

TEST(ResizeShapeTest, RejectsBadInputs) {
  EXPECT_THAT(Infer("ResizeBilinear", "T=DT_FLOAT", "[1,4,4];[2]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_THAT(Infer("ResizeBilinear", "T=DT_FLOAT", "[1,4,4,3];[3]"),
              IsInvalidArgument("Dimension must be 2 but is 3"));
  EXPECT_THAT(Infer("ResizeNearestNeighbor", "T=DT_FLOAT", "[1,4,4,3];[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
  EXPECT_THAT(Infer("ResizeBilinear", "T=DT_FLOAT", "[1,4,4,3];[2]", {{1, Ints({-2, 3})}}),
              IsInvalidArgument("Dimension -2 must be >= 0"));
}

TEST(NonMaxSuppressionShapeTest, IndicesOfUnknownLength) {
  EXPECT_EQ(Infer("NonMaxSuppressionV3", "", "[5,4];[5];[];[];[]"), "[?]");
  EXPECT_EQ(Infer("NonMaxSuppressionV3", "T=DT_HALF, T_threshold=DT_FLOAT", "[?,4];[?];[];[];[]"),
            "[?]");
  EXPECT_EQ(Infer("NonMaxSuppressionV3", "", "?;?;?;?;?"), "[?]");
  EXPECT_EQ(Infer("NonMaxSuppressionV4", "", "[5,4];[5];[];[];[]", {{2, Int(3)}}), "[?];[]");
  EXPECT_EQ(Infer("NonMaxSuppressionV5", "", "[5,4];[5];[];[];[];[]", {{2, Int(3)}}), "[?];[?];[]");
}

TEST(NonMaxSuppressionShapeTest, PaddedToMaxOutputSize) {
  EXPECT_EQ(Infer("NonMaxSuppressionV4", "pad_to_max_output_size=true", "[5,4];[5];[];[];[]",
                  {{2, Int(3)}}),
            "[3];[]");
  EXPECT_EQ(Infer("NonMaxSuppressionV4", "pad_to_max_output_size=true", "[5,4];[5];[];[];[]"),
            "[?];[]");
  EXPECT_EQ(Infer("NonMaxSuppressionV5", "T=DT_HALF, pad_to_max_output_size=true",
                  "[?,4];[?];[];[];[];[]", {{2, Int(7)}}),
            "[7];[7];[]");
}

TEST(NonMaxSuppressionShapeTest, RejectsBadShapes) {
  EXPECT_THAT(Infer("NonMaxSuppressionV3", "", "[5];[5];[];[];[]"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
  EXPECT_THAT(Infer("NonMaxSuppressionV3", "", "[5,3];[5];[];[];[]"),
              IsInvalidArgument("Dimension must be 4 but is 3"));
  EXPECT_THAT(Infer("NonMaxSuppressionV4", "", "[5,4];[6];[];[];[]"),
              IsInvalidArgument("Dimensions must be equal, but are 5 and 6"));
  EXPECT_THAT(Infer("NonMaxSuppressionV4", "", "[5,4];[5,1];[];[];[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
  EXPECT_THAT(Infer("NonMaxSuppressionV3", "", "[5,4];[5];[1];[];[]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("NonMaxSuppressionV5", "", "[5,4];[5];[];[];[];[2]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("NonMaxSuppressionV4", "pad_to_max_output_size=true", "[5,4];[5];[];[];[]",
                    {{2, Int(-1)}}),
              IsInvalidArgument("must be non-negative but is -1"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
