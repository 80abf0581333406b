// Softmax and LogSoftmax on rows large enough to split over the pool (the fixtures keep to
// small tensors), checked against a double-precision reference.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "graph/tensor.h"
#include "graph/types.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class SoftmaxTest : public KernelTest {};

TEST_F(SoftmaxTest, LargeMatchesReference) {
  const int64_t rows = 64;
  const int64_t cols = 1000;
  std::mt19937 gen(3);
  std::normal_distribution<float> dist(0.0f, 5.0f);
  std::vector<float> x(rows * cols);
  for (float& v : x) v = dist(gen);
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("s", op).Input("x").Attr("T", DT_FLOAT).Build()).ok());
    AddInputFromArray<float>(TensorShape({rows, cols}), x);
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<float> y = Values<float>(*GetOutput(0));
    const bool log = std::string(op) == "LogSoftmax";
    for (int64_t r = 0; r < rows; ++r) {
      double max = x[r * cols];
      for (int64_t c = 0; c < cols; ++c) max = std::max<double>(max, x[r * cols + c]);
      double sum = 0;
      for (int64_t c = 0; c < cols; ++c) sum += std::exp(x[r * cols + c] - max);
      for (int64_t c = 0; c < cols; c += 37) {
        const double shifted = x[r * cols + c] - max;
        const double want = log ? shifted - std::log(sum) : std::exp(shifted) / sum;
        EXPECT_NEAR(y[r * cols + c], want, 1e-5 * std::fabs(want) + 1e-7) << op << r << c;
      }
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
