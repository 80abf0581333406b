#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(Conv2DShapeTest, Padding) {
  EXPECT_EQ(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'", "[1,5,5,2];[3,3,2,8]"),
      "[1,3,3,8]");
  EXPECT_EQ(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 2, 2, 1], padding='SAME'", "[1,5,5,2];[3,3,2,8]"),
      "[1,3,3,8]");
  EXPECT_EQ(Infer("Conv2D",
                  "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='EXPLICIT', "
                  "explicit_paddings=[0, 0, 1, 2, 3, 4, 0, 0]",
                  "[1,5,5,2];[3,3,2,8]"),
            "[1,6,10,8]");
}

TEST(Conv2DShapeTest, DataFormatAndDilations) {
  EXPECT_EQ(Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 2, 2], padding='VALID', data_format='NCHW'",
                  "[4,2,9,9];[3,3,2,8]"),
            "[4,8,4,4]");
  EXPECT_EQ(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID', dilations=[1, 2, 2, 1]",
            "[1,9,9,2];[3,3,2,8]"),
      "[1,5,5,8]");
  // Grouped convolution: the filter sees a fraction of the input channels.
  EXPECT_EQ(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'", "[1,5,5,4];[3,3,2,8]"),
      "[1,5,5,8]");
}

TEST(Conv2DShapeTest, UnknownDims) {
  EXPECT_EQ(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'", "[?,?,5,2];[3,3,2,?]"),
      "[?,?,3,?]");
  EXPECT_EQ(Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'", "?;?"),
            "[?,?,?,?]");
}

TEST(Conv2DShapeTest, RejectsBadAttrsAndShapes) {
  EXPECT_THAT(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1], padding='SAME'", "[1,5,5,2];[3,3,2,8]"),
      IsInvalidArgument("strides"));
  EXPECT_THAT(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'", "[1,2,2,2];[3,3,2,8]"),
      IsInvalidArgument(""));
  EXPECT_THAT(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'", "[1,5,5,3];[3,3,2,8]"),
      IsInvalidArgument(""));
  EXPECT_THAT(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'", "[1,5,5];[3,3,2,8]"),
      IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_THAT(
      Infer("Conv2D", "T=DT_FLOAT, strides=[1, 0, 1, 1], padding='SAME'", "[1,5,5,2];[3,3,2,8]"),
      IsInvalidArgument(""));
}

TEST(DepthwiseConv2dNativeShapeTest, MultipliesChannels) {
  EXPECT_EQ(Infer("DepthwiseConv2dNative", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'",
                  "[1,5,5,3];[3,3,3,2]"),
            "[1,5,5,6]");
  EXPECT_EQ(Infer("DepthwiseConv2dNative", "T=DT_FLOAT, strides=[1, 2, 2, 1], padding='VALID'",
                  "[1,7,7,3];[3,3,3,1]"),
            "[1,3,3,3]");
  EXPECT_EQ(Infer("DepthwiseConv2dNative",
                  "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID', data_format='NCHW'",
                  "[1,3,7,7];[3,3,3,2]"),
            "[1,6,5,5]");
  EXPECT_EQ(Infer("DepthwiseConv2dNative",
                  "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='EXPLICIT', "
                  "explicit_paddings=[0, 0, 1, 1, 1, 1, 0, 0]",
                  "[1,5,5,3];[3,3,3,2]"),
            "[1,5,5,6]");
  EXPECT_THAT(Infer("DepthwiseConv2dNative", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'",
                    "[1,5,5,4];[3,3,3,2]"),
              IsInvalidArgument(""));
}

TEST(Conv2DBackpropInputShapeTest, FromInputSizes) {
  EXPECT_EQ(Infer("Conv2DBackpropInput", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'",
                  "[4];[3,3,2,8];[1,5,5,8]", {{0, Ints({1, 5, 5, 2})}}),
            "[1,5,5,2]");
  // Only the spatial sizes: batch from out_backprop, depth from the filter.
  EXPECT_EQ(Infer("Conv2DBackpropInput", "T=DT_FLOAT, strides=[1, 2, 2, 1], padding='SAME'",
                  "[2];[3,3,2,8];[1,5,5,8]", {{0, Ints({9, 10})}}),
            "[1,9,10,2]");
  EXPECT_EQ(Infer("Conv2DBackpropInput",
                  "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME', data_format='NCHW'",
                  "[2];[3,3,2,8];[1,8,5,5]", {{0, Ints({7, 9})}}),
            "[1,2,7,9]");
  EXPECT_EQ(Infer("Conv2DBackpropInput", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'",
                  "[4];[3,3,2,8];[1,5,5,8]"),
            "[1,?,?,?]");
  EXPECT_EQ(Infer("Conv2DBackpropInput", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'",
                  "?;[3,3,2,8];[1,5,5,8]"),
            "[1,?,?,?]");
}

TEST(Conv2DBackpropInputShapeTest, RejectsMismatches) {
  EXPECT_THAT(Infer("Conv2DBackpropInput", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'",
                    "[3];[3,3,2,8];[1,5,5,8]", {{0, Ints({7, 9, 1})}}),
              IsInvalidArgument("requires input_sizes to contain 4 values or 2 values"));
  EXPECT_THAT(Infer("Conv2DBackpropInput", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'",
                    "[4];[3,3,2,8];[1,5,5,7]"),
              IsInvalidArgument("Dimensions must be equal, but are 7 and 8"));
  EXPECT_THAT(Infer("Conv2DBackpropInput", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'",
                    "[4];[3,3,2,8];[1,5,5,8]", {{0, Ints({2, 5, 5, 2})}}),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 1"));
}

TEST(MaxPoolShapeTest, WindowsAndFormats) {
  EXPECT_EQ(
      Infer("MaxPool", "ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID'", "[1,5,5,3]"),
      "[1,2,2,3]");
  EXPECT_EQ(
      Infer("MaxPool", "ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding='SAME'", "[1,5,5,3]"),
      "[1,3,3,3]");
  EXPECT_EQ(Infer("MaxPool",
                  "ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2], padding='VALID', data_format='NCHW'",
                  "[2,3,8,6]"),
            "[2,3,4,3]");
  EXPECT_EQ(Infer("MaxPool",
                  "ksize=[1, 3, 3, 1], strides=[1, 1, 1, 1], padding='EXPLICIT', "
                  "explicit_paddings=[0, 0, 1, 1, 1, 1, 0, 0]",
                  "[1,5,5,3]"),
            "[1,5,5,3]");
  EXPECT_EQ(
      Infer("MaxPool", "ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID'", "[?,?,6,3]"),
      "[?,?,3,3]");
  EXPECT_THAT(
      Infer("MaxPool", "ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID'", "[5,5,3]"),
      IsInvalidArgument("Shape must be rank 4 but is rank 3"));
}

TEST(MaxPoolV2ShapeTest, WindowFromInputs) {
  EXPECT_EQ(Infer("MaxPoolV2", "padding='VALID'", "[1,5,5,3];[4];[4]",
                  {{1, Ints({1, 2, 2, 1})}, {2, Ints({1, 2, 2, 1})}}),
            "[1,2,2,3]");
  EXPECT_EQ(Infer("MaxPoolV2", "padding='SAME', data_format='NCHW'", "[1,3,5,5];[4];[4]",
                  {{1, Ints({1, 1, 2, 2})}, {2, Ints({1, 1, 2, 2})}}),
            "[1,3,3,3]");
  EXPECT_EQ(Infer("MaxPoolV2", "padding='SAME'", "[1,5,5,3];[4];[4]"), "?");
}

TEST(AvgPoolShapeTest, WindowsAndFormats) {
  EXPECT_EQ(
      Infer("AvgPool", "T=DT_FLOAT, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID'",
            "[1,5,5,3]"),
      "[1,2,2,3]");
  EXPECT_EQ(Infer("AvgPool",
                  "T=DT_FLOAT, ksize=[1, 1, 3, 3], strides=[1, 1, 1, 1], padding='SAME', "
                  "data_format='NCHW'",
                  "[2,3,5,5]"),
            "[2,3,5,5]");
  EXPECT_THAT(
      Infer("AvgPool", "T=DT_FLOAT, ksize=[1, 6, 6, 1], strides=[1, 1, 1, 1], padding='VALID'",
            "[1,5,5,3]"),
      IsInvalidArgument(""));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
