// Shape functions of the convolution, pooling and batch-norm gradients (nn_grad_ops.cc).
#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ConvBackpropShapeTest, FilterGradientFromFilterSizes) {
  EXPECT_EQ(Infer("Conv2DBackpropFilter", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'",
                  "[2,5,5,3];[4];[2,3,3,4]", {{1, Ints({3, 3, 3, 4})}}),
            "[3,3,3,4]");
  EXPECT_EQ(
      Infer("Conv2DBackpropFilter", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='SAME'", "?;[4];?"),
      "[?,?,?,?]");
  EXPECT_EQ(Infer("DepthwiseConv2dNativeBackpropFilter",
                  "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'", "[2,5,5,3];[4];[2,3,3,6]",
                  {{1, Ints({3, 3, 3, 2})}}),
            "[3,3,3,2]");
  EXPECT_EQ(Infer("DepthwiseConv2dNativeBackpropFilter",
                  "T=DT_DOUBLE, strides=[1, 1, 1, 1], padding='VALID'", "?;?;?"),
            "[?,?,?,?]");
  EXPECT_THAT(Infer("Conv2DBackpropFilter", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'",
                    "?;[3];?", {{1, Ints({3, 3, 3})}}),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_THAT(Infer("DepthwiseConv2dNativeBackpropFilter",
                    "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'", "?;[5];?"),
              IsInvalidArgument("Shape must be rank 4 but is rank 5"));
}

TEST(ConvBackpropShapeTest, InputGradientFromInputSizes) {
  EXPECT_EQ(Infer("DepthwiseConv2dNativeBackpropInput",
                  "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'", "[4];[3,3,3,2];[2,3,3,6]",
                  {{0, Ints({2, 5, 5, 3})}}),
            "[2,5,5,3]");
  EXPECT_EQ(Infer("DepthwiseConv2dNativeBackpropInput",
                  "T=DT_HALF, strides=[1, 1, 1, 1], padding='SAME'", "[4];?;?"),
            "[?,?,?,?]");
  EXPECT_THAT(
      Infer("DepthwiseConv2dNativeBackpropInput",
            "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'", "[2];?;?", {{0, Ints({5, 5})}}),
      IsInvalidArgument("Shape must be rank 4 but is rank 2"));
}

TEST(ConvBackpropShapeTest, V2TakesTheTensors) {
  EXPECT_EQ(Infer("Conv2DBackpropFilterV2", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'",
                  "[2,5,5,3];[3,?,3,4];[2,3,3,4]"),
            "[3,?,3,4]");
  EXPECT_EQ(
      Infer("Conv2DBackpropFilterV2", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'", "?;?;?"),
      "[?,?,?,?]");
  EXPECT_THAT(Infer("Conv2DBackpropFilterV2", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'",
                    "[2,5,5,3];[3,3,4];[2,3,3,4]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_EQ(Infer("Conv2DBackpropInputV2", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'",
                  "[2,?,5,3];[3,3,3,4];[2,3,3,4]"),
            "[2,?,5,3]");
  EXPECT_EQ(
      Infer("Conv2DBackpropInputV2", "T=DT_INT32, strides=[1, 1, 1, 1], padding='VALID'", "?;?;?"),
      "[?,?,?,?]");
  EXPECT_THAT(Infer("Conv2DBackpropInputV2", "T=DT_FLOAT, strides=[1, 1, 1, 1], padding='VALID'",
                    "[2,5,5];[3,3,3,4];[2,3,3,4]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
}

TEST(PoolGradShapeTest, MaxPoolGradIsTheInputShape) {
  EXPECT_EQ(Infer("MaxPoolGrad", "ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID'",
                  "[2,4,4,3];[2,2,2,3];[2,2,2,3]"),
            "[2,4,4,3]");
  EXPECT_EQ(
      Infer("MaxPoolGrad", "ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME'", "?;?;?"),
      "[?,?,?,?]");
  EXPECT_EQ(Infer("MaxPoolGradV2", "T=DT_INT32, padding='VALID'", "[2,?,4,3];?;?;[4];[4]"),
            "[2,?,4,3]");
  EXPECT_THAT(Infer("MaxPoolGrad", "ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID'",
                    "[4,4,3];?;?"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_THAT(Infer("MaxPoolGradV2", "padding='VALID'", "[1,2,4,4,3];?;?;?;?"),
              IsInvalidArgument("Shape must be rank 4 but is rank 5"));
}

TEST(PoolGradShapeTest, AvgPoolGradFromOrigInputShape) {
  EXPECT_EQ(
      Infer("AvgPoolGrad", "T=DT_FLOAT, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID'",
            "[4];[2,2,2,3]", {{0, Ints({2, 4, 4, 3})}}),
      "[2,4,4,3]");
  EXPECT_EQ(
      Infer("AvgPoolGrad", "T=DT_HALF, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME'",
            "[4];[2,2,2,3]"),
      "[?,?,?,?]");
  EXPECT_THAT(
      Infer("AvgPoolGrad", "T=DT_FLOAT, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID'",
            "[3];?", {{0, Ints({2, 4, 4})}}),
      IsInvalidArgument("Shape must be rank 4 but is rank 3"));
}

TEST(FusedBatchNormGradShapeTest, OutputsFollowChannels) {
  EXPECT_EQ(Infer("FusedBatchNormGrad", "T=DT_FLOAT", "[2,3,4,5];[2,3,4,5];[5];[5];[5]"),
            "[2,3,4,5];[5];[5];[0];[0]");
  EXPECT_EQ(Infer("FusedBatchNormGradV2", "T=DT_HALF, U=DT_FLOAT, data_format='NCHW'",
                  "[2,?,4,5];[?,?,4,5];[?];[3];[?]"),
            "[2,3,4,5];[3];[3];[0];[0]");
  EXPECT_EQ(Infer("FusedBatchNormGradV3", "T=DT_FLOAT, U=DT_FLOAT", "?;?;?;?;?;?"),
            "[?,?,?,?];[?];[?];[0];[0]");
  EXPECT_EQ(Infer("FusedBatchNormGradV3", "T=DT_BFLOAT16, U=DT_FLOAT, data_format='NDHWC'",
                  "[2,3,4,5,6];[2,3,4,5,?];[6];[6];[6];[0]"),
            "[2,3,4,5,6];[6];[6];[0];[0]");
  EXPECT_EQ(Infer("FusedBatchNormGradV3",
                  "T=DT_FLOAT, U=DT_FLOAT, data_format='NCDHW', is_training=false",
                  "[2,?,4,5,6];[2,3,4,5,6];[?];[?];[?];?"),
            "[2,3,4,5,6];[3];[3];[0];[0]");
}

TEST(FusedBatchNormGradShapeTest, RejectsMismatches) {
  EXPECT_THAT(Infer("FusedBatchNormGrad", "T=DT_FLOAT", "[2,3,4];[2,3,4,5];[5];[5];[5]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_THAT(Infer("FusedBatchNormGradV3", "T=DT_FLOAT, U=DT_FLOAT, data_format='NDHWC'",
                    "[2,3,4,5];?;?;?;?;?"),
              IsInvalidArgument("Shape must be rank 5 but is rank 4"));
  EXPECT_THAT(
      Infer("FusedBatchNormGradV2", "T=DT_FLOAT, U=DT_FLOAT", "[2,3,4,5];[2,3,4,6];[5];[5];[5]"),
      IsInvalidArgument("Dimensions must be equal, but are 5 and 6"));
  EXPECT_THAT(Infer("FusedBatchNormGradV3", "T=DT_FLOAT, U=DT_FLOAT",
                    "[2,3,4,5];[2,3,4,5];[5];[4];[5];[0]"),
              IsInvalidArgument("Dimensions must be equal, but are 5 and 4"));
  EXPECT_THAT(Infer("FusedBatchNormGradV3", "T=DT_FLOAT, U=DT_FLOAT",
                    "[2,3,4,5];[2,3,4,5];[5];[5];[5,1];[0]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
