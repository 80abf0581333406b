#include <string>

#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(Conv3DShapeTest, Padding) {
  EXPECT_EQ(Infer("Conv3D", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='VALID'",
                  "[2,5,6,7,3];[2,3,3,3,8]"),
            "[2,4,4,5,8]");
  EXPECT_EQ(Infer("Conv3D", "T=DT_FLOAT, strides=[1, 2, 2, 2, 1], padding='SAME'",
                  "[2,5,6,7,3];[2,3,3,3,8]"),
            "[2,3,3,4,8]");
  EXPECT_EQ(Infer("Conv3D",
                  "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='VALID', "
                  "dilations=[1, 2, 2, 2, 1]",
                  "[1,5,6,7,3];[2,3,3,3,4]"),
            "[1,3,2,3,4]");
  EXPECT_EQ(
      Infer("Conv3D", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='VALID', data_format='NCDHW'",
            "[1,3,5,6,7];[2,3,3,3,4]"),
      "[1,4,4,4,5]");
  EXPECT_EQ(Infer("Conv3D", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'", "?;?"),
            "[?,?,?,?,?]");
}

TEST(Conv3DShapeTest, Errors) {
  EXPECT_THAT(Infer("Conv3D", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                    "[2,5,6,7];[2,3,3,3,8]"),
              IsInvalidArgument("must be rank 5"));
  EXPECT_THAT(
      Infer("Conv3D", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
            "[2,5,6,7,3];[2,3,3,2,8]"),
      IsInvalidArgument("Depth of input (3) is not a multiple of input depth of filter (2)"));
}

TEST(Conv3DBackpropInputShapeTest, Sizes) {
  EXPECT_EQ(Infer("Conv3DBackpropInputV2", "T=DT_FLOAT, strides=[1, 2, 2, 2, 1], padding='VALID'",
                  "[5];[2,2,2,3,4];[1,3,3,3,4]", {{0, Ints({1, 7, 7, 7, 3})}}),
            "[1,7,7,7,3]");
  EXPECT_EQ(Infer("Conv3DBackpropInputV2",
                  "T=DT_DOUBLE, strides=[1, 1, 1, 1, 1], padding='SAME', Tshape=DT_INT64",
                  "[5];[2,2,2,3,4];[1,3,3,3,4]", {{0, Int64s({2, 4, 5, 6, 3})}}),
            "[2,4,5,6,3]");
  EXPECT_EQ(Infer("Conv3DBackpropInputV2", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                  "[5];[2,2,2,3,4];[1,3,3,3,4]"),
            "[?,?,?,?,?]");
  EXPECT_EQ(Infer("Conv3DBackpropInputV2", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                  "?;?;?"),
            "[?,?,?,?,?]");
  EXPECT_THAT(Infer("Conv3DBackpropInputV2", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                    "[4];[2,2,2,3,4];[1,3,3,3,4]", {{0, Ints({1, 7, 7, 3})}}),
              IsInvalidArgument("must be rank 5"));
  EXPECT_THAT(Infer("Conv3DBackpropInputV2", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                    "[5,1];[2,2,2,3,4];[1,3,3,3,4]"),
              IsInvalidArgument("must be rank 1"));
}

// TensorFlow 2.x refuses to build Conv3DBackpropInput (removed at GraphDef version 10), so
// tests/op_defs/check_shape_tests_with_tf.py cannot re-run these checks: the op name is held in
// a variable, which the script skips. TensorFlow's shape function is UnchangedShapeWithRank(5).
TEST(Conv3DBackpropInputShapeTest, Version1) {
  const std::string op = "Conv3DBackpropInput";
  EXPECT_EQ(Infer(op, "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='VALID'",
                  "[1,4,4,4,3];[2,2,2,3,4];[1,3,3,3,4]"),
            "[1,4,4,4,3]");
  EXPECT_EQ(Infer(op, "T=DT_HALF, strides=[1, 1, 1, 1, 1], padding='VALID'", "?;?;?"),
            "[?,?,?,?,?]");
  EXPECT_THAT(Infer(op, "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='VALID'",
                    "[4,4,4,3];[2,2,2,3,4];[1,3,3,3,4]"),
              IsInvalidArgument("must be rank 5"));
}

TEST(Pool3DShapeTest, Padding) {
  EXPECT_EQ(Infer("MaxPool3D",
                  "T=DT_FLOAT, ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding='VALID'",
                  "[2,5,6,7,3]"),
            "[2,2,3,3,3]");
  EXPECT_EQ(Infer("AvgPool3D",
                  "T=DT_FLOAT, ksize=[1, 3, 3, 3, 1], strides=[1, 2, 2, 2, 1], padding='SAME'",
                  "[2,5,6,7,3]"),
            "[2,3,3,4,3]");
  EXPECT_EQ(Infer("AvgPool3D",
                  "T=DT_FLOAT, ksize=[1, 1, 2, 2, 2], strides=[1, 1, 1, 1, 1], padding='VALID', "
                  "data_format='NCDHW'",
                  "[2,3,5,6,7]"),
            "[2,3,4,5,6]");
  EXPECT_THAT(Infer("MaxPool3D",
                    "T=DT_FLOAT, ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding='VALID'",
                    "[2,5,6,7]"),
              IsInvalidArgument("must be rank 5"));
}

TEST(Conv3DBackpropFilterShapeTest, Sizes) {
  EXPECT_EQ(Infer("Conv3DBackpropFilterV2", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                  "?;[5];?", {{1, Ints({1, 2, 3, 4, 5})}}),
            "[1,2,3,4,5]");
  EXPECT_EQ(Infer("Conv3DBackpropFilterV2", "T=DT_HALF, strides=[1, 2, 2, 2, 1], padding='VALID'",
                  "[1,7,7,7,3];[5];[1,3,3,3,4]"),
            "[?,?,?,?,?]");
  EXPECT_EQ(Infer("Conv3DBackpropFilterV2", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                  "?;?;?"),
            "[?,?,?,?,?]");
  EXPECT_THAT(Infer("Conv3DBackpropFilterV2", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                    "?;[4];?", {{1, Ints({1, 2, 3, 4})}}),
              IsInvalidArgument("must be rank 5"));
  EXPECT_THAT(Infer("Conv3DBackpropFilterV2", "T=DT_FLOAT, strides=[1, 1, 1, 1, 1], padding='SAME'",
                    "?;[5,1];?"),
              IsInvalidArgument("must be rank 1"));
}

TEST(Pool3DGradShapeTest, Shapes) {
  EXPECT_EQ(Infer("MaxPool3DGrad",
                  "T=DT_FLOAT, TInput=DT_FLOAT, ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], "
                  "padding='VALID'",
                  "[1,2,3,4,5];?;?"),
            "[1,2,3,4,5]");
  EXPECT_EQ(Infer("MaxPool3DGrad",
                  "T=DT_FLOAT, TInput=DT_FLOAT, ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], "
                  "padding='VALID'",
                  "?;?;?"),
            "[?,?,?,?,?]");
  EXPECT_THAT(Infer("MaxPool3DGrad",
                    "T=DT_FLOAT, TInput=DT_FLOAT, ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], "
                    "padding='VALID'",
                    "[1,2,3,4];?;?"),
              IsInvalidArgument("must be rank 5"));
  EXPECT_EQ(Infer("AvgPool3DGrad",
                  "T=DT_FLOAT, ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding='SAME'",
                  "[5];?", {{0, Ints({1, 2, 3, 4, 5})}}),
            "[1,2,3,4,5]");
  EXPECT_EQ(Infer("AvgPool3DGrad",
                  "T=DT_DOUBLE, ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding='SAME'",
                  "?;[1,2,3]"),
            "[?,?,?,?,?]");
  EXPECT_THAT(Infer("AvgPool3DGrad",
                    "T=DT_FLOAT, ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding='SAME'",
                    "[4];?", {{0, Ints({1, 2, 3, 4})}}),
              IsInvalidArgument("must be rank 5"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
