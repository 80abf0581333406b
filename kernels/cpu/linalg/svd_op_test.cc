// Svd beyond the fixtures (tests/kernels/fixtures/linalg_ops.pbtxt, which compare U and V
// directly): what is unique about a decomposition, checked on matrices large enough for
// BDCSVD's divide and conquer (over 16 columns) and for a parallel batch: U diag(s) V^H
// reproduces the input, U and V have orthonormal columns, s is non-negative and descending.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "Eigen/Core"
#include "Eigen/SVD"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const Matrix>;

class SvdOpTest : public KernelTest {
 protected:
  void Init(bool full_matrices) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Svd")
                           .Input("input")
                           .Attr("T", DT_DOUBLE)
                           .Attr("compute_uv", true)
                           .Attr("full_matrices", full_matrices)
                           .Build())
                    .ok());
  }

  // Runs Svd on `batch` random m x n matrices and checks every decomposition.
  void CheckDecompositions(int64_t batch, int64_t m, int64_t n, bool full_matrices) {
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<double> x(batch * m * n);
    for (double& v : x) v = dist(gen);
    Init(full_matrices);
    AddInputFromArray<double>(TensorShape({batch, m, n}), x);
    ASSERT_TRUE(RunOpKernel().ok());
    const int64_t p = std::min(m, n);
    const int64_t u_cols = full_matrices ? m : p;
    const int64_t v_cols = full_matrices ? n : p;
    const std::vector<double> s = Values<double>(*GetOutput(0));
    const std::vector<double> u = Values<double>(*GetOutput(1));
    const std::vector<double> v = Values<double>(*GetOutput(2));
    for (int64_t b = 0; b < batch; ++b) {
      const ConstMap a(x.data() + b * m * n, m, n);
      const ConstMap ub(u.data() + b * m * u_cols, m, u_cols);
      const ConstMap vb(v.data() + b * n * v_cols, n, v_cols);
      const Eigen::Map<const Eigen::VectorXd> sb(s.data() + b * p, p);
      for (int64_t k = 0; k < p; ++k) {
        EXPECT_GE(sb[k], 0.0);
        if (k > 0) {
          EXPECT_LE(sb[k], sb[k - 1]);
        }
      }
      const Matrix rebuilt = ub.leftCols(p) * sb.asDiagonal() * vb.leftCols(p).adjoint();
      EXPECT_LT((rebuilt - a).cwiseAbs().maxCoeff(), 1e-12) << "matrix " << b;
      EXPECT_LT((ub.adjoint() * ub - Matrix::Identity(u_cols, u_cols)).cwiseAbs().maxCoeff(),
                1e-12);
      EXPECT_LT((vb.adjoint() * vb - Matrix::Identity(v_cols, v_cols)).cwiseAbs().maxCoeff(),
                1e-12);
    }
  }
};

TEST_F(SvdOpTest, ThinDivideAndConquerReproducesTheInput) { CheckDecompositions(3, 40, 30, false); }

TEST_F(SvdOpTest, FullWideReproducesTheInput) { CheckDecompositions(2, 18, 33, true); }

TEST_F(SvdOpTest, LargeBatchOfSmallMatrices) { CheckDecompositions(64, 5, 4, false); }

// Without compute_uv TensorFlow 2.21 returns u and v as unwritten scalars; Sluice's are 0,
// and s holds the singular values compute_uv gives.
TEST_F(SvdOpTest, WithoutVectorsUAndVAreScalarZeros) {
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8.5, 9, -1, 0, 2};
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Svd")
                         .Input("input")
                         .Attr("T", DT_DOUBLE)
                         .Attr("compute_uv", false)
                         .Build())
                  .ok());
  AddInputFromArray<double>(TensorShape({4, 3}), x);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<double> values = Values<double>(*GetOutput(0));
  for (int k = 1; k <= 2; ++k) {
    EXPECT_EQ(GetOutput(k)->shape().DebugString(), "[]");
    EXPECT_EQ(GetOutput(k)->flat<double>()(0), 0.0);
  }
  const Eigen::JacobiSVD<Matrix> reference(ConstMap(x.data(), 4, 3));
  ASSERT_EQ(values.size(), 3u);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(values[k], reference.singularValues()[k], 1e-12);
}

}  // namespace
}  // namespace test
}  // namespace sluice
