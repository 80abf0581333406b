#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ReshapeShapeTest, KnownShapeTensor) {
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({3, 2})}}), "[3,2]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({3, -1})}}), "[3,2]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT, Tshape=DT_INT64", "[2,3,4];[2]", {{1, Int64s({-1, 4})}}),
            "[6,4]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[1];[0]", {{1, Ints({})}}), "[]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "?;[3]", {{1, Ints({2, -1, 3})}}), "[2,?,3]");
}

TEST(ReshapeShapeTest, PartlyKnownInput) {
  // A fully known output checks the input's one unknown dim.
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,?];[2]", {{1, Ints({4, 2})}}), "[4,2]");
  // Equal known parts: the output's -1 is the input's unknown dim.
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,?];[2]", {{1, Ints({2, -1})}}), "[2,?]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,?];[2]", {{1, Ints({3, -1})}}), "[3,?]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[0,?];[2]", {{1, Ints({-1, 5})}}), "[0,5]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[0,3];[2]", {{1, Ints({-1, 0})}}), "[?,0]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[?,?];[2]", {{1, Ints({3, -1})}}), "[3,?]");
}

TEST(ReshapeShapeTest, UnknownShapeTensor) {
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]"), "[?,?]");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,3];?"), "?");
  EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({-1, -1})}}), "[?,?]");
}

TEST(ReshapeShapeTest, RejectsImpossibleShapes) {
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({4, 2})}}),
              IsInvalidArgument("Cannot reshape a tensor with 6 elements to shape [4,2] (8 "
                                "elements)"));
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({4, -1})}}),
              IsInvalidArgument("Dimension size must be evenly divisible by 4 but is 6"));
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT", "[3,?];[2]", {{1, Ints({4, 2})}}),
              IsInvalidArgument("evenly divisible by 3 but is 8"));
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({-1, 0})}}),
              IsInvalidArgument("Cannot reshape a tensor with 6 elements"));
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT", "[2];[0]", {{1, Ints({})}}),
              IsInvalidArgument("Cannot reshape a tensor with 2 elements to shape []"));
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({-2, 3})}}),
              IsInvalidArgument(""));
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT", "[2,3];[]", {{1, Int(-1)}}),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
}

TEST(ReshapeShapeTest, HugeShapesAreErrorsNotOverflows) {
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT, Tshape=DT_INT64", "[2,3];[2]",
                    {{1, Int64s({int64_t{1} << 40, int64_t{1} << 40})}}),
              IsInvalidArgument(""));
  EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT, Tshape=DT_INT64", "[2,?];[3]",
                    {{1, Int64s({int64_t{1} << 40, int64_t{1} << 40, -1})}}),
              IsInvalidArgument("overflow"));
}

TEST(SqueezeShapeTest, AllSizeOneDims) {
  EXPECT_EQ(Infer("Squeeze", "T=DT_FLOAT", "[1,2,1,3]"), "[2,3]");
  EXPECT_EQ(Infer("Squeeze", "T=DT_FLOAT", "[1,1]"), "[]");
  // An unknown dim may or may not be 1.
  EXPECT_EQ(Infer("Squeeze", "T=DT_FLOAT", "[1,2,1,?]"), "?");
  EXPECT_EQ(Infer("Squeeze", "T=DT_FLOAT", "?"), "?");
}

TEST(SqueezeShapeTest, ListedDims) {
  EXPECT_EQ(Infer("Squeeze", "T=DT_FLOAT, squeeze_dims=[0, -2]", "[1,2,1,?]"), "[2,?]");
  EXPECT_EQ(Infer("Squeeze", "T=DT_FLOAT, squeeze_dims=[3]", "[1,2,1,?]"), "[1,2,1]");
  EXPECT_THAT(Infer("Squeeze", "T=DT_FLOAT, squeeze_dims=[1]", "[1,2,1,?]"),
              IsInvalidArgument("Can not squeeze dim[1], expected a dimension of 1, got 2"));
  EXPECT_THAT(Infer("Squeeze", "T=DT_FLOAT, squeeze_dims=[4]", "[1,2,1,?]"),
              IsInvalidArgument("squeeze_dims[0] not in [-4,4)."));
  EXPECT_THAT(Infer("Squeeze", "T=DT_FLOAT, squeeze_dims=[-5]", "[1,2,1,?]"),
              IsInvalidArgument("squeeze_dims[0] not in [-4,4)."));
}

TEST(ExpandDimsShapeTest, InsertsADim) {
  EXPECT_EQ(Infer("ExpandDims", "T=DT_FLOAT", "[2,3];[]", {{1, Int(0)}}), "[1,2,3]");
  EXPECT_EQ(Infer("ExpandDims", "T=DT_FLOAT", "[2,3];[]", {{1, Int(2)}}), "[2,3,1]");
  EXPECT_EQ(Infer("ExpandDims", "T=DT_FLOAT", "[2,3];[]", {{1, Int(-1)}}), "[2,3,1]");
  EXPECT_EQ(Infer("ExpandDims", "T=DT_FLOAT", "[2,3];[]", {{1, Int(-3)}}), "[1,2,3]");
  EXPECT_EQ(Infer("ExpandDims", "T=DT_FLOAT, Tdim=DT_INT64", "[];[1]", {{1, Int64s({0})}}), "[1]");
  EXPECT_EQ(Infer("ExpandDims", "T=DT_FLOAT", "[2,3];[]"), "?");
  EXPECT_EQ(Infer("ExpandDims", "T=DT_FLOAT", "?;[]", {{1, Int(0)}}), "?");
}

TEST(ExpandDimsShapeTest, RejectsBadDim) {
  EXPECT_THAT(Infer("ExpandDims", "T=DT_FLOAT", "[2,3];[]", {{1, Int(3)}}),
              IsInvalidArgument("dim 3 not in the interval [-3, 2]."));
  EXPECT_THAT(Infer("ExpandDims", "T=DT_FLOAT", "[2,3];[]", {{1, Int(-4)}}),
              IsInvalidArgument("dim -4 not in the interval [-3, 2]."));
  EXPECT_THAT(Infer("ExpandDims", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({0, 1})}}),
              IsInvalidArgument("'dim' input must be a tensor with a single value"));
}

TEST(ShapeShapeTest, VectorOfTheRank) {
  EXPECT_EQ(Infer("Shape", "T=DT_FLOAT", "[2,?]"), "[2]");
  EXPECT_EQ(Infer("Shape", "T=DT_FLOAT, out_type=DT_INT64", "[]"), "[0]");
  EXPECT_EQ(Infer("Shape", "T=DT_FLOAT", "?"), "[?]");
  EXPECT_EQ(Infer("ShapeN", "T=DT_FLOAT, N=3", "[2,?];?;[]"), "[2];[?];[0]");
  EXPECT_EQ(Infer("Size", "T=DT_FLOAT", "[2,3]"), "[]");
  EXPECT_EQ(Infer("Size", "T=DT_FLOAT, out_type=DT_INT64", "?"), "[]");
  EXPECT_EQ(Infer("Rank", "T=DT_FLOAT", "?"), "[]");
}

TEST(FillShapeTest, FromDims) {
  EXPECT_EQ(Infer("Fill", "T=DT_FLOAT", "[2];[]", {{0, Ints({2, 3})}}), "[2,3]");
  EXPECT_EQ(Infer("Fill", "T=DT_FLOAT", "[2];[]", {{0, Ints({0, 3})}}), "[0,3]");
  EXPECT_EQ(Infer("Fill", "T=DT_FLOAT", "[0];[]", {{0, Ints({})}}), "[]");
  EXPECT_EQ(Infer("Fill", "T=DT_FLOAT", "[2];[]"), "[?,?]");
  EXPECT_EQ(Infer("Fill", "T=DT_FLOAT", "?;[]"), "?");
  // TensorFlow checks signs only; element counts beyond memory are the kernel's problem.
  EXPECT_EQ(Infer("Fill", "T=DT_FLOAT, index_type=DT_INT64", "[2];[]",
                  {{0, Int64s({int64_t{1} << 40, int64_t{1} << 40})}}),
            "[1099511627776,1099511627776]");
  EXPECT_EQ(Infer("Fill", "T=DT_FLOAT, index_type=DT_INT64", "[3];[]",
                  {{0, Int64s({int64_t{1} << 62, int64_t{1} << 62, 8})}}),
            "[4611686018427387904,4611686018427387904,8]");
}

TEST(FillShapeTest, RejectsBadDims) {
  EXPECT_THAT(Infer("Fill", "T=DT_FLOAT", "[2];[]", {{0, Ints({-1, 3})}}),
              IsInvalidArgument("Fill dimensions must be >= 0"));
  EXPECT_THAT(
      Infer("Fill", "T=DT_FLOAT, index_type=DT_INT64", "[2];[]", {{0, Int64s({INT64_MIN, 3})}}),
      IsInvalidArgument("Fill dimensions must be >= 0"));
  EXPECT_THAT(Infer("Fill", "T=DT_FLOAT", "[2];[1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("Fill", "T=DT_FLOAT", "[];[]", {{0, Int(3)}}),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
}

TEST(LikeShapeTest, Unchanged) {
  EXPECT_EQ(Infer("ZerosLike", "T=DT_STRING", "[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("OnesLike", "T=DT_BOOL", "?"), "?");
}

TEST(BroadcastToShapeTest, TargetShape) {
  EXPECT_EQ(Infer("BroadcastTo", "T=DT_FLOAT", "[3];[2]", {{1, Ints({2, 3})}}), "[2,3]");
  EXPECT_EQ(Infer("BroadcastTo", "T=DT_FLOAT", "[1];[2]", {{1, Ints({2, 3})}}), "[2,3]");
  EXPECT_EQ(Infer("BroadcastTo", "T=DT_FLOAT", "[?];[2]", {{1, Ints({2, 3})}}), "[2,3]");
  EXPECT_EQ(Infer("BroadcastTo", "T=DT_FLOAT", "[3];[2]", {{1, Ints({2, -1})}}), "[2,3]");
  EXPECT_EQ(Infer("BroadcastTo", "T=DT_FLOAT", "[3];[2]"), "[?,3]");
  EXPECT_EQ(Infer("BroadcastTo", "T=DT_FLOAT", "[3];?"), "?");
  EXPECT_EQ(Infer("BroadcastTo", "T=DT_FLOAT", "?;[2]", {{1, Ints({2, 3})}}), "[2,3]");
}

TEST(BroadcastToShapeTest, RejectsMismatches) {
  EXPECT_THAT(Infer("BroadcastTo", "T=DT_FLOAT", "[4];[2]", {{1, Ints({2, 3})}}),
              IsInvalidArgument("Dimensions must be equal, but are 4 and 3"));
  EXPECT_THAT(Infer("BroadcastTo", "T=DT_FLOAT", "[2,2,3];[2]", {{1, Ints({2, 3})}}),
              IsInvalidArgument("Shape must be at most rank 2 but is rank 3"));
  EXPECT_THAT(Infer("BroadcastTo", "T=DT_FLOAT", "[3];[]", {{1, Int(3)}}),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
}

TEST(WhereShapeTest, CoordinatesMatrix) {
  EXPECT_EQ(Infer("Where", "", "[2,3]"), "[?,2]");
  EXPECT_EQ(Infer("Where", "T=DT_FLOAT", "[]"), "[?,0]");
  EXPECT_EQ(Infer("Where", "", "?"), "[?,?]");
}

TEST(TransposeShapeTest, KnownPerm) {
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT", "[2,3,4];[3]", {{1, Ints({2, 0, 1})}}), "[4,2,3]");
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT, Tperm=DT_INT64", "[2,?];[2]", {{1, Int64s({1, 0})}}),
            "[?,2]");
  // TensorFlow reads negative entries from the end and does not check for repeats.
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({-1, 0})}}), "[3,2]");
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({0, 0})}}), "[2,2]");
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT", "?;[3]", {{1, Ints({2, 0, 1})}}), "[?,?,?]");
}

TEST(TransposeShapeTest, UnknownPerm) {
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT", "[2,3,4];?"), "[?,?,?]");
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT", "?;[3]"), "[?,?,?]");
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT", "?;?"), "?");
  // A one-element perm fits a scalar or a vector.
  EXPECT_EQ(Infer("Transpose", "T=DT_FLOAT", "?;[1]", {{1, Ints({0})}}), "?");
}

TEST(TransposeShapeTest, RejectsBadPerm) {
  EXPECT_THAT(Infer("Transpose", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({2, 0})}}),
              IsInvalidArgument("perm dim 2 is out of range of input rank 2"));
  EXPECT_THAT(Infer("Transpose", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({-3, 0})}}),
              IsInvalidArgument("perm dim -3 is out of range of input rank 2"));
  EXPECT_THAT(Infer("Transpose", "T=DT_FLOAT", "[2,3,4];[2]"),
              IsInvalidArgument("Dimension must be 3 but is 2"));
}

TEST(ReverseV2ShapeTest, Unchanged) {
  EXPECT_EQ(Infer("ReverseV2", "T=DT_FLOAT", "[2,3];[1]", {{1, Ints({1})}}), "[2,3]");
  EXPECT_EQ(Infer("ReverseV2", "T=DT_FLOAT, Tidx=DT_INT64", "[2,?];[2]", {{1, Int64s({0, -1})}}),
            "[2,?]");
  EXPECT_EQ(Infer("ReverseV2", "T=DT_FLOAT", "?;[1]", {{1, Ints({5})}}), "?");
  EXPECT_EQ(Infer("ReverseV2", "T=DT_FLOAT", "[2,3];[?]"), "[2,3]");
}

TEST(ReverseV2ShapeTest, RejectsBadAxes) {
  EXPECT_THAT(Infer("ReverseV2", "T=DT_FLOAT", "[2,3];[1]", {{1, Ints({2})}}),
              IsInvalidArgument("'axis'[0] = 2 is out of valid range [0, 1"));
  EXPECT_THAT(Infer("ReverseV2", "T=DT_FLOAT", "[2,3];[1]", {{1, Ints({-3})}}),
              IsInvalidArgument("'axis'[0] = -3 is out of valid range [0, 1"));
  EXPECT_THAT(Infer("ReverseV2", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({1, -1})}}),
              IsInvalidArgument("axis 1 specified more than once."));
  EXPECT_THAT(Infer("ReverseV2", "T=DT_FLOAT", "[1,1,1,1,1,1,1,1,1];[1]"),
              IsInvalidArgument("reverse does not work on tensors with more than 8 dimensions"));
  EXPECT_THAT(Infer("ReverseV2", "T=DT_FLOAT", "[2,3];[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
}

TEST(ReverseSequenceShapeTest, OutputIsTheInput) {
  EXPECT_EQ(Infer("ReverseSequence", "T=DT_FLOAT, seq_dim=1", "[4,5,6];[4]"), "[4,5,6]");
  EXPECT_EQ(
      Infer("ReverseSequence", "T=DT_INT32, seq_dim=0, batch_dim=2, Tlen=DT_INT32", "[5,6,?];[3]"),
      "[5,6,3]");
  EXPECT_EQ(Infer("ReverseSequence", "T=DT_FLOAT, seq_dim=1", "?;[4]"), "?");
  EXPECT_EQ(Infer("ReverseSequence", "T=DT_FLOAT, seq_dim=1", "[?,5];?"), "[?,5]");
}

TEST(ReverseSequenceShapeTest, RejectsBadDims) {
  EXPECT_THAT(Infer("ReverseSequence", "T=DT_FLOAT, seq_dim=3", "[4,5,6];[4]"),
              IsInvalidArgument("seq_dim must be < input rank: 3 vs. 3"));
  EXPECT_THAT(Infer("ReverseSequence", "T=DT_FLOAT, seq_dim=1, batch_dim=4", "[4,5,6];[4]"),
              IsInvalidArgument("batch_dim must be < input rank: 4 vs. 3"));
  EXPECT_THAT(Infer("ReverseSequence", "T=DT_FLOAT, seq_dim=1", "[4,5,6];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 4 and 3"));
  EXPECT_THAT(Infer("ReverseSequence", "T=DT_FLOAT, seq_dim=1", "[4,5,6];[4,1]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

TEST(UniqueShapeTest, VectorOfUnknownLength) {
  EXPECT_EQ(Infer("Unique", "T=DT_FLOAT", "[7]"), "[?];[7]");
  EXPECT_EQ(Infer("Unique", "T=DT_STRING, out_idx=DT_INT64", "[?]"), "[?];[?]");
  EXPECT_EQ(Infer("Unique", "T=DT_INT32", "?"), "[?];?");
  EXPECT_THAT(Infer("Unique", "T=DT_INT32", "[2,3]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

TEST(UniqueV2ShapeTest, KnownAxisGivesIdxLength) {
  EXPECT_EQ(Infer("UniqueV2", "T=DT_INT32", "[7];[1]"), "[?];[?]");
  EXPECT_EQ(Infer("UniqueV2", "T=DT_INT32, Taxis=DT_INT32", "[2,3];[1]"), "[?,?];[?]");
  EXPECT_EQ(Infer("UniqueV2", "T=DT_INT32", "[2,3];[1]", {{1, Int64s({1})}}), "[?,?];[3]");
  EXPECT_EQ(Infer("UniqueV2", "T=DT_INT32", "[2,3];[1]", {{1, Int64s({-2})}}), "[?,?];[2]");
  EXPECT_EQ(Infer("UniqueV2", "T=DT_FLOAT, Taxis=DT_INT32", "[5];[0]", {{1, Ints({})}}), "[?];[5]");
  EXPECT_EQ(Infer("UniqueV2", "T=DT_INT32", "?;[1]", {{1, Int64s({0})}}), "?;[?]");
  EXPECT_EQ(Infer("UniqueV2", "T=DT_INT32", "[];[1]"), "[];[?]");
}

TEST(UniqueV2ShapeTest, RejectsBadAxes) {
  EXPECT_THAT(Infer("UniqueV2", "T=DT_INT32", "[2,3];[1]", {{1, Int64s({2})}}),
              IsInvalidArgument("axis expects to be in the range [-2, 2)"));
  EXPECT_THAT(Infer("UniqueV2", "T=DT_INT32", "[2,3];[0]", {{1, Int64s({})}}),
              IsInvalidArgument("x expects a 1D vector."));
  EXPECT_THAT(Infer("UniqueV2", "T=DT_INT32", "[2,3];[2]", {{1, Int64s({0, 1})}}),
              IsInvalidArgument("axis does not support input tensors larger than 1 elements."));
  EXPECT_THAT(Infer("UniqueV2", "T=DT_INT32", "[7];[]", {{1, Int64(0)}}),
              IsInvalidArgument("axis expects a 1D vector."));
}

TEST(ConjugateTransposeShapeTest, AsTranspose) {
  EXPECT_EQ(Infer("ConjugateTranspose", "T=DT_COMPLEX64", "[2,3,4];[3]", {{1, Ints({2, 0, 1})}}),
            "[4,2,3]");
  EXPECT_EQ(
      Infer("ConjugateTranspose", "T=DT_FLOAT, Tperm=DT_INT64", "[2,?];[2]", {{1, Int64s({1, 0})}}),
      "[?,2]");
  EXPECT_EQ(Infer("ConjugateTranspose", "T=DT_COMPLEX128", "[2,3];[2]"), "[?,?]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
