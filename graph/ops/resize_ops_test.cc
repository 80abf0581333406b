#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ResizeBicubicShapeTest, Sizes) {
  EXPECT_EQ(Infer("ResizeBicubic", "T=DT_UINT8", "[2,5,7,3];[2]", {{1, Ints({10, 14})}}),
            "[2,10,14,3]");
  EXPECT_EQ(Infer("ResizeBicubic", "T=DT_FLOAT", "[2,5,7,3];[2]"), "[2,?,?,3]");
  EXPECT_EQ(Infer("ResizeBicubic", "T=DT_FLOAT", "?;?"), "[?,?,?,?]");
  EXPECT_THAT(Infer("ResizeBicubic", "T=DT_FLOAT", "[5,7,3];[2]"),
              IsInvalidArgument("must be rank 4"));
  EXPECT_THAT(Infer("ResizeBicubic", "T=DT_FLOAT", "[2,5,7,3];[3]"),
              IsInvalidArgument("must be 2"));
}

TEST(ResizeAreaShapeTest, Sizes) {
  EXPECT_EQ(Infer("ResizeArea", "T=DT_HALF", "[1,8,8,2];[2]", {{1, Ints({3, 5})}}), "[1,3,5,2]");
  EXPECT_EQ(Infer("ResizeArea", "T=DT_FLOAT, align_corners=true", "[?,8,8,?];[2]"), "[?,?,?,?]");
  EXPECT_THAT(Infer("ResizeArea", "T=DT_FLOAT", "[1,8,8,2];[2,1]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(ScaleAndTranslateShapeTest, Sizes) {
  EXPECT_EQ(
      Infer("ScaleAndTranslate", "T=DT_FLOAT", "[2,8,8,3];[2];[2];[2]", {{1, Ints({16, 12})}}),
      "[2,16,12,3]");
  EXPECT_EQ(Infer("ScaleAndTranslate", "T=DT_UINT8, kernel_type='gaussian', antialias=false",
                  "[1,5,7,2];[2];[2];[2]"),
            "[1,?,?,2]");
  EXPECT_EQ(Infer("ScaleAndTranslate", "T=DT_FLOAT", "?;?;?;?"), "[?,?,?,?]");
  EXPECT_THAT(Infer("ScaleAndTranslate", "T=DT_FLOAT", "[8,8,3];[2];[2];[2]"),
              IsInvalidArgument("must be rank 4"));
  EXPECT_THAT(Infer("ScaleAndTranslate", "T=DT_FLOAT", "[2,8,8,3];[3];[2];[2]"),
              IsInvalidArgument("must be 2"));
  EXPECT_THAT(Infer("ScaleAndTranslate", "T=DT_FLOAT", "[2,8,8,3];[2,2];[2];[2]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(ResizeGradShapeTest, OriginalImage) {
  EXPECT_EQ(Infer("ResizeBilinearGrad", "T=DT_FLOAT", "[2,5,6,3];[?,3,4,?]"), "[?,3,4,?]");
  EXPECT_EQ(Infer("ResizeBilinearGrad", "T=DT_HALF", "[2,5,6,3];?"), "?");
  EXPECT_EQ(Infer("ResizeBilinearGrad", "T=DT_FLOAT", "[2,5,6];[1,2,3,4]"), "[1,2,3,4]");
  EXPECT_EQ(Infer("ResizeBicubicGrad", "T=DT_DOUBLE", "[2,5,6,3];[2,3,4,3]"), "[2,3,4,3]");
}

TEST(ResizeGradShapeTest, NearestNeighbor) {
  EXPECT_EQ(Infer("ResizeNearestNeighborGrad", "T=DT_FLOAT", "[2,5,6,3];[2]", {{1, Ints({3, 4})}}),
            "[2,3,4,3]");
  EXPECT_EQ(Infer("ResizeNearestNeighborGrad", "T=DT_INT32", "[2,5,6,3];[2]"), "[2,?,?,3]");
  EXPECT_EQ(Infer("ResizeNearestNeighborGrad", "T=DT_FLOAT", "?;?"), "[?,?,?,?]");
  EXPECT_THAT(Infer("ResizeNearestNeighborGrad", "T=DT_FLOAT", "[2,5,6,3];[3]"),
              IsInvalidArgument("must be 2"));
  EXPECT_THAT(Infer("ResizeNearestNeighborGrad", "T=DT_FLOAT", "[2,5,6];[2]"),
              IsInvalidArgument("must be rank 4"));
  EXPECT_THAT(Infer("ResizeNearestNeighborGrad", "T=DT_FLOAT", "[2,5,6,3];[2,1]"),
              IsInvalidArgument("must be rank 1"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
