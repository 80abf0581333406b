#include "numerics/exp_float.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/float_bits.h"
#include "numerics/float_environment.h"
#include "numerics/tensor_split_testing.h"

namespace sluice {
namespace numerics {
namespace {

// The special cases hold in the vector form (the first 8 of 16 elements) and in the scalar
// tail (a tensor of 9: its last element).
TEST(ExpFloatTest, SpecialCasesInVectorAndTail) {
  ScopedFlushDenormals kernel_mode;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {0.0f, -0.0f, inf, -inf, nan, 89.0f, -110.0f, 1e-45f, -3e38f, 3e38f};
  const std::vector<float> want = {1.0f, 1.0f, inf, 0.0f, nan, inf, 0.0f, 1.0f, 0.0f, inf};
  for (size_t k = 0; k < x.size(); ++k) {
    std::vector<float> in(16, 0.5f);
    in[k % 8] = x[k];
    std::vector<float> vector_y(16);
    ExpFloat(in.data(), vector_y.data(), 16);
    std::vector<float> tail_in(9, 0.5f);
    tail_in[8] = x[k];
    std::vector<float> tail_y(9);
    ExpFloat(tail_in.data(), tail_y.data(), 9);
    for (const float y : {vector_y[k % 8], tail_y[8]}) {
      if (std::isnan(want[k])) {
        EXPECT_TRUE(std::isnan(y)) << "exp(" << x[k] << ") = " << y;
      } else {
        EXPECT_EQ(FloatBits(y), FloatBits(want[k])) << "exp(" << x[k] << ") = " << y;
      }
    }
  }
}

// expm1's special cases, in the vector form and in the tail.
TEST(ExpFloatTest, Expm1SpecialCasesInVectorAndTail) {
  ScopedFlushDenormals kernel_mode;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {0.0f, -0.0f, inf, -inf, nan, 89.0f, -110.0f, 1e-9f};
  const std::vector<float> want = {0.0f, -0.0f, inf, -1.0f, nan, inf, -1.0f, 1e-9f};
  for (size_t k = 0; k < x.size(); ++k) {
    std::vector<float> in(16, 0.5f);
    in[k % 8] = x[k];
    std::vector<float> vector_y(16);
    Expm1Float(in.data(), vector_y.data(), 16);
    std::vector<float> tail_in(9, 0.5f);
    tail_in[8] = x[k];
    std::vector<float> tail_y(9);
    Expm1Float(tail_in.data(), tail_y.data(), 9);
    for (const float y : {vector_y[k % 8], tail_y[8]}) {
      if (std::isnan(want[k])) {
        EXPECT_TRUE(std::isnan(y)) << "expm1(" << x[k] << ") = " << y;
      } else {
        EXPECT_EQ(FloatBits(y), FloatBits(want[k])) << "expm1(" << x[k] << ") = " << y;
      }
    }
  }
  // Within 5 ulps of the correctly rounded value from -20 to 20 (every 997th float; over every
  // 7th the worst is 5: exp, log and a division compose).
  std::vector<float> v;
  for (uint32_t b = 0x00800000; b < 0x41a00000; b += 997) {
    v.push_back(FloatFromBits(b));
    v.push_back(-FloatFromBits(b));
  }
  v.resize(v.size() - v.size() % 8);
  std::vector<float> y(v.size());
  Expm1Float(v.data(), y.data(), static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) {
    const float exact = static_cast<float>(std::expm1(static_cast<double>(v[i])));
    ASSERT_LE(UlpDistance(y[i], exact), 5) << "expm1(" << v[i] << ") = " << y[i];
  }
}

// The vector form is within 2 units in the last place of the correctly rounded exp wherever
// the result is a normal float (every 997th float from -87.3 to 88.7); the tail is std::exp.
TEST(ExpFloatTest, WithinTwoUlpsAndTailIsTheCLibrarys) {
  ScopedFlushDenormals kernel_mode;
  std::vector<float> x;
  for (uint32_t b = 0; b < 0x42b17200; b += 997) {  // 0 to 88.72
    x.push_back(FloatFromBits(b));
    if (FloatFromBits(b) < 87.3f) x.push_back(-FloatFromBits(b));
  }
  x.resize(x.size() - x.size() % 8 + 5);  // a tail of 5
  std::vector<float> y(x.size());
  ExpFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  const size_t vector_end = x.size() - 5;
  int64_t worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (i < vector_end) {
      const float exact = static_cast<float>(std::exp(static_cast<double>(x[i])));
      worst = std::max(worst, UlpDistance(y[i], exact));
      ASSERT_LE(UlpDistance(y[i], exact), 2) << "exp(" << x[i] << ") = " << y[i];
    } else {
      ASSERT_EQ(FloatBits(y[i]), FloatBits(std::exp(x[i]))) << "tail exp(" << x[i] << ")";
    }
  }
  EXPECT_GE(worst, 1);  // not the correctly rounded exp: the polynomial's own bits
}

// floor(v) and y * 2^m written the plainest way: the vector form's steps give the same.
float ScaledByPowerOfTwo(float y, float m) {
  const int e = static_cast<int>(std::fmax(std::fmin(m, 278.0f), -278.0f));
  const int b = e >> 2;
  auto power = [](int k) { return FloatFromBits(static_cast<uint32_t>(k + 127) << 23); };
  volatile float out = y * power(b);
  out = out * power(b);
  out = out * power(b);
  return out * power(e - 3 * b);
}

// Lane by lane, the vector form is the documented sequence of operations (exp_float.h), one
// multiply or add at a time, over every 65537th float of magnitude up to 104.
TEST(ExpFloatTest, VectorFormIsTheDocumentedSequence) {
  ScopedFlushDenormals kernel_mode;
  std::vector<float> x;
  for (uint32_t b = 0; b < 0x42d00000; b += 65537) {
    x.push_back(FloatFromBits(b));
    x.push_back(-FloatFromBits(b));
  }
  x.resize(x.size() - x.size() % 8);
  std::vector<float> y(x.size());
  ExpFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    const float a = x[i];
    const float clamped = std::fmin(a, kExpFloatHigh);
    volatile float t = clamped * kExpFloatLog2e;
    const float m = std::floor(t + 0.5f);
    volatile float r = m * kExpFloatMinusLn2High;
    r = r + clamped;
    volatile float low_part = m * kExpFloatLn2Low;
    r = low_part + r;
    volatile float r2 = r * r;
    volatile float even = r2 * kExpFloatP6;
    even = even + kExpFloatP4;
    volatile float odd = r2 * kExpFloatP5;
    odd = odd + kExpFloatP3;
    even = r2 * even;
    even = even + kExpFloatP2;
    volatile float poly = r * odd;
    poly = poly + even;
    poly = r2 * poly;
    const float e_r = poly + (r + 1.0f);
    const float want = a < kExpFloatZeroBelow ? 0.0f : std::fmax(ScaledByPowerOfTwo(e_r, m), a);
    ASSERT_EQ(FloatBits(y[i]), FloatBits(want)) << "exp(" << a << ")";
  }
}

// The tail is std::exp's.
TEST(ExpFloatTest, PiecesAndInPlaceMatchTheWholeTensor) {
  std::vector<float> x(21);
  for (size_t i = 0; i < x.size(); ++i) x[i] = -9.37f + 0.91f * static_cast<float>(i);
  ExpectPiecesMatchTheWholeTensor(ExpFloat, x);
  ExpectPiecesMatchTheWholeTensor(Expm1Float, x);
  std::vector<float> y(21);
  ExpFloat(x.data(), y.data(), 21);
  for (size_t i = 16; i < 21; ++i) EXPECT_EQ(FloatBits(y[i]), FloatBits(std::exp(x[i]))) << i;
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
