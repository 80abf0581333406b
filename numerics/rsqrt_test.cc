#include "numerics/rsqrt.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/float_bits.h"
#include "numerics/float_environment.h"
#include "numerics/tensor_split_testing.h"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace sluice {
namespace numerics {
namespace {

// The special cases hold in the vector form (the first 8 of 16 elements) and in the scalar
// tail (a tensor of 9: its last element), whatever the processor's estimate; a subnormal reads
// as zero in the kernels' mode.
TEST(RsqrtTest, SpecialCasesInVectorAndTail) {
  ScopedFlushDenormals kernel_mode;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {0.0f, -0.0f, inf, -inf, nan, -1.0f, 1e-45f, -1e-45f, -3e38f};
  const std::vector<float> want = {inf, -inf, 0.0f, nan, nan, nan, inf, -inf, nan};
  for (size_t k = 0; k < x.size(); ++k) {
    std::vector<float> in(16, 4.0f);
    in[k % 8] = x[k];
    std::vector<float> vector_y(16);
    RsqrtFloat(in.data(), vector_y.data(), 16);
    std::vector<float> tail_in(9, 4.0f);
    tail_in[8] = x[k];
    std::vector<float> tail_y(9);
    RsqrtFloat(tail_in.data(), tail_y.data(), 9);
    for (const float y : {vector_y[k % 8], tail_y[8]}) {
      if (std::isnan(want[k])) {
        EXPECT_TRUE(std::isnan(y)) << "rsqrt(" << x[k] << ") = " << y;
      } else {
        EXPECT_EQ(FloatBits(y), FloatBits(want[k])) << "rsqrt(" << x[k] << ") = " << y;
      }
    }
  }
}

// The vector form is within 2 units in the last place of the correctly rounded reciprocal root
// over the positive normal floats (every 9973rd), the smallest ones included; the tail is
// 1 / sqrt(x) exactly.
TEST(RsqrtTest, WithinTwoUlpsAndTailIsOneOverSqrt) {
  ScopedFlushDenormals kernel_mode;
  std::vector<float> x;
  for (uint32_t b = 0x00800000; b < 0x7f800000; b += 9973) x.push_back(FloatFromBits(b));
  x.resize(x.size() - x.size() % 8 + 5);  // a tail of 5
  std::vector<float> y(x.size());
  RsqrtFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  const size_t vector_end = x.size() - 5;
  for (size_t i = 0; i < x.size(); ++i) {
    const float exact = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x[i])));
    if (i < vector_end) {
      ASSERT_LE(UlpDistance(y[i], exact), 2) << "rsqrt(" << x[i] << ") = " << y[i];
    } else {
      ASSERT_EQ(FloatBits(y[i]), FloatBits(1.0f / std::sqrt(x[i]))) << "tail rsqrt(" << x[i] << ")";
    }
  }
}

#if defined(__SSE__)
// Lane by lane, the vector form is the Newton step written out over the processor's estimate,
// in its order: one multiply or add at a time.
TEST(RsqrtTest, VectorFormIsTheNewtonStepInOrder) {
  ScopedFlushDenormals kernel_mode;
  std::vector<float> x;
  for (uint32_t b = 0x00800000; b < 0x7f800000; b += 104729) x.push_back(FloatFromBits(b));
  x.resize(x.size() - x.size() % 8);
  std::vector<float> y(x.size());
  RsqrtFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    const float y0 = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x[i])));
    volatile float r2 = x[i] * y0;
    volatile float r2y = r2 * y0;
    volatile float h = r2y + -1.0f;
    volatile float half = y0 * -0.5f;
    volatile float step = half * h;
    const float want = step + y0;
    ASSERT_EQ(FloatBits(y[i]), FloatBits(want)) << "rsqrt(" << x[i] << ")";
  }
}
#endif

TEST(RsqrtTest, PiecesAndInPlaceMatchTheWholeTensor) {
  std::vector<float> x(21);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.37f + 1.91f * static_cast<float>(i);
  ExpectPiecesMatchTheWholeTensor(RsqrtFloat, x);
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
