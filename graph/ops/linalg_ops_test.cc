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

}  // namespace
}  // namespace ops_test
}  // namespace sluice
