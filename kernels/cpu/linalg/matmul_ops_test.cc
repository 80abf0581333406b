// MatMul / BatchMatMulV2 kernels: what the TensorFlow fixtures cannot show. Large products
// (oneDNN's parallel kernels and the split plain loop) against a direct sum, and a cached
// primitive reused by a second run.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

template <typename T>
std::vector<T> Random(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-8, 8);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(dist(gen));
  return v;
}

class MatMulOpsTest : public KernelTest {
 protected:
  // [b, m, k] x [k, n] with y broadcast over the batch, against a direct sum. Small integer
  // values keep every float sum exact.
  template <typename T>
  void CheckBroadcastProduct(int64_t b, int64_t m, int64_t k, int64_t n);
};

template <typename T>
void MatMulOpsTest::CheckBroadcastProduct(int64_t b, int64_t m, int64_t k, int64_t n) {
  const std::vector<T> x = Random<T>(b * m * k, 3);
  const std::vector<T> y = Random<T>(k * n, 4);
  AddInputFromArray<T>(TensorShape({b, m, k}), x);
  AddInputFromArray<T>(TensorShape({k, n}), y);
  const absl::Status status = RunOpKernel();
  ASSERT_TRUE(status.ok()) << status;
  const std::vector<T> got = Values<T>(*GetOutput(0));
  ASSERT_EQ(got.size(), static_cast<size_t>(b * m * n));
  for (int64_t bi = 0; bi < b; ++bi) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < k; ++l) {
          sum += static_cast<double>(x[(bi * m + i) * k + l]) * static_cast<double>(y[l * n + j]);
        }
        ASSERT_EQ(static_cast<double>(got[(bi * m + i) * n + j]), sum);
      }
    }
  }
}

TEST_F(MatMulOpsTest, LargeFloatBroadcast) {
  ASSERT_TRUE(
      InitOp(
          NodeDefBuilder("mm", "BatchMatMulV2").Input("x").Input("y").Attr("T", DT_FLOAT).Build())
          .ok());
  CheckBroadcastProduct<float>(3, 70, 130, 90);
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("mm", "MatMul").Input("x").Input("y").Attr("T", DT_FLOAT).Build())
          .ok());
  AddInputFromArray<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<float>(TensorShape({3, 1}), {1, 1, 1});
  // A second run reuses the cached primitive.
  for (int run = 0; run < 2; ++run) {
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{6, 15}));
  }
}

TEST_F(MatMulOpsTest, ReadOnlyWeightsWithRowsOf4KiBRunOnAPaddedCopy) {
  // y [k, 1024] read-only (a Const's value): the kernel multiplies a copy with padded rows.
  // Small integers keep every float sum exact, so the result must equal the direct sum.
  constexpr int64_t kM = 20, kK = 24, kN = 1024;
  ASSERT_TRUE(
      InitOp(
          NodeDefBuilder("mm", "BatchMatMulV2").Input("x").Input("y").Attr("T", DT_FLOAT).Build())
          .ok());
  const std::vector<float> x = Random<float>(2 * kM * kK, 7);
  const std::vector<float> y = Random<float>(kK * kN, 8);
  Tensor weights = MakeTensor<float>(TensorShape({kK, kN}), y);
  weights.MarkReadOnly();
  AddInputFromArray<float>(TensorShape({2, kM, kK}), x);
  AddInput(weights);
  for (int run = 0; run < 2; ++run) {  // the second run reuses the copy
    const absl::Status status = RunOpKernel();
    ASSERT_TRUE(status.ok()) << status;
    const std::vector<float> got = Values<float>(*GetOutput(0));
    ASSERT_EQ(got.size(), static_cast<size_t>(2 * kM * kN));
    for (int64_t i = 0; i < 2 * kM; ++i) {
      for (int64_t j = 0; j < kN; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < kK; ++l) sum += double(x[i * kK + l]) * y[l * kN + j];
        ASSERT_EQ(got[i * kN + j], sum) << "row " << i << " col " << j << " run " << run;
      }
    }
  }
}

TEST_F(MatMulOpsTest, LargeInt64SplitsRows) {
  ASSERT_TRUE(
      InitOp(
          NodeDefBuilder("mm", "BatchMatMulV2").Input("x").Input("y").Attr("T", DT_INT64).Build())
          .ok());
  CheckBroadcastProduct<int64_t>(4, 64, 96, 48);
}

TEST_F(MatMulOpsTest, LargeMatMulDouble) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("mm", "BatchMatMul").Input("x").Input("y").Attr("T", DT_DOUBLE).Build())
          .ok());
  const std::vector<double> x = Random<double>(2 * 50 * 80, 5);
  const std::vector<double> y = Random<double>(2 * 80 * 60, 6);
  AddInputFromArray<double>(TensorShape({2, 50, 80}), x);
  AddInputFromArray<double>(TensorShape({2, 80, 60}), y);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<double> got = Values<double>(*GetOutput(0));
  double sum = 0;
  for (int64_t l = 0; l < 80; ++l) sum += x[(50 + 49) * 80 + l] * y[(80 + l) * 60 + 59];
  EXPECT_EQ(got[(50 + 49) * 60 + 59], sum);
}

}  // namespace
}  // namespace test
}  // namespace sluice
