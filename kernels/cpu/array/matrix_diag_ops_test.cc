// The diagonal kernels beyond the fixtures (tests/kernels/fixtures/matrix_diag.pbtxt): shapes
// large enough for the parallel split checked against plain loops, and a band with a diagonal of
// too low a rank, which TensorFlow's kernel reads past and Sluice rejects.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

constexpr int64_t kBatch = 12, kRows = 50, kCols = 70;

std::vector<int32_t> Iota(int64_t n) {
  std::vector<int32_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>(i + 1);
  return v;
}

class MatrixDiagOpsTest : public KernelTest {
 protected:
  void Init(const std::string& op, const std::vector<std::string>& inputs,
            const std::string& align = "") {
    NodeDefBuilder b("n", op);
    for (const std::string& input : inputs) b.Input(input);
    b.Attr("T", DT_INT32);
    if (!align.empty()) b.Attr("align", align);
    ASSERT_TRUE(InitOp(b.Build()).ok());
  }
};

// Band [-2, 3] of [kRows, kCols] matrices, left-aligned superdiagonals and right-aligned
// subdiagonals (LEFT_RIGHT): diagonal d's row of the stacked form, element n.
int64_t MaxLen() { return std::min(kRows, kCols); }
bool InBand(int64_t d) { return d >= -2 && d <= 3; }
int64_t Length(int64_t d) {
  return std::min(kRows + std::min<int64_t>(0, d), kCols - std::max<int64_t>(0, d));
}
int64_t Offset(int64_t d) { return d >= 0 ? 0 : MaxLen() - Length(d); }

TEST_F(MatrixDiagOpsTest, LargeDiagPartMatchesAPlainLoop) {
  Init("MatrixDiagPartV3", {"input", "k", "padding_value"}, "LEFT_RIGHT");
  const std::vector<int32_t> x = Iota(kBatch * kRows * kCols);
  AddInputFromArray<int32_t>(TensorShape({kBatch, kRows, kCols}), x);
  AddInputFromArray<int32_t>(TensorShape({2}), {-2, 3});
  AddInputFromArray<int32_t>(TensorShape({}), {-1});
  ASSERT_TRUE(RunOpKernel().ok());
  const int64_t max_len = MaxLen();
  std::vector<int32_t> want(kBatch * 6 * max_len, -1);
  for (int64_t b = 0; b < kBatch; ++b) {
    for (int64_t d = 3; d >= -2; --d) {
      for (int64_t n = 0; n < Length(d); ++n) {
        const int64_t i = n + std::max<int64_t>(0, -d), j = n + std::max<int64_t>(0, d);
        want[(b * 6 + (3 - d)) * max_len + Offset(d) + n] = x[(b * kRows + i) * kCols + j];
      }
    }
  }
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), want);
}

TEST_F(MatrixDiagOpsTest, LargeDiagMatchesAPlainLoop) {
  Init("MatrixDiagV3", {"diagonal", "k", "num_rows", "num_cols", "padding_value"}, "LEFT_RIGHT");
  const int64_t max_len = MaxLen();
  const std::vector<int32_t> diag = Iota(kBatch * 6 * max_len);
  AddInputFromArray<int32_t>(TensorShape({kBatch, 6, max_len}), diag);
  AddInputFromArray<int32_t>(TensorShape({2}), {-2, 3});
  AddInputFromArray<int32_t>(TensorShape({}), {kRows});
  AddInputFromArray<int32_t>(TensorShape({}), {kCols});
  AddInputFromArray<int32_t>(TensorShape({}), {-5});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int32_t> want(kBatch * kRows * kCols, -5);
  for (int64_t b = 0; b < kBatch; ++b) {
    for (int64_t i = 0; i < kRows; ++i) {
      for (int64_t j = 0; j < kCols; ++j) {
        const int64_t d = j - i;
        if (!InBand(d)) continue;
        const int64_t n = std::min(i, j);
        want[(b * kRows + i) * kCols + j] = diag[(b * 6 + (3 - d)) * max_len + Offset(d) + n];
      }
    }
  }
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), want);
}

TEST_F(MatrixDiagOpsTest, LargeSetDiagWritesOnlyTheBand) {
  Init("MatrixSetDiagV3", {"input", "diagonal", "k"}, "LEFT_RIGHT");
  const std::vector<int32_t> x = Iota(kBatch * kRows * kCols);
  const int64_t max_len = MaxLen();
  std::vector<int32_t> diag(kBatch * 6 * max_len);
  for (size_t i = 0; i < diag.size(); ++i) diag[i] = -static_cast<int32_t>(i) - 1;
  AddInputFromArray<int32_t>(TensorShape({kBatch, kRows, kCols}), x);
  AddInputFromArray<int32_t>(TensorShape({kBatch, 6, max_len}), diag);
  AddInputFromArray<int32_t>(TensorShape({2}), {-2, 3});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int32_t> want = x;
  for (int64_t b = 0; b < kBatch; ++b) {
    for (int64_t i = 0; i < kRows; ++i) {
      for (int64_t j = 0; j < kCols; ++j) {
        const int64_t d = j - i;
        if (!InBand(d)) continue;
        want[(b * kRows + i) * kCols + j] =
            diag[(b * 6 + (3 - d)) * max_len + Offset(d) + std::min(i, j)];
      }
    }
  }
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), want);
}

TEST_F(MatrixDiagOpsTest, LargeDiagOfAVector) {
  Init("Diag", {"diagonal"});
  const int64_t n = 200;
  const std::vector<int32_t> x = Iota(n);
  AddInputFromArray<int32_t>(TensorShape({n}), x);
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int32_t> want(n * n, 0);
  for (int64_t i = 0; i < n; ++i) want[i * n + i] = x[i];
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), want);
}

TEST_F(MatrixDiagOpsTest, SetDiagBandNeedsTheDiagonalsDimension) {
  Init("MatrixSetDiagV3", {"input", "diagonal", "k"});
  AddInputFromArray<int32_t>(TensorShape({2, 2, 3, 3}), Iota(36));
  AddInputFromArray<int32_t>(TensorShape({3}), {1, 2, 3});
  AddInputFromArray<int32_t>(TensorShape({2}), {0, 1});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(status.message()).find("The number of diagonals provided in `diag`"),
            std::string::npos)
      << status;
}

}  // namespace
}  // namespace test
}  // namespace sluice
