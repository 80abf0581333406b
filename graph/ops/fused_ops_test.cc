#include <string>

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
  EXPECT_EQ(
      Infer("_FusedMatMul", "T=DT_FLOAT, num_args=1, fused_ops=['BiasAdd']", "[3,4];[4,5];[5]"),
      "[3,5]");
  EXPECT_EQ(Infer("_FusedMatMul",
                  "T=DT_FLOAT, num_args=1, transpose_b=true, fused_ops=['BiasAdd', 'Tanh']",
                  "[3,4];[5,4];[5]"),
            "[3,5]");
  EXPECT_THAT(
      Infer("_FusedMatMul", "T=DT_FLOAT, num_args=1, fused_ops=['BiasAdd']", "[3,4];[3,5];[5]"),
      IsInvalidArgument(""));
}

TEST(FusedElementwiseShapeTest, BroadcastsEveryInputToTheOutput) {
  // gelu: (x * 0.5) * (1 + erf(x / sqrt2)), with a bias on x first.
  const std::string attrs =
      "T=DT_FLOAT, N=5, ops=['AddV2', 'Mul', 'RealDiv', 'Erf', 'AddV2', 'Mul'], "
      "operands=[0, 1,  5, 2,  5, 3,  7,  4, 8,  6, 9]";
  EXPECT_EQ(Infer("_FusedElementwise", attrs, "[2,3,8];[8];[];[];[1]"), "[2,3,8]");
  EXPECT_EQ(Infer("_FusedElementwise", attrs, "[?,3,8];[8];[];[];[]"), "[?,3,8]");
  EXPECT_EQ(
      Infer("_FusedElementwise", "T=DT_FLOAT, N=2, ops=['Sub'], operands=[0, 1]", "[4,8];[4,1]"),
      "[4,8]");
  EXPECT_THAT(
      Infer("_FusedElementwise", "T=DT_FLOAT, N=2, ops=['Sub'], operands=[0, 1]", "[4,8];[3]"),
      IsInvalidArgument("Dimensions must be equal, but are 8 and 3"));
}

TEST(FusedElementwiseShapeTest, RejectsMalformedPrograms) {
  EXPECT_THAT(Infer("_FusedElementwise", "T=DT_FLOAT, N=1, ops=['MatMul'], operands=[0, 0]", "[2]"),
              IsInvalidArgument("cannot evaluate op 0 'MatMul'"));
  EXPECT_THAT(Infer("_FusedElementwise", "T=DT_FLOAT, N=1, ops=['Erf'], operands=[1]", "[2]"),
              IsInvalidArgument("reads operand 1, which is neither"));
  EXPECT_THAT(Infer("_FusedElementwise", "T=DT_FLOAT, N=1, ops=['Mul'], operands=[0]", "[2]"),
              IsInvalidArgument("fewer than its ops take"));
  EXPECT_THAT(Infer("_FusedElementwise", "T=DT_FLOAT, N=1, ops=['Exp'], operands=[0, 0]", "[2]"),
              IsInvalidArgument("more than its ops take"));
  EXPECT_THAT(Infer("_FusedElementwise", "T=DT_FLOAT, N=1, ops=[], operands=[]", "[2]"),
              IsInvalidArgument("at least one op"));
}

TEST(MlirClusterShapeTest, ReductionsKeepTheLastAxisAsOne) {
  // A layer norm's variance: Mean(SquaredDifference(x, Mean(x))), a row value.
  const std::string variance =
      "T=DT_FLOAT, N=1, ops=['Mean', 'SquaredDifference', 'Mean'], operands=[0, 0, 1, 2]";
  EXPECT_EQ(Infer("_MlirCluster", variance, "[2,3,8]"), "[2,3,1]");
  EXPECT_EQ(Infer("_MlirCluster", variance, "[?,3,?]"), "[?,3,1]");
  EXPECT_EQ(Infer("_MlirCluster", variance, "?"), "?");
  // Back to the full shape by a row with a column.
  EXPECT_EQ(
      Infer("_MlirCluster", "T=DT_FLOAT, N=2, ops=['Max', 'Mul'], operands=[0, 2, 1]", "[4,8];[8]"),
      "[4,8]");
  EXPECT_THAT(Infer("_MlirCluster", "T=DT_FLOAT, N=1, ops=['Sum'], operands=[0]", "[]"),
              IsInvalidArgument("reduces the last axis of a scalar"));
  EXPECT_THAT(Infer("_MlirCluster", "T=DT_FLOAT, N=1, ops=['ArgMax'], operands=[0]", "[2]"),
              IsInvalidArgument("_MlirCluster cannot evaluate op 0 'ArgMax'"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
