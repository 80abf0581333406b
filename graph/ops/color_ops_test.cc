#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ColorspaceShapeTest, LastDimIsThree) {
  EXPECT_EQ(Infer("RGBToHSV", "T=DT_FLOAT", "[2,4,3]"), "[2,4,3]");
  EXPECT_EQ(Infer("HSVToRGB", "T=DT_HALF", "[3]"), "[3]");
  EXPECT_EQ(Infer("RGBToHSV", "T=DT_DOUBLE", "[5,?]"), "[5,3]");
  EXPECT_EQ(Infer("HSVToRGB", "T=DT_FLOAT", "?"), "?");
  EXPECT_THAT(Infer("RGBToHSV", "T=DT_FLOAT", "[2,4]"),
              IsInvalidArgument("Dimension must be 3 but is 4"));
  EXPECT_THAT(Infer("HSVToRGB", "T=DT_FLOAT", "[]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
}

TEST(AdjustShapeTest, ImagesOfRankThreeOrMore) {
  EXPECT_EQ(Infer("AdjustContrastv2", "T=DT_FLOAT", "[4,5,3];[]"), "[4,5,3]");
  EXPECT_EQ(Infer("AdjustSaturation", "T=DT_FLOAT", "[2,4,5,?];[]"), "[2,4,5,?]");
  EXPECT_EQ(Infer("AdjustHue", "T=DT_FLOAT", "?;?"), "?");
  EXPECT_THAT(Infer("AdjustContrastv2", "T=DT_FLOAT", "[4,5,3];[2]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_EQ(Infer("AdjustSaturation", "T=DT_FLOAT", "[4,5,3];[2]"), "[4,5,3]");
  EXPECT_EQ(Infer("AdjustHue", "T=DT_FLOAT", "[4,5,3];[2]"), "[4,5,3]");
  EXPECT_THAT(Infer("AdjustHue", "T=DT_FLOAT", "[4,3];[]"),
              IsInvalidArgument("Shape must be at least rank 3 but is rank 2"));
  EXPECT_THAT(Infer("AdjustContrastv2", "T=DT_FLOAT", "[5,3];[]"),
              IsInvalidArgument("Shape must be at least rank 3 but is rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
