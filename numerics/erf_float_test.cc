#include "numerics/erf_float.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/float_bits.h"
#include "numerics/float_environment.h"

namespace sluice {
namespace numerics {
namespace {

TEST(ErfFloatTest, SpecialCases) {
  ScopedFlushDenormals kernel_mode;
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.0f, -0.0f, inf, -inf, 4.0f, -9.0f, 1e-30f};
  std::vector<float> y(x.size());
  ErfFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  EXPECT_EQ(FloatBits(y[0]), FloatBits(0.0f));
  EXPECT_EQ(FloatBits(y[1]), FloatBits(-0.0f));
  EXPECT_EQ(y[2], 1.0f);
  EXPECT_EQ(y[3], -1.0f);
  EXPECT_EQ(y[4], 1.0f);
  EXPECT_EQ(y[5], -1.0f);
  EXPECT_EQ(y[6], 1e-30f * 1.128379106521606445312500000000000000e+00f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  float nan_y;
  ErfFloat(&nan, &nan_y, 1);
  EXPECT_TRUE(std::isnan(nan_y));
}

// Within 7 units in the last place of erf for every 997th float of magnitude from FLT_MIN to
// 4 (the worst over every third float there is 7), and the documented sequence lane by lane.
TEST(ErfFloatTest, WithinSevenUlpsAndTheDocumentedSequence) {
  ScopedFlushDenormals kernel_mode;
  std::vector<float> x;
  for (uint32_t b = 0x00800000; b < 0x40800000; b += 997) {
    x.push_back(FloatFromBits(b));
    x.push_back(-FloatFromBits(b));
  }
  std::vector<float> y(x.size());
  ErfFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_LE(UlpDistance(y[i], static_cast<float>(std::erf(static_cast<double>(x[i])))), 7)
        << "erf(" << x[i] << ") = " << y[i];
    volatile float square = x[i] * x[i];
    const float x2 = std::fmin(square, kErfFloatLargestSquare);
    volatile float p = kErfFloatNumerator[0];
    volatile float q = kErfFloatDenominator[0];
    for (int k = 1; k < kErfFloatTerms; ++k) {
      p = p * x2;
      p = p + kErfFloatNumerator[k];
      q = q * x2;
      q = q + kErfFloatDenominator[k];
    }
    volatile float numerator = x[i] * p;
    const float r = numerator / q;
    ASSERT_EQ(FloatBits(y[i]), FloatBits(std::fmax(std::fmin(r, 1.0f), -1.0f))) << x[i];
  }
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
