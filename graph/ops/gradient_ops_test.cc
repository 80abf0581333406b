#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ActivationGradShapeTest, MergesBothInputs) {
  EXPECT_EQ(Infer("ReluGrad", "T=DT_FLOAT", "[2,?];[?,3]"), "[2,3]");
  EXPECT_EQ(Infer("Relu6Grad", "T=DT_INT32", "?;[4]"), "[4]");
  EXPECT_EQ(Infer("EluGrad", "T=DT_HALF", "[2,3];?"), "[2,3]");
  EXPECT_EQ(Infer("SeluGrad", "T=DT_DOUBLE", "?;?"), "?");
  EXPECT_EQ(Infer("SoftplusGrad", "T=DT_FLOAT", "[5];[5]"), "[5]");
  EXPECT_EQ(Infer("SoftsignGrad", "T=DT_BFLOAT16", "[?,?];[1,?]"), "[1,?]");
  EXPECT_EQ(Infer("LeakyReluGrad", "T=DT_FLOAT, alpha=0.1", "[3];[?]"), "[3]");
  EXPECT_THAT(Infer("ReluGrad", "T=DT_FLOAT", "[2];[3]"), IsInvalidArgument("must be equal"));
  EXPECT_THAT(Infer("LeakyReluGrad", "T=DT_FLOAT", "[2];[2,1]"),
              IsInvalidArgument("must be equal rank"));
}

TEST(OutputGradShapeTest, TakesTheOutputsShape) {
  EXPECT_EQ(Infer("TanhGrad", "T=DT_FLOAT", "[2,?];[?,3]"), "[2,?]");
  EXPECT_EQ(Infer("SigmoidGrad", "T=DT_HALF", "?;[3]"), "?");
  EXPECT_EQ(Infer("SqrtGrad", "T=DT_COMPLEX64", "[4];?"), "[4]");
  EXPECT_EQ(Infer("RsqrtGrad", "T=DT_DOUBLE", "[2,3];[3,2]"), "[2,3]");
  EXPECT_EQ(Infer("ReciprocalGrad", "T=DT_COMPLEX128", "[];[7]"), "[]");
  EXPECT_EQ(Infer("InvGrad", "T=DT_BFLOAT16", "[1,2,3];[1,2,3]"), "[1,2,3]");
}

TEST(BroadcastGradientArgsShapeTest, TwoVectorsOfUnknownLength) {
  EXPECT_EQ(Infer("BroadcastGradientArgs", "T=DT_INT32", "[3];[2]"), "[?];[?]");
  EXPECT_EQ(Infer("BroadcastGradientArgs", "T=DT_INT64", "?;?"), "[?];[?]");
  // The values are not read.
  EXPECT_EQ(
      Infer("BroadcastGradientArgs", "T=DT_INT32", "[2];[1]", {{0, Ints({2, 3})}, {1, Ints({3})}}),
      "[?];[?]");
  EXPECT_THAT(Infer("BroadcastGradientArgs", "T=DT_INT32", "[2,1];[2]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("BroadcastGradientArgs", "T=DT_INT32", "[2];[]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(ConcatOffsetShapeTest, EachShapesOwnShape) {
  EXPECT_EQ(Infer("ConcatOffset", "N=2, shape_type=DT_INT32", "[];[3];[3]"), "[3];[3]");
  EXPECT_EQ(Infer("ConcatOffset", "N=3, shape_type=DT_INT64", "[];[2];?;[?]"), "[2];?;[?]");
  // Nothing is checked: the kernel checks the values.
  EXPECT_EQ(Infer("ConcatOffset", "N=2, shape_type=DT_INT32", "[2];[3];[4,1]"), "[3];[4,1]");
}

TEST(BiasAddGradShapeTest, TheChannelDim) {
  EXPECT_EQ(Infer("BiasAddGrad", "T=DT_FLOAT", "[2,3,4]"), "[4]");
  EXPECT_EQ(Infer("BiasAddGrad", "T=DT_FLOAT", "[2,5]"), "[5]");
  EXPECT_EQ(Infer("BiasAddGrad", "T=DT_FLOAT, data_format='NCHW'", "[2,3,4,5]"), "[3]");
  EXPECT_EQ(Infer("BiasAddGrad", "T=DT_HALF", "?"), "[?]");
  EXPECT_EQ(Infer("BiasAddGrad", "T=DT_INT32, data_format='NCHW'", "[?,?,4]"), "[?]");
  EXPECT_THAT(Infer("BiasAddGrad", "T=DT_FLOAT", "[4]"), IsInvalidArgument("at least rank 2"));
  // TensorFlow's shape function wants rank 3 for NCHW (its kernel takes rank 2).
  EXPECT_THAT(Infer("BiasAddGrad", "T=DT_FLOAT, data_format='NCHW'", "[2,3]"),
              IsInvalidArgument("at least rank 3"));
}

TEST(DynamicStitchShapeTest, KnownIndicesGiveTheFirstDim) {
  EXPECT_EQ(Infer("DynamicStitch", "N=2, T=DT_FLOAT", "[2];[3];[2,4];[3,4]",
                  {{0, Ints({0, 4})}, {1, Ints({1, 2, 3})}}),
            "[5,4]");
  EXPECT_EQ(Infer("ParallelDynamicStitch", "N=2, T=DT_FLOAT", "[2];[3];[2,4];[3,4]",
                  {{0, Ints({0, 4})}, {1, Ints({1, 2, 3})}}),
            "[5,4]");
  // Scalar and matrix indices.
  EXPECT_EQ(Infer("DynamicStitch", "N=2, T=DT_INT32", "[];[2,2];[5];[2,2,5]",
                  {{0, Int(6)}, {1, IntMatrix({{0, 1}, {2, 3}})}}),
            "[7,5]");
  // No indices at all: a first dim of 0.
  EXPECT_EQ(Infer("DynamicStitch", "N=1, T=DT_FLOAT", "[0];[0,3]", {{0, Ints({})}}), "[0,3]");
}

TEST(DynamicStitchShapeTest, UnknownIndicesOrShapes) {
  EXPECT_EQ(Infer("DynamicStitch", "N=2, T=DT_FLOAT", "[2];[3];[2,4];[3,4]"), "[?,4]");
  EXPECT_EQ(Infer("DynamicStitch", "N=2, T=DT_FLOAT", "[2];[3];[2,?];[3,4]", {{0, Ints({0, 4})}}),
            "[?,4]");
  // Indices of unknown rank leave the rest of the shape unknown.
  EXPECT_EQ(Infer("DynamicStitch", "N=1, T=DT_FLOAT", "?;[2,4]"), "?");
  EXPECT_EQ(Infer("DynamicStitch", "N=2, T=DT_FLOAT", "[2];?;[2,4];?"), "[?,4]");
  EXPECT_EQ(Infer("DynamicStitch", "N=1, T=DT_FLOAT", "[2];?"), "?");
  EXPECT_EQ(Infer("DynamicStitch", "N=1, T=DT_FLOAT", "[?];[3,2]"), "[?,2]");
}

TEST(DynamicStitchShapeTest, DataMustStartWithIndicesAndAgreeOnTheRest) {
  EXPECT_THAT(Infer("DynamicStitch", "N=1, T=DT_FLOAT", "[2];[3,4]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("DynamicStitch", "N=1, T=DT_FLOAT", "[2,3];[2]"),
              IsInvalidArgument("must be at least rank 2"));
  EXPECT_THAT(Infer("DynamicStitch", "N=2, T=DT_FLOAT", "[2];[3];[2,4];[3,5]"),
              IsInvalidArgument("must be equal"));
  EXPECT_THAT(Infer("ParallelDynamicStitch", "N=2, T=DT_FLOAT", "[2];[3];[2,4];[3]"),
              IsInvalidArgument("Shapes must be equal rank"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
