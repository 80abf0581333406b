// LRN on a tensor large enough to split over the pool (the fixtures keep to small
// tensors), checked against a direct double-precision reference.
#include <algorithm>
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

class LrnTest : public KernelTest {};

TEST_F(LrnTest, LargeMatchesReference) {
  const int64_t pixels = 2 * 24 * 24;
  const int64_t depth = 64;
  const int radius = 3;
  ASSERT_TRUE(InitOp(NodeDefBuilder("l", "LRN")
                         .Input("x")
                         .Attr("T", DT_FLOAT)
                         .Attr("depth_radius", radius)
                         .Attr("bias", 1.5f)
                         .Attr("alpha", 0.01f)
                         .Attr("beta", 0.75f)
                         .Build())
                  .ok());
  std::mt19937 gen(5);
  std::normal_distribution<float> dist(0.0f, 2.0f);
  std::vector<float> x(pixels * depth);
  for (float& v : x) v = dist(gen);
  AddInputFromArray<float>(TensorShape({2, 24, 24, depth}), x);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> y = Values<float>(*GetOutput(0));
  for (int64_t p = 0; p < pixels; p += 13) {
    for (int64_t d = 0; d < depth; ++d) {
      double sqr = 0;
      for (int64_t k = std::max<int64_t>(0, d - radius); k <= std::min(depth - 1, d + radius);
           ++k) {
        sqr += double{x[p * depth + k]} * x[p * depth + k];
      }
      const double want = x[p * depth + d] * std::pow(1.5 + 0.01 * sqr, -0.75);
      EXPECT_NEAR(y[p * depth + d], want, 1e-5 * std::fabs(want) + 1e-7);
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
