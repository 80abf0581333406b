#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(AddNShapeTest, MergesAllInputs) {
  EXPECT_EQ(Infer("AddN", "T=DT_FLOAT, N=3", "[2,?];[?,3];?"), "[2,3]");
  EXPECT_EQ(Infer("AddN", "T=DT_INT32, N=1", "[4]"), "[4]");
  EXPECT_EQ(Infer("AddN", "T=DT_FLOAT, N=2", "?;?"), "?");
  EXPECT_THAT(Infer("AddN", "T=DT_FLOAT, N=2", "[2,2];[2,3]"),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
}

TEST(SelectShapeTest, ScalarVectorOrSameShapeCondition) {
  EXPECT_EQ(Infer("Select", "T=DT_FLOAT", "[2,3];[2,3];[?,3]"), "[2,3]");
  EXPECT_EQ(Infer("Select", "T=DT_FLOAT", "[];[2,3];[?,3]"), "[2,3]");
  EXPECT_EQ(Infer("Select", "T=DT_FLOAT", "[2];[2,3];[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Select", "T=DT_FLOAT", "?;[?,3];[2,?]"), "[2,3]");
  EXPECT_EQ(Infer("Select", "T=DT_FLOAT", "[];[];[]"), "[]");
}

TEST(SelectShapeTest, RejectsMismatches) {
  EXPECT_THAT(Infer("Select", "T=DT_FLOAT", "[3];[2,3];[2,3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(Infer("Select", "T=DT_FLOAT", "[2];[];[]"),
              IsInvalidArgument("Shapes must be equal rank"));
  EXPECT_THAT(Infer("Select", "T=DT_FLOAT", "[2,2];[2,3];[2,3]"),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
  EXPECT_THAT(Infer("Select", "T=DT_FLOAT", "[];[2];[3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
}

TEST(SelectV2ShapeTest, BroadcastsAllThree) {
  EXPECT_EQ(Infer("SelectV2", "T=DT_FLOAT", "[2,1];[3];[1]"), "[2,3]");
  EXPECT_EQ(Infer("SelectV2", "T=DT_FLOAT", "[];[4];[]"), "[4]");
  EXPECT_EQ(Infer("SelectV2", "T=DT_FLOAT", "?;[4];[]"), "?");
  EXPECT_THAT(Infer("SelectV2", "T=DT_FLOAT", "[2,1];[3];[4]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("SelectV2", "T=DT_FLOAT", "[5];[3];[3]"),
              IsInvalidArgument("Dimensions must be equal"));
}

TEST(CastShapeTest, Unchanged) {
  EXPECT_EQ(Infer("Cast", "SrcT=DT_FLOAT, DstT=DT_INT32", "[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("Cast", "SrcT=DT_BOOL, DstT=DT_HALF, Truncate=true", "?"), "?");
}

TEST(ClipByValueShapeTest, FollowsT) {
  EXPECT_EQ(Infer("ClipByValue", "T=DT_FLOAT", "[2,3];[];[]"), "[2,3]");
  EXPECT_EQ(Infer("ClipByValue", "T=DT_INT32", "[2,3];[2,3];[2,3]"), "[2,3]");
}

TEST(CumsumShapeTest, Unchanged) {
  EXPECT_EQ(Infer("Cumsum", "T=DT_FLOAT", "[2,3];[]"), "[2,3]");
  EXPECT_EQ(Infer("Cumsum", "T=DT_FLOAT, exclusive=true, reverse=true", "[2,3];[]", {{1, Int(1)}}),
            "[2,3]");
  EXPECT_EQ(Infer("Cumsum", "T=DT_INT64, Tidx=DT_INT64", "?;[]"), "?");
}

TEST(RangeShapeTest, KnownBounds) {
  EXPECT_EQ(Infer("Range", "", "[];[];[]", {{0, Int(0)}, {1, Int(10)}, {2, Int(3)}}), "[4]");
  EXPECT_EQ(Infer("Range", "", "[];[];[]", {{0, Int(10)}, {1, Int(0)}, {2, Int(-3)}}), "[4]");
  EXPECT_EQ(Infer("Range", "", "[];[];[]", {{0, Int(5)}, {1, Int(5)}, {2, Int(1)}}), "[0]");
  EXPECT_EQ(
      Infer("Range", "Tidx=DT_INT64", "[];[];[]", {{0, Int64(-5)}, {1, Int64(5)}, {2, Int64(2)}}),
      "[5]");
  EXPECT_EQ(Infer("Range", "Tidx=DT_FLOAT", "[];[];[]",
                  {{0, Scalar<float>(0.0f)}, {1, Scalar<float>(1.0f)}, {2, Scalar<float>(0.3f)}}),
            "[4]");
  EXPECT_EQ(Infer("Range", "Tidx=DT_DOUBLE", "[];[];[]",
                  {{0, Scalar<double>(1.5)}, {1, Scalar<double>(-1.5)}, {2, Scalar<double>(-1.0)}}),
            "[3]");
}

TEST(RangeShapeTest, UnknownBounds) {
  EXPECT_EQ(Infer("Range", "", "[];[];[]"), "[?]");
  EXPECT_EQ(Infer("Range", "", "[];[];[]", {{0, Int(0)}, {1, Int(10)}}), "[?]");
  EXPECT_EQ(Infer("Range", "Tidx=DT_FLOAT", "?;?;?"), "[?]");
}

TEST(RangeShapeTest, RejectsBadBounds) {
  EXPECT_THAT(Infer("Range", "", "[];[];[]", {{0, Int(10)}, {1, Int(0)}, {2, Int(1)}}),
              IsInvalidArgument("Requires start <= limit when delta > 0: 10/0"));
  EXPECT_THAT(Infer("Range", "", "[];[];[]", {{0, Int(0)}, {1, Int(10)}, {2, Int(-1)}}),
              IsInvalidArgument("Requires start >= limit when delta < 0: 0/10"));
  EXPECT_THAT(Infer("Range", "", "[];[];[]", {{0, Int(0)}, {1, Int(10)}, {2, Int(0)}}),
              IsInvalidArgument("Requires delta != 0"));
  EXPECT_THAT(Infer("Range", "", "[1];[];[]"), IsInvalidArgument("for 'start'"));
  EXPECT_THAT(Infer("Range", "", "[];[];[2]"), IsInvalidArgument("for 'delta'"));
}

TEST(RangeShapeTest, RejectsLengthsBeyondInt64) {
  EXPECT_THAT(Infer("Range", "Tidx=DT_INT64", "[];[];[]",
                    {{0, Int64(-(int64_t{1} << 62))}, {1, Int64(int64_t{1} << 62)}, {2, Int64(1)}}),
              IsInvalidArgument("Requires ((limit - start) / delta) <= 9223372036854775807"));
  EXPECT_THAT(
      Infer("Range", "Tidx=DT_FLOAT", "[];[];[]",
            {{0, Scalar<float>(0.0f)}, {1, Scalar<float>(1e30f)}, {2, Scalar<float>(1e-30f)}}),
      IsInvalidArgument("Requires ((limit - start) / delta)"));
}

// Issue 25: counts of exactly 2**63 and more, in every Tidx, are INVALID_ARGUMENT as in
// TensorFlow (its shape function lets the float ones through, and its kernel then fails
// INVALID_ARGUMENT too); neither a wrapped count nor 2**63 cast to int64 reaches a shape.
TEST(RangeShapeTest, RejectsCountsOf2To63AndMore) {
  const char kMessage[] = "Requires ((limit - start) / delta) <= 9223372036854775807";
  EXPECT_THAT(Infer("Range", "Tidx=DT_INT64", "[];[];[]",
                    {{0, Int64(INT64_MIN)}, {1, Int64(INT64_MAX)}, {2, Int64(1)}}),
              IsInvalidArgument(kMessage));
  EXPECT_THAT(Infer("Range", "Tidx=DT_INT64", "[];[];[]",
                    {{0, Int64(INT64_MAX)}, {1, Int64(INT64_MIN)}, {2, Int64(-1)}}),
              IsInvalidArgument(kMessage));
  EXPECT_THAT(Infer("Range", "Tidx=DT_FLOAT", "[];[];[]",
                    {{0, Scalar<float>(0.0f)},
                     {1, Scalar<float>(9223372036854775808.0f)},
                     {2, Scalar<float>(1.0f)}}),
              IsInvalidArgument(kMessage));
  EXPECT_THAT(Infer("Range", "Tidx=DT_DOUBLE", "[];[];[]",
                    {{0, Scalar<double>(0.0)},
                     {1, Scalar<double>(9223372036854775808.0)},
                     {2, Scalar<double>(1.0)}}),
              IsInvalidArgument(kMessage));
  // The largest double below 2**63 still fits.
  EXPECT_EQ(Infer("Range", "Tidx=DT_DOUBLE", "[];[];[]",
                  {{0, Scalar<double>(0.0)},
                   {1, Scalar<double>(9223372036854774784.0)},
                   {2, Scalar<double>(1.0)}}),
            "[9223372036854774784]");
}

TEST(RangeShapeTest, ExtremeIntegerBounds) {
  EXPECT_EQ(Infer("Range", "Tidx=DT_INT64", "[];[];[]",
                  {{0, Int64(INT64_MIN)}, {1, Int64(INT64_MAX)}, {2, Int64(INT64_MAX)}}),
            "[3]");
  EXPECT_EQ(Infer("Range", "", "[];[];[]",
                  {{0, Int(INT32_MAX)}, {1, Int(INT32_MIN)}, {2, Int(INT32_MIN)}}),
            "[2]");
}

TEST(MatMulShapeTest, Transposes) {
  EXPECT_EQ(Infer("MatMul", "T=DT_FLOAT", "[2,3];[3,4]"), "[2,4]");
  EXPECT_EQ(Infer("MatMul", "T=DT_FLOAT, transpose_a=true", "[3,2];[3,4]"), "[2,4]");
  EXPECT_EQ(Infer("MatMul", "T=DT_FLOAT, transpose_b=true", "[2,3];[4,3]"), "[2,4]");
  EXPECT_EQ(Infer("MatMul", "T=DT_FLOAT", "[?,3];[?,?]"), "[?,?]");
  EXPECT_EQ(Infer("MatMul", "T=DT_FLOAT", "?;?"), "[?,?]");
  EXPECT_THAT(Infer("MatMul", "T=DT_FLOAT", "[2,3];[4,5]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 4"));
  EXPECT_THAT(Infer("MatMul", "T=DT_FLOAT", "[2,3,4];[4,5]"),
              IsInvalidArgument("Shape must be rank 2 but is rank 3"));
}

TEST(BatchMatMulShapeTest, BatchDims) {
  EXPECT_EQ(Infer("BatchMatMul", "T=DT_FLOAT", "[5,2,3];[5,3,4]"), "[5,2,4]");
  EXPECT_EQ(Infer("BatchMatMul", "T=DT_FLOAT, adj_x=true, adj_y=true", "[5,3,2];[?,4,3]"),
            "[5,2,4]");
  EXPECT_THAT(Infer("BatchMatMul", "T=DT_FLOAT", "[5,2,3];[1,3,4]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_EQ(Infer("BatchMatMulV3", "Ta=DT_INT8, Tb=DT_UINT8, Tout=DT_INT32", "[5,1,2,3];[4,3,6]"),
            "[5,4,2,6]");
  EXPECT_EQ(
      Infer("BatchMatMulV3", "Ta=DT_FLOAT, Tb=DT_FLOAT, Tout=DT_FLOAT, adj_x=true", "[4,3,2];?"),
      "?");
  EXPECT_THAT(Infer("BatchMatMulV3", "Ta=DT_FLOAT, Tb=DT_FLOAT, Tout=DT_FLOAT", "[5,2,3];[4,3,4]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_EQ(Infer("BatchMatMulV2", "T=DT_FLOAT", "[5,1,2,3];[4,3,6]"), "[5,4,2,6]");
  EXPECT_EQ(Infer("BatchMatMulV2", "T=DT_FLOAT, adj_y=true", "[2,3];[7,6,3]"), "[7,2,6]");
  EXPECT_THAT(Infer("BatchMatMulV2", "T=DT_FLOAT", "[5,2,3];[4,3,4]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("BatchMatMulV2", "T=DT_FLOAT", "[3];[3,4]"),
              IsInvalidArgument("Shape must be at least rank 2 but is rank 1"));
}

TEST(EinsumShapeTest, ContractionsAndTransposes) {
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,jk->ik'", "[2,3];[3,5]"), "[2,5]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,jk->ik'", "[2,?];[?,5]"), "[2,5]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='bij,bjk->bik'", "[4,2,3];[?,3,5]"),
            "[4,2,5]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='abc,cd->abd'", "[2,?,4];[4,5]"), "[2,?,5]");
  EXPECT_EQ(
      Infer("Einsum", "T=DT_FLOAT, N=2, equation='bhqd,bhkd->bhqk'", "[2,4,8,16];[2,4,10,16]"),
      "[2,4,8,10]");
  EXPECT_EQ(Infer("Einsum", "T=DT_HALF, N=2, equation='bhqk,bhkd->bhqd'", "[2,4,8,10];[2,4,10,16]"),
            "[2,4,8,16]");
  EXPECT_EQ(Infer("Einsum", "T=DT_INT32, N=2, equation='aecd,abcd->acbe'", "[2,7,4,8];[2,5,4,8]"),
            "[2,4,5,7]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ij->ji'", "[2,3]"), "[3,2]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='i,j->ij'", "[2];[3]"), "[2,3]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,ij->'", "[2,3];[2,3]"), "[]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='->'", "[]"), "[]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,jk->ik'", "[0,3];[3,5]"), "[0,5]");
}

TEST(EinsumShapeTest, RepeatedAndSummedLabels) {
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ii->i'", "[3,3]"), "[3]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ii->i'", "[?,3]"), "[3]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ii->'", "[4,4]"), "[]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='i->ii'", "[3]"), "[3,3]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ijk->k'", "[2,3,4]"), "[4]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,jk->i'", "[2,3];[3,4]"), "[2]");
}

TEST(EinsumShapeTest, Ellipsis) {
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='...ij,...jk->...ik'", "[2,1,2,3];[5,3,4]"),
            "[2,5,2,4]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='...ij,...jk->...ik'", "[2,3];[3,4]"),
            "[2,4]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='...ij,jk->...ik'", "[7,?,2,3];[3,4]"),
            "[7,?,2,4]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='i...j->j...i'", "[2,5,6,3]"), "[3,5,6,2]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ij->...ij'", "[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='...ij->...'", "[4,2,3]"), "[4]");
}

TEST(EinsumShapeTest, UnknownRanks) {
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,jk->ik'", "?;[3,5]"), "[?,5]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='...ij,...jk->...ik'", "?;[5,3,4]"), "?");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=2, equation='...ij,jk->ik'", "?;[3,4]"), "[?,4]");
  EXPECT_EQ(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ij->ji'", "?"), "[?,?]");
}

TEST(EinsumShapeTest, RejectsBadEquations) {
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,jk'", "[2,3];[3,5]"),
              IsInvalidArgument("Expecting exactly one '->' in einsum equation: ij,jk"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ij->ji->ij'", "[2,3]"),
              IsInvalidArgument("Expecting exactly one '->'"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=3, equation='ij,jk,kl->il'", "[2,3];[3,4];[4,5]"),
              IsInvalidArgument("Expecting 1 or 2 input subscripts"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ij,jk->ik'", "[2,3]"),
              IsInvalidArgument("Expected 2 inputs for equation ij,jk->ik but got: 1"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij->ji'", "[2,3];[2,3]"),
              IsInvalidArgument("Expected 1 inputs"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ij->ik'", "[2,3]"),
              IsInvalidArgument("has label 'k' which is not present in the input subscripts"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='i.j->ij'", "[2,3]"),
              IsInvalidArgument("Expected at most one ellipsis (...), but found 1 periods"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='..i.->i'", "[2,3]"),
              IsInvalidArgument("Periods found outside of ellipsis"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='...i...->i'", "[2,3]"),
              IsInvalidArgument("found 6 periods"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ij->i..'", "[2,3]"),
              IsInvalidArgument("found 2 periods"));
}

TEST(EinsumShapeTest, RejectsMismatchedShapes) {
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,jk->ik'", "[2,3];[4,5]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 4"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ii->i'", "[2,3]"),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 3"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='ijk->k'", "[2,3]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2 for input 0"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=2, equation='ij,...jk->ik'", "[2,3];[3]"),
              IsInvalidArgument("Shape must be at least rank 2 but is rank 1 for input 1"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=1, equation='...ij->ij'", "[4,2,3]"),
              IsInvalidArgument("without ellipsis (...) in the output subscripts"));
  EXPECT_THAT(Infer("Einsum", "T=DT_FLOAT, N=2, equation='...ij,...jk->...ik'", "[2,2,3];[5,3,4]"),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 5"));
}

TEST(CumprodShapeTest, OutputIsTheInput) {
  EXPECT_EQ(Infer("Cumprod", "T=DT_FLOAT", "[2,3];[]"), "[2,3]");
  EXPECT_EQ(Infer("Cumprod", "T=DT_INT64, Tidx=DT_INT64, exclusive=true", "?;[]"), "?");
}

TEST(BincountShapeTest, SizeGivesTheLength) {
  EXPECT_EQ(Infer("Bincount", "T=DT_FLOAT", "[5];[];[0]", {{1, Int(4)}}), "[4]");
  EXPECT_EQ(Infer("Bincount", "T=DT_INT32", "[2,3];[];[2,3]"), "[?]");
  EXPECT_EQ(Infer("Bincount", "T=DT_FLOAT", "?;[];?", {{1, Int(0)}}), "[0]");
  EXPECT_THAT(Infer("Bincount", "T=DT_INT32", "[5];[1];[0]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("Bincount", "T=DT_DOUBLE", "[5];[];[0]", {{1, Int(-2)}}),
              IsInvalidArgument("size (-2) must be non-negative"));
}

TEST(DenseBincountShapeTest, VectorOrRows) {
  EXPECT_EQ(Infer("DenseBincount", "Tidx=DT_INT32, T=DT_FLOAT", "[5];[];[0]", {{1, Int(4)}}),
            "[4]");
  EXPECT_EQ(Infer("DenseBincount", "Tidx=DT_INT64, T=DT_INT64", "[3,5];[];[0]", {{1, Int64(6)}}),
            "[3,6]");
  EXPECT_EQ(Infer("DenseBincount", "Tidx=DT_INT64, T=DT_FLOAT", "[?,4];[];[0]", {{1, Int64(3)}}),
            "[?,3]");
  EXPECT_EQ(Infer("DenseBincount", "Tidx=DT_INT32, T=DT_FLOAT", "[];[];[0]", {{1, Int(3)}}), "[3]");
  EXPECT_EQ(Infer("DenseBincount", "Tidx=DT_INT32, T=DT_FLOAT", "[3,5];[];[0]"), "[?,?]");
  EXPECT_EQ(Infer("DenseBincount", "Tidx=DT_INT32, T=DT_FLOAT", "[5];?;[0]"), "[?]");
  EXPECT_EQ(Infer("DenseBincount", "Tidx=DT_INT32, T=DT_FLOAT", "[];[];[0]"), "[]");
  EXPECT_EQ(Infer("DenseBincount", "Tidx=DT_INT32, T=DT_FLOAT", "?;[];[0]", {{1, Int(4)}}), "?");
  EXPECT_THAT(Infer("DenseBincount", "Tidx=DT_INT32, T=DT_FLOAT", "[1,2,3];[];[0]"),
              IsInvalidArgument("Shape must be at most rank 2 but is rank 3"));
  EXPECT_THAT(Infer("DenseBincount", "Tidx=DT_INT32, T=DT_INT32", "[5];[];[0]", {{1, Int(-1)}}),
              IsInvalidArgument("size (-1) must be non-negative"));
}

TEST(LinSpaceShapeTest, VectorOfNum) {
  EXPECT_EQ(Infer("LinSpace", "T=DT_FLOAT", "[];[];[]", {{2, Int(5)}}), "[5]");
  EXPECT_EQ(Infer("LinSpace", "T=DT_DOUBLE, Tidx=DT_INT64", "[];[];[]", {{2, Int64(1)}}), "[1]");
  EXPECT_EQ(Infer("LinSpace", "T=DT_FLOAT", "[];[];[]"), "[?]");
  EXPECT_EQ(Infer("LinSpace", "T=DT_FLOAT", "?;?;?"), "[?]");
  EXPECT_THAT(Infer("LinSpace", "T=DT_FLOAT", "[];[];[]", {{2, Int(0)}}),
              IsInvalidArgument("Requires num > 0: 0"));
  EXPECT_THAT(Infer("LinSpace", "T=DT_FLOAT", "[1];[];[]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1 for 'start'"));
  EXPECT_THAT(Infer("LinSpace", "T=DT_FLOAT", "[];[2];[]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1 for 'stop'"));
  EXPECT_THAT(Infer("LinSpace", "T=DT_FLOAT", "[];[];[3]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1 for 'num'"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
