#include "numerics/log_float.h"

#include <algorithm>
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

using ArrayFunction = void (*)(const float*, float*, int64_t);
const ArrayFunction kLog = LogFloat;
const ArrayFunction kLog1p = Log1pFloat;

// f(x[k]) in the vector form (the first 8 of 16 elements) and in the scalar tail (a tensor of 9:
// its last element) is want[k], any NaN for NaN.
void ExpectSpecialCases(ArrayFunction f, const char* name, const std::vector<float>& x,
                        const std::vector<float>& want) {
  ScopedFlushDenormals kernel_mode;
  for (size_t k = 0; k < x.size(); ++k) {
    std::vector<float> in(16, 0.5f);
    in[k % 8] = x[k];
    std::vector<float> vector_y(16);
    f(in.data(), vector_y.data(), 16);
    std::vector<float> tail_in(9, 0.5f);
    tail_in[8] = x[k];
    std::vector<float> tail_y(9);
    f(tail_in.data(), tail_y.data(), 9);
    for (const float y : {vector_y[k % 8], tail_y[8]}) {
      if (std::isnan(want[k])) {
        EXPECT_TRUE(std::isnan(y)) << name << "(" << x[k] << ") = " << y;
      } else {
        EXPECT_EQ(FloatBits(y), FloatBits(want[k])) << name << "(" << x[k] << ") = " << y;
      }
    }
  }
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

TEST(LogFloatTest, SpecialCasesInVectorAndTail) {
  ExpectSpecialCases(kLog, "log", {0.0f, -0.0f, 1.0f, kInf, -kInf, kNan, -1.0f, 1e-40f, -1e-40f},
                     {-kInf, -kInf, 0.0f, kInf, kNan, kNan, kNan, -kInf, -kInf});
  ExpectSpecialCases(kLog1p, "log1p",
                     {0.0f, -0.0f, -1.0f, kInf, -kInf, kNan, -2.0f, 1e-40f, -1e-40f, 1e-9f},
                     {0.0f, -0.0f, -kInf, kInf, kNan, kNan, kNan, 0.0f, -0.0f, 1e-9f});
}

// The vector form of log the invalid inputs give is the all-ones NaN, as TensorFlow's.
TEST(LogFloatTest, InvalidInputsGiveTheAllOnesNan) {
  ScopedFlushDenormals kernel_mode;
  const std::vector<float> x = {-1.0f, kNan, -kInf, -0.5f, -3e38f, -kNan, 7.0f, 9.0f};
  std::vector<float> y(8);
  LogFloat(x.data(), y.data(), 8);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(FloatBits(y[i]), 0xffffffffu) << "log(" << x[i] << ")";
}

// The vector forms are within 3 (log) and 4 (log1p) units in the last place of the correctly
// rounded values (every 4999th positive normal float for log, every 4999th float above -1 for
// log1p; over every 7th, the worst are 3 and 4); the tails are the C library's.
TEST(LogFloatTest, WithinAFewUlpsAndTailIsTheCLibrarys) {
  ScopedFlushDenormals kernel_mode;
  struct Case {
    ArrayFunction f;
    float (*c_library)(float);
    double (*exact)(double);
    uint32_t from, to;
    int64_t ulps;
  };
  const Case cases[] = {
      {kLog, [](float v) { return std::log(v); }, [](double v) { return std::log(v); }, 0x00800000,
       0x7f800000, 3},
      {kLog1p, [](float v) { return std::log1p(v); }, [](double v) { return std::log1p(v); },
       0x00800000, 0x7f800000, 4},
  };
  for (const Case& c : cases) {
    std::vector<float> x;
    for (uint32_t b = c.from; b < c.to; b += 4999) {
      x.push_back(FloatFromBits(b));
      if (c.f == kLog1p && FloatFromBits(b) < 1.0f) x.push_back(-FloatFromBits(b));
    }
    x.resize(x.size() - x.size() % 8 + 5);  // a tail of 5
    std::vector<float> y(x.size());
    c.f(x.data(), y.data(), static_cast<int64_t>(x.size()));
    const size_t vector_end = x.size() - 5;
    for (size_t i = 0; i < x.size(); ++i) {
      if (i < vector_end) {
        const float exact = static_cast<float>(c.exact(static_cast<double>(x[i])));
        ASSERT_LE(UlpDistance(y[i], exact), c.ulps) << x[i] << " gives " << y[i];
      } else {
        ASSERT_EQ(FloatBits(y[i]), FloatBits(c.c_library(x[i]))) << "tail " << x[i];
      }
    }
  }
}

TEST(LogFloatTest, PiecesAndInPlaceMatchTheWholeTensor) {
  std::vector<float> x(21);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.0137f + 1.91f * static_cast<float>(i);
  ExpectPiecesMatchTheWholeTensor(LogFloat, x);
  ExpectPiecesMatchTheWholeTensor(Log1pFloat, x);
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
