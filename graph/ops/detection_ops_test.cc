#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(CropAndResizeGradShapeTest, ImageSizeAndBoxes) {
  EXPECT_EQ(Infer("CropAndResizeGradImage", "T=DT_FLOAT", "[5,3,3,2];[5,4];[5];[4]",
                  {{3, Ints({2, 10, 12, 2})}}),
            "[2,10,12,2]");
  EXPECT_EQ(Infer("CropAndResizeGradImage", "T=DT_HALF", "?;?;?;[4]"), "[?,?,?,?]");
  EXPECT_EQ(Infer("CropAndResizeGradImage", "T=DT_DOUBLE", "?;?;?;?"), "[?,?,?,?]");
  EXPECT_THAT(Infer("CropAndResizeGradImage", "T=DT_FLOAT", "?;?;?;[3]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_EQ(Infer("CropAndResizeGradBoxes", "T=DT_UINT8", "[5,3,3,2];[2,10,12,2];[5,4];[5]"),
            "[5,4]");
  EXPECT_EQ(Infer("CropAndResizeGradBoxes", "T=DT_FLOAT", "?;?;?;?"), "?");
}

TEST(CropAndResizeShapeTest, BoxesAndCropSize) {
  EXPECT_EQ(Infer("CropAndResize", "T=DT_FLOAT", "[2,10,12,3];[5,4];[5];[2]"), "[5,?,?,3]");
  EXPECT_EQ(Infer("CropAndResize", "T=DT_UINT8", "[2,10,12,3];[5,4];[5];[2]", {{3, Ints({7, 8})}}),
            "[5,7,8,3]");
  EXPECT_EQ(Infer("CropAndResize", "T=DT_FLOAT", "[?,?,?,?];[?,4];[6];?"), "[6,?,?,?]");
  EXPECT_EQ(Infer("CropAndResize", "T=DT_FLOAT", "?;?;?;?"), "[?,?,?,?]");
  EXPECT_THAT(Infer("CropAndResize", "T=DT_FLOAT", "[2,10,12];[5,4];[5];[2]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_THAT(Infer("CropAndResize", "T=DT_FLOAT", "[2,10,12,3];[5,3];[5];[2]"),
              IsInvalidArgument("Dimension must be 4 but is 3"));
  EXPECT_THAT(Infer("CropAndResize", "T=DT_FLOAT", "[2,10,12,3];[5,4];[4];[2]"),
              IsInvalidArgument("Dimensions must be equal, but are 5 and 4"));
  EXPECT_THAT(Infer("CropAndResize", "T=DT_FLOAT", "[2,10,12,3];[5,4];[5];[3]"),
              IsInvalidArgument("Dimension must be 2 but is 3"));
  EXPECT_THAT(Infer("CropAndResize", "T=DT_FLOAT", "[2,10,12,3];[5,4];[5,1];[2]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

TEST(NonMaxSuppressionShapeTest, OlderForms) {
  EXPECT_EQ(Infer("NonMaxSuppression", "", "[10,4];[10];[]"), "[?]");
  EXPECT_EQ(Infer("NonMaxSuppressionV2", "T=DT_HALF, T_threshold=DT_FLOAT", "?;?;?;?"), "[?]");
  EXPECT_EQ(Infer("NonMaxSuppressionWithOverlaps", "", "[5,5];[5];[];[];[]"), "[?]");
  EXPECT_EQ(Infer("NonMaxSuppressionWithOverlaps", "", "[?,5];[?];[];[];[]"), "[?]");
  EXPECT_THAT(Infer("NonMaxSuppression", "", "[10,4];[9];[]"),
              IsInvalidArgument("Dimensions must be equal, but are 10 and 9"));
  EXPECT_THAT(Infer("NonMaxSuppression", "", "[10,3];[10];[]"),
              IsInvalidArgument("Dimension must be 4 but is 3"));
  EXPECT_THAT(
      Infer("NonMaxSuppressionV2", "T=DT_FLOAT, T_threshold=DT_FLOAT", "[10,4];[10];[];[1]"),
      IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("NonMaxSuppressionWithOverlaps", "", "[5,4];[5];[];[];[]"),
              IsInvalidArgument("Dimensions must be equal, but are 5 and 4"));
  EXPECT_THAT(Infer("NonMaxSuppressionWithOverlaps", "", "[5,5];[5];[];[];[2]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
}

TEST(CombinedNonMaxSuppressionShapeTest, TotalOrPerClass) {
  EXPECT_EQ(Infer("CombinedNonMaxSuppression", "", "[2,10,1,4];[2,10,3];[];[];[];[]",
                  {{2, Int(4)}, {3, Int(7)}}),
            "[2,7,4];[2,7];[2,7];[2]");
  EXPECT_EQ(Infer("CombinedNonMaxSuppression", "pad_per_class=true",
                  "[2,10,3,4];[2,10,3];[];[];[];[]", {{2, Int(2)}, {3, Int(7)}}),
            "[2,6,4];[2,6];[2,6];[2]");
  EXPECT_EQ(Infer("CombinedNonMaxSuppression", "pad_per_class=true",
                  "[2,10,3,4];[2,10,3];[];[];[];[]", {{2, Int(5)}, {3, Int(7)}}),
            "[2,7,4];[2,7];[2,7];[2]");
  EXPECT_EQ(Infer("CombinedNonMaxSuppression", "", "[?,10,1,4];[2,?,3];[];[];[];[]"),
            "[?,?,4];[?,?];[?,?];[?]");
  EXPECT_THAT(Infer("CombinedNonMaxSuppression", "", "[2,10,2,4];[2,10,3];[];[];[];[]"),
              IsInvalidArgument("third dimension of boxes must be either 1 or equal to the third "
                                "dimension of scores"));
  EXPECT_THAT(
      Infer("CombinedNonMaxSuppression", "", "[2,10,1,4];[2,10,3];[];[];[];[]", {{3, Int(0)}}),
      IsInvalidArgument("max_total_size should be > 0"));
  EXPECT_THAT(Infer("CombinedNonMaxSuppression", "pad_per_class=true",
                    "[2,10,1,4];[2,10,3];[];[];[];[]", {{2, Int(0)}, {3, Int(5)}}),
              IsInvalidArgument("max_output_size_per_class must be > 0 if pad_per_class is set "
                                "to true"));
  EXPECT_THAT(Infer("CombinedNonMaxSuppression", "", "[2,10,1,4];[2,9,3];[];[];[];[]"),
              IsInvalidArgument("Dimensions must be equal, but are 10 and 9"));
  EXPECT_THAT(Infer("CombinedNonMaxSuppression", "", "[2,10,1,3];[2,10,3];[];[];[];[]"),
              IsInvalidArgument("Dimension must be 4 but is 3"));
  EXPECT_THAT(Infer("CombinedNonMaxSuppression", "", "[2,10,4];[2,10,3];[];[];[];[]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
