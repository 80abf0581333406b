#include "numerics/sigmoid_tanh_float.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/float_bits.h"
#include "numerics/float_environment.h"
#include "numerics/tensor_split_testing.h"

namespace sluice {
namespace numerics {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Tanh is one form for every element: odd, ±1 from the clamp up, NaN for NaN.
TEST(SigmoidTanhFloatTest, TanhSpecialCases) {
  ScopedFlushDenormals kernel_mode;
  const std::vector<float> x = {0.0f, -0.0f, kInf, -kInf, 8.0f, -8.0f, 1e-30f, 0.5f};
  std::vector<float> y(x.size());
  TanhFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  EXPECT_EQ(FloatBits(y[0]), FloatBits(0.0f));
  EXPECT_EQ(FloatBits(y[1]), FloatBits(-0.0f));
  EXPECT_EQ(y[2], 1.0f);
  EXPECT_EQ(y[3], -1.0f);
  EXPECT_EQ(y[4], 1.0f);
  EXPECT_EQ(y[5], -1.0f);
  EXPECT_EQ(y[6], 1e-30f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  float nan_y;
  TanhFloat(&nan, &nan_y, 1);
  EXPECT_TRUE(std::isnan(nan_y));
}

// Sigmoid's special cases in the vector form and in the tail.
TEST(SigmoidTanhFloatTest, SigmoidSpecialCasesInVectorAndTail) {
  ScopedFlushDenormals kernel_mode;
  const std::vector<float> x = {0.0f, kInf, -kInf, 17.0f, -110.0f};
  const std::vector<float> want = {0.5f, 1.0f, 0.0f, 1.0f, 0.0f};
  for (size_t k = 0; k < x.size(); ++k) {
    std::vector<float> in(16, 0.5f);
    in[k % 8] = x[k];
    std::vector<float> vector_y(16);
    SigmoidFloat(in.data(), vector_y.data(), 16);
    std::vector<float> tail_in(9, 0.5f);
    tail_in[8] = x[k];
    std::vector<float> tail_y(9);
    SigmoidFloat(tail_in.data(), tail_y.data(), 9);
    EXPECT_EQ(FloatBits(vector_y[k % 8]), FloatBits(want[k])) << "sigmoid(" << x[k] << ")";
    EXPECT_EQ(FloatBits(tail_y[8]), FloatBits(want[k])) << "tail sigmoid(" << x[k] << ")";
  }
}

// Accuracy against double precision (every 997th float of magnitude up to 20): tanh within 6
// units in the last place, sigmoid's vector form within 7 (its exp is squared); those are the
// worst over every third float there.
TEST(SigmoidTanhFloatTest, WithinAFewUlps) {
  ScopedFlushDenormals kernel_mode;
  std::vector<float> x;
  for (uint32_t b = 0x00800000; b < 0x41a00000; b += 997) {
    x.push_back(FloatFromBits(b));
    x.push_back(-FloatFromBits(b));
  }
  x.resize(x.size() - x.size() % 8);
  std::vector<float> tanh_y(x.size()), sigmoid_y(x.size());
  TanhFloat(x.data(), tanh_y.data(), static_cast<int64_t>(x.size()));
  SigmoidFloat(x.data(), sigmoid_y.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    ASSERT_LE(UlpDistance(tanh_y[i], static_cast<float>(std::tanh(v))), 6) << "tanh(" << v << ")";
    const float sigmoid = static_cast<float>(1.0 / (1.0 + std::exp(-v)));
    ASSERT_LE(UlpDistance(sigmoid_y[i], sigmoid), 7) << "sigmoid(" << v << ")";
  }
}

TEST(SigmoidTanhFloatTest, PiecesAndInPlaceMatchTheWholeTensor) {
  std::vector<float> x(21);
  for (size_t i = 0; i < x.size(); ++i) x[i] = -9.37f + 0.91f * static_cast<float>(i);
  ExpectPiecesMatchTheWholeTensor(SigmoidFloat, x);
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
