#include "numerics/trig_float.h"

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

using ArrayFunction = void (*)(const float*, float*, int64_t);
using ScalarFunction = float (*)(float);

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kPi = static_cast<float>(3.14159265358979323846);

struct Case {
  const char* name;
  ArrayFunction f;
  ScalarFunction libm;
};
const Case kCases[] = {
    {"atan", AtanFloat, [](float v) { return std::atan(v); }},
    {"asin", AsinFloat, [](float v) { return std::asin(v); }},
    {"acos", AcosFloat, [](float v) { return std::acos(v); }},
    {"atanh", AtanhFloat, [](float v) { return std::atanh(v); }},
};

// f(x) in the vector form (element 3 of 16) and in the scalar tail (the last of 9).
void VectorAndTail(ArrayFunction f, float x, float* vector, float* tail) {
  std::vector<float> in(16, 0.25f);
  in[3] = x;
  std::vector<float> out(16);
  f(in.data(), out.data(), 16);
  *vector = out[3];
  std::vector<float> tail_in(9, 0.25f);
  tail_in[8] = x;
  f(tail_in.data(), tail_in.data(), 9);  // in place
  *tail = tail_in[8];
}

void ExpectBits(float got, float want, const char* name, float x) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << name << "(" << x << ") = " << got;
  } else {
    EXPECT_EQ(FloatBits(got), FloatBits(want)) << name << "(" << x << ") = " << got;
  }
}

TEST(TrigFloatTest, SpecialValuesInVectorAndTail) {
  ScopedFlushDenormals kernel_mode;
  struct Special {
    ArrayFunction f;
    const char* name;
    float x;
    float want;
  };
  const Special specials[] = {
      {AtanFloat, "atan", 0.0f, 0.0f},     {AtanFloat, "atan", -0.0f, -0.0f},
      {AtanFloat, "atan", kNan, kNan},     {AsinFloat, "asin", 0.0f, 0.0f},
      {AsinFloat, "asin", -0.0f, -0.0f},   {AsinFloat, "asin", 2.0f, kNan},
      {AsinFloat, "asin", -kInf, kNan},    {AsinFloat, "asin", kNan, kNan},
      {AcosFloat, "acos", 1.0f, 0.0f},     {AcosFloat, "acos", 2.0f, kNan},
      {AcosFloat, "acos", kNan, kNan},     {AtanhFloat, "atanh", 0.0f, 0.0f},
      {AtanhFloat, "atanh", -0.0f, -0.0f}, {AtanhFloat, "atanh", 1.0f, kInf},
      {AtanhFloat, "atanh", -1.0f, -kInf}, {AtanhFloat, "atanh", 1.5f, kNan},
      {AtanhFloat, "atanh", kNan, kNan},
  };
  for (const Special& s : specials) {
    float vector, tail;
    VectorAndTail(s.f, s.x, &vector, &tail);
    ExpectBits(vector, s.want, s.name, s.x);
    ExpectBits(tail, s.want, s.name, s.x);
  }
  // Limits reached within an ulp.
  float vector, tail;
  VectorAndTail(AtanFloat, kInf, &vector, &tail);
  EXPECT_LE(UlpDistance(vector, kPi / 2), 1);
  VectorAndTail(AtanFloat, -kInf, &vector, &tail);
  EXPECT_LE(UlpDistance(vector, -kPi / 2), 1);
  VectorAndTail(AcosFloat, -1.0f, &vector, &tail);
  EXPECT_LE(UlpDistance(vector, kPi), 1);
}

// The tail is the C library's function exactly; the vector form is within a few ulps of the
// true value, over a sweep of the domain.
TEST(TrigFloatTest, VectorFormIsAccurateAndTailIsTheCLibrary) {
  ScopedFlushDenormals kernel_mode;
  for (const Case& c : kCases) {
    const float limit = c.f == AtanFloat ? 1e6f : 1.0f;
    std::vector<float> x;
    for (float v = -limit; v <= limit; v += limit / 4099.0f) x.push_back(v);
    x.resize(x.size() - x.size() % 8 + 5);  // a tail of 5
    std::vector<float> y(x.size());
    c.f(x.data(), y.data(), static_cast<int64_t>(x.size()));
    const size_t vector_end = x.size() - 5;
    int64_t worst = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      if (i >= vector_end) {
        ExpectBits(y[i], c.libm(x[i]), c.name, x[i]);
        continue;
      }
      double exact = 0;
      const double v = x[i];
      if (c.f == AtanFloat) exact = std::atan(v);
      if (c.f == AsinFloat) exact = std::asin(v);
      if (c.f == AcosFloat) exact = std::acos(v);
      if (c.f == AtanhFloat) exact = std::atanh(v);
      if (std::isinf(exact)) {
        EXPECT_EQ(y[i], static_cast<float>(exact)) << c.name << "(" << x[i] << ")";
        continue;
      }
      const float rounded = static_cast<float>(exact);
      if (std::signbit(rounded) != std::signbit(y[i]) || rounded == 0.0f) {
        EXPECT_NEAR(y[i], rounded, 1e-37f) << c.name << "(" << x[i] << ")";
        continue;
      }
      const int64_t d = UlpDistance(y[i], rounded);
      worst = d > worst ? d : worst;
    }
    EXPECT_LE(worst, 4) << c.name;
  }
}

TEST(TrigFloatTest, DoubleAtan) {
  std::vector<double> x;
  for (double v = -40.0; v <= 40.0; v += 0.0173) x.push_back(v);
  x.push_back(std::numeric_limits<double>::infinity());
  x.push_back(-0.0);
  x.resize(x.size() - x.size() % 4 + 3);
  std::vector<double> y(x.size());
  AtanDouble(x.data(), y.data(), static_cast<int64_t>(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    if (i + 3 >= x.size()) {
      EXPECT_EQ(y[i], std::atan(x[i])) << x[i];  // the tail
    } else {
      EXPECT_NEAR(y[i], std::atan(x[i]), 8e-16 * std::fabs(std::atan(x[i]))) << x[i];
    }
  }
}

// atan2's packet form gives IEEE's answers for zeros and infinities of either sign.
TEST(TrigFloatTest, Atan2PacketFormSpecialCases) {
  ScopedFlushDenormals kernel_mode;
  const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, kInf, -kInf, 2.5f, -0.75f};
  for (float y : values) {
    for (float x : values) {
      const float got = Atan2FloatPacketForm(y, x);
      const float want = std::atan2(y, x);
      EXPECT_EQ(std::signbit(got), std::signbit(want)) << "atan2(" << y << ", " << x << ")";
      EXPECT_LE(UlpDistance(std::fabs(got), std::fabs(want)), 2)
          << "atan2(" << y << ", " << x << ") = " << got << ", want " << want;
      const double got_double = Atan2DoublePacketForm(y, x);
      const double want_double = std::atan2(static_cast<double>(y), static_cast<double>(x));
      EXPECT_EQ(std::signbit(got_double), std::signbit(want_double));
      EXPECT_NEAR(got_double, want_double, 1e-15) << "atan2(" << y << ", " << x << ")";
    }
  }
  EXPECT_TRUE(std::isnan(Atan2FloatPacketForm(kNan, 1.0f)));
  EXPECT_TRUE(std::isnan(Atan2FloatPacketForm(1.0f, kNan)));
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
