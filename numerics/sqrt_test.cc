#include "numerics/sqrt.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/float_bits.h"

namespace sluice {
namespace numerics {
namespace {

// IEEE's special cases, and values whose roots Eigen 3.4's fast float sqrt rounded wrongly
// (TensorFlow 2.21's results, its bits), in and out of place, through the vector loop and
// its tail.
TEST(SqrtTest, FloatIsCorrectlyRounded) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {inf,   -inf,       -0.0f,    0.0f,  -1.0f, 88.0f,
                                6e-8f, 13.942385f, 65504.0f, 3e38f, 2.0f};
  const std::vector<uint32_t> want = {0x7f800000, 0,          0x80000000, 0,
                                      0,          0x411617e3, 0x39806c7f, 0x406ef90b,
                                      0x437fefff, 0x5f705ece, 0x3fb504f3};
  std::vector<float> y(x.size());
  SqrtFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  std::vector<float> in_place = x;
  SqrtFloat(in_place.data(), in_place.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    if (i == 1 || i == 4) {
      EXPECT_TRUE(std::isnan(y[i]) && std::isnan(in_place[i])) << x[i];
      continue;
    }
    EXPECT_EQ(FloatBits(y[i]), want[i]) << "sqrt(" << x[i] << ")";
    EXPECT_EQ(FloatBits(in_place[i]), want[i]) << "sqrt(" << x[i] << ") in place";
  }
}

TEST(SqrtTest, FloatMatchesDoubleRootRounded) {
  std::vector<float> x;
  for (uint32_t b = 0x00800000; b < 0x7f800000; b += 9973) {
    x.push_back(FloatFromBits(b));
  }
  std::vector<float> y(x.size());
  SqrtFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    // The double root rounded to float is the correctly rounded float root (53 >= 2 * 24 + 2).
    ASSERT_EQ(y[i], static_cast<float>(std::sqrt(static_cast<double>(x[i])))) << x[i];
  }
}

TEST(SqrtTest, Double) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> x = {inf, -inf, -0.0, 0.0, -1.0, 2.0, 88.0, 1e-310, -1e-310};
  SqrtDouble(x.data(), x.data(), static_cast<int64_t>(x.size()));
  EXPECT_EQ(x[0], inf);
  EXPECT_TRUE(std::isnan(x[1]));
  EXPECT_TRUE(x[2] == 0.0 && std::signbit(x[2]));
  EXPECT_TRUE(x[3] == 0.0 && !std::signbit(x[3]));
  EXPECT_TRUE(std::isnan(x[4]));
  EXPECT_EQ(x[5], 1.4142135623730951);
  EXPECT_EQ(x[6], 9.38083151964686);
  EXPECT_GT(x[7], 0.0);  // subnormals are not flushed
  EXPECT_TRUE(std::isnan(x[8]));
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
