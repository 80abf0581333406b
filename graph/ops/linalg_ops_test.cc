#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(LinalgShapeTest, SquareUnchanged) {
  EXPECT_EQ(Infer("MatrixInverse", "T=DT_FLOAT", "[3,3]"), "[3,3]");
  EXPECT_EQ(Infer("MatrixInverse", "T=DT_DOUBLE, adjoint=true", "[2,?,4]"), "[2,4,4]");
  EXPECT_EQ(Infer("MatrixInverse", "T=DT_FLOAT", "?"), "?");
  EXPECT_EQ(Infer("Cholesky", "T=DT_COMPLEX64", "[5,?,?]"), "[5,?,?]");
  EXPECT_EQ(Infer("Cholesky", "T=DT_FLOAT", "[0,0]"), "[0,0]");
  EXPECT_THAT(Infer("MatrixInverse", "T=DT_FLOAT", "[2,3]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("Cholesky", "T=DT_FLOAT", "[3]"), IsInvalidArgument("must be at least rank 2"));
}

TEST(LinalgShapeTest, Determinants) {
  EXPECT_EQ(Infer("MatrixDeterminant", "T=DT_FLOAT", "[3,3]"), "[]");
  EXPECT_EQ(Infer("MatrixDeterminant", "T=DT_DOUBLE", "[2,5,?,4]"), "[2,5]");
  EXPECT_EQ(Infer("MatrixDeterminant", "T=DT_FLOAT", "?"), "?");
  EXPECT_EQ(Infer("LogMatrixDeterminant", "T=DT_FLOAT", "[7,2,2]"), "[7];[7]");
  EXPECT_EQ(Infer("LogMatrixDeterminant", "T=DT_COMPLEX128", "?"), "?;?");
  EXPECT_THAT(Infer("MatrixDeterminant", "T=DT_FLOAT", "[2,3]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("LogMatrixDeterminant", "T=DT_FLOAT", "[3]"),
              IsInvalidArgument("must be at least rank 2"));
}

TEST(LinalgShapeTest, MatrixSolve) {
  EXPECT_EQ(Infer("MatrixSolve", "T=DT_FLOAT", "[3,3];[3,2]"), "[3,2]");
  EXPECT_EQ(Infer("MatrixSolve", "T=DT_FLOAT, adjoint=true", "[4,?,?];[?,3,5]"), "[4,3,5]");
  EXPECT_EQ(Infer("MatrixSolve", "T=DT_DOUBLE", "?;[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("MatrixSolve", "T=DT_DOUBLE", "?;?"), "?");
  EXPECT_THAT(Infer("MatrixSolve", "T=DT_FLOAT", "[3,3];[4,2]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("MatrixSolve", "T=DT_FLOAT", "[2,3,3];[1,3,2]"),
              IsInvalidArgument("in both shapes must be equal"));
  EXPECT_THAT(Infer("MatrixSolve", "T=DT_FLOAT", "[2,3,3];[3,2]"),
              IsInvalidArgument("Shapes must be equal rank"));
  EXPECT_THAT(Infer("MatrixSolve", "T=DT_FLOAT", "[3,3];[3]"),
              IsInvalidArgument("must be at least rank 2"));
}

TEST(LinalgShapeTest, MatrixSolveLs) {
  EXPECT_EQ(Infer("MatrixSolveLs", "T=DT_FLOAT", "[5,3];[5,2];[]"), "[3,2]");
  EXPECT_EQ(Infer("MatrixSolveLs", "T=DT_DOUBLE, fast=false", "[4,2,6];[?,?,1];?"), "[4,6,1]");
  EXPECT_EQ(Infer("MatrixSolveLs", "T=DT_FLOAT", "?;?;[]"), "?");
  EXPECT_THAT(Infer("MatrixSolveLs", "T=DT_FLOAT", "[5,3];[5,2];[1]"),
              IsInvalidArgument("must be rank 0"));
  EXPECT_THAT(Infer("MatrixSolveLs", "T=DT_FLOAT", "[5,3];[4,2];[]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("MatrixSolveLs", "T=DT_FLOAT", "[5];[5,2];[]"),
              IsInvalidArgument("must be at least rank 2"));
}

TEST(LinalgShapeTest, MatrixTriangularSolveBroadcasts) {
  EXPECT_EQ(Infer("MatrixTriangularSolve", "T=DT_FLOAT", "[3,3];[3,2]"), "[3,2]");
  EXPECT_EQ(Infer("MatrixTriangularSolve", "T=DT_FLOAT", "[2,1,3,3];[4,3,2]"), "[2,4,3,2]");
  EXPECT_EQ(Infer("MatrixTriangularSolve", "T=DT_DOUBLE, lower=false", "[3,3];[5,3,1]"), "[5,3,1]");
  EXPECT_EQ(Infer("MatrixTriangularSolve", "T=DT_FLOAT, adjoint=true", "[?,?];[?,?]"), "[?,?]");
  EXPECT_EQ(Infer("MatrixTriangularSolve", "T=DT_FLOAT", "?;[2,4,3]"), "?");
  EXPECT_THAT(Infer("MatrixTriangularSolve", "T=DT_FLOAT", "[2,3,3];[3,3,1]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("MatrixTriangularSolve", "T=DT_FLOAT", "[3,3];[4,1]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("MatrixTriangularSolve", "T=DT_FLOAT", "[3,4];[4,1]"),
              IsInvalidArgument("Dimensions must be equal"));
}

TEST(LinalgShapeTest, Qr) {
  EXPECT_EQ(Infer("Qr", "T=DT_FLOAT", "[5,3]"), "[5,3];[3,3]");
  EXPECT_EQ(Infer("Qr", "T=DT_FLOAT, full_matrices=true", "[5,3]"), "[5,5];[5,3]");
  EXPECT_EQ(Infer("Qr", "T=DT_DOUBLE", "[2,3,4]"), "[2,3,3];[2,3,4]");
  EXPECT_EQ(Infer("Qr", "T=DT_DOUBLE", "[2,?,4]"), "[2,?,?];[2,?,4]");
  EXPECT_EQ(Infer("Qr", "T=DT_COMPLEX64, full_matrices=true", "[?,3]"), "[?,?];[?,3]");
  EXPECT_EQ(Infer("Qr", "T=DT_FLOAT", "?"), "?;?");
  EXPECT_THAT(Infer("Qr", "T=DT_FLOAT", "[3]"), IsInvalidArgument("must be at least rank 2"));
}

TEST(LinalgShapeTest, SelfAdjointEigV2) {
  EXPECT_EQ(Infer("SelfAdjointEigV2", "T=DT_FLOAT", "[3,3]"), "[3];[3,3]");
  EXPECT_EQ(Infer("SelfAdjointEigV2", "T=DT_DOUBLE, compute_v=false", "[2,4,4]"), "[2,4];[0]");
  EXPECT_EQ(Infer("SelfAdjointEigV2", "T=DT_FLOAT", "[2,?,5]"), "[2,5];[2,5,5]");
  EXPECT_EQ(Infer("SelfAdjointEigV2", "T=DT_FLOAT", "?"), "?;?");
  EXPECT_THAT(Infer("SelfAdjointEigV2", "T=DT_FLOAT", "[2,3]"),
              IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("SelfAdjointEigV2", "T=DT_FLOAT", "[3]"),
              IsInvalidArgument("must be at least rank 2"));
}

TEST(LinalgShapeTest, Svd) {
  EXPECT_EQ(Infer("Svd", "T=DT_FLOAT", "[5,3]"), "[3];[5,3];[3,3]");
  EXPECT_EQ(Infer("Svd", "T=DT_FLOAT, full_matrices=true", "[5,3]"), "[3];[5,5];[3,3]");
  EXPECT_EQ(Infer("Svd", "T=DT_DOUBLE, compute_uv=false", "[2,3,4]"), "[2,3];[0];[0]");
  EXPECT_EQ(Infer("Svd", "T=DT_COMPLEX128", "[7,2,?]"), "[7,?];[7,2,?];[7,?,?]");
  EXPECT_EQ(Infer("Svd", "T=DT_FLOAT", "?"), "?;?;?");
  EXPECT_THAT(Infer("Svd", "T=DT_FLOAT", "[3]"), IsInvalidArgument("must be at least rank 2"));
}

TEST(LinalgShapeTest, Lu) {
  EXPECT_EQ(Infer("Lu", "T=DT_FLOAT", "[3,3]"), "[3,3];[3]");
  EXPECT_EQ(Infer("Lu", "T=DT_DOUBLE, output_idx_type=DT_INT64", "[2,?,4]"), "[2,4,4];[2,4]");
  EXPECT_EQ(Infer("Lu", "T=DT_FLOAT", "?"), "?;?");
  EXPECT_THAT(Infer("Lu", "T=DT_FLOAT", "[2,3]"), IsInvalidArgument("Dimensions must be equal"));
  EXPECT_THAT(Infer("Lu", "T=DT_FLOAT", "[3]"), IsInvalidArgument("must be at least rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
