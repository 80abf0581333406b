#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(FusedConv2DShapeTest, BiasAddAndBatchNormKeepTheConvolutionShape) {
  EXPECT_EQ(Infer("_FusedConv2D",
                  "T=DT_FLOAT, TArgs=[DT_FLOAT], num_args=1, strides=[1, 2, 2, 1], "
                  "padding='SAME', fused_ops=['BiasAdd', 'Relu']",
                  "[1,5,5,2];[3,3,2,8];[8]"),
            "[1,3,3,8]");
  EXPECT_EQ(Infer("_FusedConv2D",
                  "T=DT_FLOAT, TArgs=[DT_FLOAT, DT_FLOAT, DT_FLOAT, DT_FLOAT], num_args=4, "
                  "strides=[1, 1, 1, 1], padding='VALID', data_format='NCHW', "
                  "fused_ops=['FusedBatchNorm']",
                  "[2,2,9,9];[3,3,2,4];[4];[4];[4];[4]"),
            "[2,4,7,7]");
}

TEST(FusedConv2DShapeTest, RejectsWhatConv2DRejects) {
  EXPECT_THAT(Infer("_FusedConv2D",
                    "T=DT_FLOAT, TArgs=[DT_FLOAT], num_args=1, strides=[1, 1, 1, 1], "
                    "padding='SAME', fused_ops=['BiasAdd']",
                    "[1,5,5];[3,3,2,8];[8]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
}

TEST(FusedDepthwiseShapeTest, MultipliesChannels) {
  EXPECT_EQ(Infer("_FusedDepthwiseConv2dNative",
                  "T=DT_FLOAT, num_args=1, strides=[1, 1, 1, 1], padding='SAME', "
                  "fused_ops=['BiasAdd', 'Relu6']",
                  "[1,5,5,3];[3,3,3,2];[6]"),
            "[1,5,5,6]");
}

TEST(FusedMatMulShapeTest, FollowsMatMul) {
  EXPECT_EQ(Infer("_FusedMatMul", "T=DT_FLOAT, num_args=1, fused_ops=['BiasAdd']",
                  "[3,4];[4,5];[5]"),
            "[3,5]");
  EXPECT_EQ(Infer("_FusedMatMul",
                  "T=DT_FLOAT, num_args=1, transpose_b=true, fused_ops=['BiasAdd', 'Tanh']",
                  "[3,4];[5,4];[5]"),
            "[3,5]");
  EXPECT_THAT(Infer("_FusedMatMul", "T=DT_FLOAT, num_args=1, fused_ops=['BiasAdd']",
                    "[3,4];[3,5];[5]"),
              IsInvalidArgument(""));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
