#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ExtractImagePatchesShapeTest, WindowsAndRates) {
  const char* valid =
      "T=DT_FLOAT, ksizes=[1,2,3,1], strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'";
  EXPECT_EQ(
      Infer("ExtractImagePatches",
            "T=DT_FLOAT, ksizes=[1,2,3,1], strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
            "[2,5,6,3]"),
      "[2,4,4,18]");
  EXPECT_EQ(
      Infer("ExtractImagePatches",
            "T=DT_FLOAT, ksizes=[1,2,3,1], strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
            "[2,?,6,3]"),
      "[2,?,?,18]");
  EXPECT_EQ(
      Infer("ExtractImagePatches",
            "T=DT_FLOAT, ksizes=[1,2,3,1], strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
            "[2,5,6,?]"),
      "[2,4,4,?]");
  EXPECT_EQ(
      Infer("ExtractImagePatches",
            "T=DT_FLOAT, ksizes=[1,3,3,1], strides=[1,2,3,1], rates=[1,2,2,1], padding='SAME'",
            "[1,10,11,2]"),
      "[1,5,4,18]");
  EXPECT_EQ(
      Infer("ExtractImagePatches",
            "T=DT_FLOAT, ksizes=[1,3,3,1], strides=[1,2,3,1], rates=[1,2,2,1], padding='VALID'",
            "[1,10,11,2]"),
      "[1,3,3,18]");
  EXPECT_THAT(
      Infer("ExtractImagePatches",
            "T=DT_FLOAT, ksizes=[1,3,3,1], strides=[1,1,1,1], rates=[1,3,3,1], padding='VALID'",
            "[1,5,5,2]"),
      IsInvalidArgument("Computed output size would be negative"));
  EXPECT_THAT(
      Infer("ExtractImagePatches",
            "T=DT_FLOAT, ksizes=[1,2,3,1], strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
            "[5,6,3]"),
      IsInvalidArgument("Shape must be rank 4 but is rank 3"));
}

TEST(Dilation2DShapeTest, FilterAndRates) {
  EXPECT_EQ(Infer("Dilation2D", "T=DT_FLOAT, strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
                  "[2,5,6,3];[2,3,3]"),
            "[2,4,4,3]");
  EXPECT_EQ(Infer("Dilation2D", "T=DT_FLOAT, strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
                  "[2,5,6,?];[2,3,3]"),
            "[2,4,4,3]");
  EXPECT_EQ(Infer("Dilation2D", "T=DT_FLOAT, strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
                  "[2,5,?,3];[2,3,3]"),
            "[2,?,?,3]");
  EXPECT_EQ(Infer("Dilation2D", "T=DT_FLOAT, strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
                  "[2,5,6,4];[?,3,3]"),
            "[2,?,?,3]");
  EXPECT_EQ(Infer("Dilation2D", "T=DT_INT32, strides=[1,2,2,1], rates=[1,2,1,1], padding='SAME'",
                  "[1,9,8,2];[3,2,2]"),
            "[1,5,4,2]");
  EXPECT_THAT(Infer("Dilation2D", "T=DT_FLOAT, strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
                    "[2,5,6,4];[2,3,3]"),
              IsInvalidArgument("Dimensions must be equal, but are 4 and 3"));
  EXPECT_THAT(Infer("Dilation2D", "T=DT_FLOAT, strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
                    "[2,5,6,3];[2,3]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
  EXPECT_THAT(Infer("Dilation2D", "T=DT_FLOAT, strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'",
                    "[2,5,6,3];[7,3,3]"),
              IsInvalidArgument("Computed output size would be negative"));
}

TEST(MaxPoolWithArgmaxShapeTest, BothOutputsPooled) {
  EXPECT_EQ(Infer("MaxPoolWithArgmax",
                  "T=DT_FLOAT, ksize=[1,2,2,1], strides=[1,2,2,1], padding='VALID'", "[2,5,6,3]"),
            "[2,2,3,3];[2,2,3,3]");
  EXPECT_EQ(Infer("MaxPoolWithArgmax",
                  "T=DT_HALF, Targmax=DT_INT32, ksize=[1,3,3,1], strides=[1,2,2,1], padding='SAME'",
                  "[2,5,?,3]"),
            "[2,3,?,3];[2,3,?,3]");
  EXPECT_THAT(Infer("MaxPoolWithArgmax",
                    "T=DT_FLOAT, ksize=[1,2,2,1], strides=[1,2,2,1], padding='VALID'", "[5,6,3]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
