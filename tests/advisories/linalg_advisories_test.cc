// Advisories of the matrix ops: MatrixDiagV2/V3, MatrixDiagPartV2/V3, MatrixSetDiagV2/V3 (their
// k, num_rows, num_cols and padding_value inputs read as scalars unchecked),
// MatrixTriangularSolve and Svd (the op under tf.linalg.matrix_rank). Expectations are
// TensorFlow 2.21's, from check_with_tensorflow.py.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

AdvisoryCase MatrixDiag(const char* op, Tensor diagonal, Tensor k, Tensor num_rows, Tensor num_cols,
                        Tensor padding_value) {
  AdvisoryCase c(op);
  const DataType t = diagonal.dtype();
  c.Input(std::move(diagonal))
      .Input(std::move(k))
      .Input(std::move(num_rows))
      .Input(std::move(num_cols))
      .Input(std::move(padding_value));
  c.Attr("T", t);
  return c;
}

TEST(Advisories, Tfsa2021_004_MatrixDiagEmptyPaddingValue) {
  // An empty padding_value was read as its first element.
  for (const char* op : {"MatrixDiagV2", "MatrixDiagV3"}) {
    ExpectFailsBothWays(MatrixDiag(op, Values<float>({}), Scalar<int32_t>(0), Scalar<int32_t>(0),
                                   Scalar<int32_t>(0), Values<float>({})),
                        kInvalid);
  }
}

TEST(Advisories, Tfsa2021_131_MatrixDiagEmptyK) {
  // An empty k (a vector, so of an accepted rank) was read as its first element.
  AdvisoryCase v3 =
      MatrixDiag("MatrixDiagV3", Values<int32_t>({1, 0}), Values<int32_t>({}),
                 Values<int32_t>({1, 2, 3}), Values<int32_t>({4, 5}), Values<int32_t>({}));
  v3.Attr("align", "RIGHT_RIGHT");
  ExpectFailsBothWays(v3, kInvalid);
  ExpectFailsBothWays(MatrixDiag("MatrixDiagV2", Values<int32_t>({1, 0}), Values<int32_t>({}),
                                 Scalar<int32_t>(-1), Scalar<int32_t>(-1), Scalar<int32_t>(0)),
                      kInvalid);
}

AdvisoryCase MatrixDiagPart(const char* op, Tensor input, Tensor k, Tensor padding_value) {
  AdvisoryCase c(op);
  const DataType t = input.dtype();
  c.Input(std::move(input)).Input(std::move(k)).Input(std::move(padding_value));
  c.Attr("T", t);
  return c;
}

TEST(Advisories, Tfsa2021_118_MatrixDiagPartEmptyPaddingValue) {
  // An empty padding_value was read as its first element (a null dereference for an empty one).
  ExpectFailsBothWays(MatrixDiagPart("MatrixDiagPartV2", Values<int32_t>({1, 1}),
                                     Values<int32_t>({1, 1}), Values<int32_t>({})),
                      kInvalid);
  ExpectFailsBothWays(MatrixDiagPart("MatrixDiagPartV3", Values<int32_t>({1, 1, 1, 1}, {2, 2}),
                                     Scalar<int32_t>(0), Values<int32_t>({})),
                      kInvalid);
}

AdvisoryCase MatrixSetDiag(const char* op, Tensor input, Tensor diagonal, Tensor k) {
  AdvisoryCase c(op);
  const DataType t = input.dtype();
  c.Input(std::move(input)).Input(std::move(diagonal)).Input(std::move(k));
  c.Attr("T", t);
  return c;
}

TEST(Advisories, Tfsa2021_132_MatrixSetDiagEmptyK) {
  // An empty k was read as its first element.
  AdvisoryCase v3 = MatrixSetDiag("MatrixSetDiagV3", Values<int32_t>({1, 2, 3}),
                                  Values<int32_t>({1, 1}), Values<int32_t>({}));
  v3.Attr("align", "RIGHT_LEFT");
  ExpectFailsBothWays(v3, kInvalid);
  ExpectFailsBothWays(MatrixSetDiag("MatrixSetDiagV2", Values<int32_t>({1, 1, 1, 1}, {2, 2}),
                                    Values<int32_t>({1, 1}), Values<int32_t>({})),
                      kInvalid);
}

AdvisoryCase TriangularSolve(std::vector<int64_t> matrix, std::vector<int64_t> rhs) {
  AdvisoryCase c("MatrixTriangularSolve");
  c.Input(Zeros(DT_FLOAT, matrix)).Input(Zeros(DT_FLOAT, rhs));
  c.Attr("T", DT_FLOAT).Attr("lower", false).Attr("adjoint", false);
  return c;
}

TEST(Advisories, Tfsa2021_039_MatrixTriangularSolveInvalidShapes) {
  // A failed rank check did not stop the kernel, which then broadcast the batch dimensions of
  // inputs it had refused: an empty [1, 0] matrix with a [0, 1] rhs, and inputs of rank 1.
  ExpectFailsBothWays(TriangularSolve({1, 0}, {0, 1}), kInvalid);
  ExpectFailsBothWays(TriangularSolve({0}, {0}), kInvalid);
}

TEST(Advisories, Tfsa2022_119_SvdEmptyBatch) {
  // tf.linalg.matrix_rank of an empty batch of 1x1 matrices failed a CHECK in the GPU Svd; the
  // CPU kernel gives the empty singular values.
  AdvisoryCase c("Svd");
  c.Input(Zeros(DT_FLOAT, {0, 1, 1}));
  c.Attr("T", DT_FLOAT).Attr("compute_uv", false);
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({0, 1}));
  }
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
