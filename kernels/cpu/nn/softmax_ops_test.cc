// Softmax and LogSoftmax on rows large enough to split over the pool (the fixtures keep to
// small tensors), checked against a double-precision reference.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
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

// float Softmax of finite logits runs on oneDNN, everything else on the loop: rows holding
// NaN or +inf, or only -inf, come out all NaN, as in TensorFlow; -inf among finite logits
// gives 0 (its log, -inf). A finite row in the same tensor is still right.
TEST_F(SoftmaxTest, NonFiniteRowsOnEveryPath) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1, nan, 2, inf, 1, 2, -inf, -inf, -inf, -inf, 0, 0};
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
      ASSERT_TRUE(InitOp(NodeDefBuilder("s", op).Input("x").Attr("T", dtype).Build()).ok());
      if (dtype == DT_FLOAT) {
        AddInputFromArray<float>(TensorShape({4, 3}), x);
      } else {
        AddInputFromArray<double>(TensorShape({4, 3}), std::vector<double>(x.begin(), x.end()));
      }
      ASSERT_TRUE(RunOpKernel().ok());
      std::vector<double> y;
      if (dtype == DT_FLOAT) {
        for (float v : Values<float>(*GetOutput(0))) y.push_back(v);
      } else {
        y = Values<double>(*GetOutput(0));
      }
      const bool log = std::string(op) == "LogSoftmax";
      for (int i = 0; i < 9; ++i) EXPECT_TRUE(std::isnan(y[i])) << op << dtype << " " << i;
      if (log) {
        EXPECT_EQ(y[9], -inf) << op << dtype;
        EXPECT_NEAR(y[10], -std::log(2.0), 1e-6) << op << dtype;
      } else {
        // Eigen's vectorized exp of -inf is 0 for float, a denormal for double.
        EXPECT_NEAR(y[9], 0, 1e-300) << op << dtype;
        EXPECT_NEAR(y[10], 0.5, 1e-6) << op << dtype;
        EXPECT_NEAR(y[11], 0.5, 1e-6) << op << dtype;
      }
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
