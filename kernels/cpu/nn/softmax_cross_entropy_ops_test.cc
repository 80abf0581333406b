// The cross entropies on batches large enough to split over the pool (the fixtures keep to
// modest ones), checked against a double-precision reference, and the sparse form against
// the dense one with one-hot labels.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class SoftmaxCrossEntropyTest : public KernelTest {};

constexpr int64_t kRows = 512;
constexpr int64_t kCols = 300;

std::vector<float> RandomLogits(int seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.0f, 4.0f);
  std::vector<float> x(kRows * kCols);
  for (float& v : x) v = dist(gen);
  return x;
}

TEST_F(SoftmaxCrossEntropyTest, LargeBatchMatchesReference) {
  const std::vector<float> x = RandomLogits(5);
  std::vector<float> labels(kRows * kCols, 0.0f);
  for (int64_t r = 0; r < kRows; ++r) {
    labels[r * kCols + (r * 7) % kCols] = 0.75f;
    labels[r * kCols + (r * 13 + 1) % kCols] += 0.25f;
  }
  ASSERT_TRUE(InitOp(NodeDefBuilder("x", "SoftmaxCrossEntropyWithLogits")
                         .Input("f")
                         .Input("l")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({kRows, kCols}), x);
  AddInputFromArray<float>(TensorShape({kRows, kCols}), labels);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> loss = Values<float>(*GetOutput(0));
  const std::vector<float> grad = Values<float>(*GetOutput(1));
  for (int64_t r = 0; r < kRows; ++r) {
    double max = x[r * kCols];
    for (int64_t c = 0; c < kCols; ++c) max = std::max<double>(max, x[r * kCols + c]);
    double sum = 0;
    for (int64_t c = 0; c < kCols; ++c) sum += std::exp(x[r * kCols + c] - max);
    double want_loss = 0;
    for (int64_t c = 0; c < kCols; ++c) {
      const double shifted = x[r * kCols + c] - max;
      want_loss += labels[r * kCols + c] * (std::log(sum) - shifted);
      const double want_grad = std::exp(shifted) / sum - labels[r * kCols + c];
      EXPECT_NEAR(grad[r * kCols + c], want_grad, 1e-6) << r << " " << c;
    }
    EXPECT_NEAR(loss[r], want_loss, 1e-5 * std::fabs(want_loss) + 1e-6) << r;
  }
}

TEST_F(SoftmaxCrossEntropyTest, SparseEqualsDenseOneHot) {
  const std::vector<float> x = RandomLogits(6);
  std::vector<int64_t> targets(kRows);
  std::vector<float> one_hot(kRows * kCols, 0.0f);
  for (int64_t r = 0; r < kRows; ++r) {
    targets[r] = (r * 31) % kCols;
    one_hot[r * kCols + targets[r]] = 1.0f;
  }
  ASSERT_TRUE(InitOp(NodeDefBuilder("d", "SoftmaxCrossEntropyWithLogits")
                         .Input("f")
                         .Input("l")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({kRows, kCols}), x);
  AddInputFromArray<float>(TensorShape({kRows, kCols}), one_hot);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> dense_loss = Values<float>(*GetOutput(0));
  const std::vector<float> dense_grad = Values<float>(*GetOutput(1));
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "SparseSoftmaxCrossEntropyWithLogits")
                         .Input("f")
                         .Input("l")
                         .Attr("T", DT_FLOAT)
                         .Attr("Tlabels", DT_INT64)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({kRows, kCols}), x);
  AddInputFromArray<int64_t>(TensorShape({kRows}), targets);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> sparse_loss = Values<float>(*GetOutput(0));
  const std::vector<float> sparse_grad = Values<float>(*GetOutput(1));
  for (int64_t r = 0; r < kRows; ++r) EXPECT_NEAR(sparse_loss[r], dense_loss[r], 1e-5) << r;
  // exp(s) / sum - 1 and exp(s) / sum - 1.0f * 1: the same operations, so the same bits.
  EXPECT_EQ(sparse_grad, dense_grad);
}

}  // namespace
}  // namespace test
}  // namespace sluice
