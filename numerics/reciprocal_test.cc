#include "numerics/reciprocal.h"

#include <algorithm>
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
// as zero in the kernels' mode, and the reciprocal of the largest floats underflows to zero.
// (Not 1/1: the vector form need not give exactly 1 for it, nor does TensorFlow's.)
TEST(ReciprocalTest, SpecialCasesInVectorAndTail) {
  ScopedFlushDenormals kernel_mode;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float max = std::numeric_limits<float>::max();
  const std::vector<float> x = {0.0f, -0.0f, inf, -inf, nan, 1e-45f, -1e-45f, max, -max};
  const std::vector<float> want = {inf, -inf, 0.0f, -0.0f, nan, inf, -inf, 0.0f, -0.0f};
  for (size_t k = 0; k < x.size(); ++k) {
    std::vector<float> in(16, 4.0f);
    in[k % 8] = x[k];
    std::vector<float> vector_y(16);
    ReciprocalFloat(in.data(), vector_y.data(), 16);
    std::vector<float> tail_in(9, 4.0f);
    tail_in[8] = x[k];
    std::vector<float> tail_y(9);
    ReciprocalFloat(tail_in.data(), tail_y.data(), 9);
    for (const float y : {vector_y[k % 8], tail_y[8]}) {
      if (std::isnan(want[k])) {
        EXPECT_TRUE(std::isnan(y)) << "1/" << x[k] << " = " << y;
      } else {
        EXPECT_EQ(FloatBits(y), FloatBits(want[k])) << "1/" << x[k] << " = " << y;
      }
    }
  }
}

// The vector form is within 3 units in the last place of the correctly rounded reciprocal for
// every 9973rd float of either sign from 2^-126 to 2^104; the tail is 1 / x exactly.
TEST(ReciprocalTest, WithinThreeUlpsAndTailIsOneOverX) {
  ScopedFlushDenormals kernel_mode;
  std::vector<float> x;
  for (uint32_t b = 0x00800000; b < 0x73800000; b += 9973) {
    x.push_back(FloatFromBits(b));
    x.push_back(-FloatFromBits(b));
  }
  x.resize(x.size() - x.size() % 8 + 5);  // a tail of 5
  std::vector<float> y(x.size());
  ReciprocalFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  const size_t vector_end = x.size() - 5;
  for (size_t i = 0; i < x.size(); ++i) {
    const float exact = static_cast<float>(1.0 / static_cast<double>(x[i]));
    if (i < vector_end) {
      ASSERT_LE(UlpDistance(y[i], exact), 3) << "1/" << x[i] << " = " << y[i];
    } else {
      ASSERT_EQ(FloatBits(y[i]), FloatBits(1.0f / x[i])) << "tail 1/" << x[i];
    }
  }
}

#if defined(__SSE__)
// Lane by lane, the vector form is the Newton step written out over the processor's estimate,
// in its order: one multiply or add at a time, each flushed to zero where it underflows (so
// from about 2^115 up the step adds nothing and the result is the estimate itself).
TEST(ReciprocalTest, VectorFormIsTheNewtonStepInOrder) {
  ScopedFlushDenormals kernel_mode;
  std::vector<float> x;
  for (uint32_t b = 0x00800000; b < 0x7f800000; b += 104729) x.push_back(FloatFromBits(b));
  x.resize(x.size() - x.size() % 8);
  std::vector<float> y(x.size());
  ReciprocalFloat(x.data(), y.data(), static_cast<int64_t>(x.size()));
  int differ_from_exact = 0;
  int estimate_alone = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const float r0 = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x[i])));
    volatile float product = x[i] * r0;
    volatile float t = 1.0f - product;
    volatile float step = r0 * t;
    const float want = step + r0;
    ASSERT_EQ(FloatBits(y[i]), FloatBits(want)) << "1/" << x[i];
    differ_from_exact += FloatBits(y[i]) != FloatBits(1.0f / x[i]);
    if (x[i] >= 0x1p115f) estimate_alone += FloatBits(y[i]) == FloatBits(r0);
  }
  EXPECT_EQ(estimate_alone,
            std::count_if(x.begin(), x.end(), [](float v) { return v >= 0x1p115f; }));
  // The step is not the correctly rounded division: a good share of results differ from it,
  // which is why the two forms must each be where TensorFlow has them.
  EXPECT_GT(differ_from_exact, static_cast<int>(x.size() / 10));
}
#endif

TEST(ReciprocalTest, PiecesAndInPlaceMatchTheWholeTensor) {
  std::vector<float> x(21);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.37f + 1.91f * static_cast<float>(i);
  ExpectPiecesMatchTheWholeTensor(ReciprocalFloat, x);
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
