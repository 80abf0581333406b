#include "numerics/float_environment.h"

#include <cfenv>
#include <cmath>
#include <thread>

#include "gtest/gtest.h"

namespace sluice {
namespace numerics {
namespace {

// Volatile operands, so that the compiler cannot fold the arithmetic at build time (which
// would follow IEEE 754 whatever the thread's mode).
float AddFloat(volatile float a, volatile float b) { return a + b; }
float MulFloat(volatile float a, volatile float b) { return a * b; }
double AddDouble(volatile double a, volatile double b) { return a + b; }

constexpr float kSubnormalFloat = 1e-40f;
constexpr double kSubnormalDouble = 1e-310;

TEST(FloatEnvironmentTest, ThreadsStartWithoutFlushing) {
  EXPECT_FALSE(FlushingDenormals());
  EXPECT_EQ(AddFloat(kSubnormalFloat, 0.0f), kSubnormalFloat);
  const float product = MulFloat(1e-20f, 1e-20f);  // about 1e-40: subnormal
  EXPECT_GT(product, 0.0f);
  EXPECT_LT(product, 1.17549435e-38f);
}

TEST(FloatEnvironmentTest, ScopeFlushesOperandsAndResultsThenRestores) {
  {
    const ScopedFlushDenormals flush;
    EXPECT_TRUE(FlushingDenormals());
    EXPECT_EQ(AddFloat(kSubnormalFloat, 0.0f), 0.0f);  // a subnormal operand reads as 0
    EXPECT_EQ(MulFloat(1e-20f, 1e-20f), 0.0f);         // a subnormal result is flushed
    EXPECT_EQ(AddDouble(kSubnormalDouble, 0.0), 0.0);  // double too
    EXPECT_EQ(AddFloat(1.5e-38f, 0.0f), 1.5e-38f);     // normal numbers are untouched
    EXPECT_EQ(MulFloat(-1e-20f, 1e-20f), 0.0f);
    EXPECT_TRUE(std::signbit(MulFloat(-1e-20f, 1e-20f)));  // flushed to a signed zero
  }
  EXPECT_FALSE(FlushingDenormals());
  EXPECT_EQ(AddFloat(kSubnormalFloat, 0.0f), kSubnormalFloat);
  EXPECT_EQ(AddDouble(kSubnormalDouble, 0.0), kSubnormalDouble);
}

TEST(FloatEnvironmentTest, NestedScopesRestoreOnlyAtTheOutermost) {
  {
    const ScopedFlushDenormals outer;
    {
      const ScopedFlushDenormals inner;
      EXPECT_TRUE(FlushingDenormals());
    }
    EXPECT_TRUE(FlushingDenormals());
  }
  EXPECT_FALSE(FlushingDenormals());
}

TEST(FloatEnvironmentTest, ScopeRoundsToNearestAndGivesTheCallersRoundingBack) {
  ASSERT_EQ(std::fesetround(FE_UPWARD), 0);
  {
    const ScopedFlushDenormals flush;
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
    EXPECT_EQ(AddFloat(1.0f, 1e-8f), 1.0f);  // rounded to nearest, not up
  }
  EXPECT_EQ(std::fegetround(), FE_UPWARD);
  EXPECT_EQ(AddFloat(1.0f, 1e-8f), std::nextafter(1.0f, 2.0f));
  std::fesetround(FE_TONEAREST);
}

TEST(FloatEnvironmentTest, ExceptionFlagsRaisedInsideStayRaised) {
  std::feclearexcept(FE_ALL_EXCEPT);
  {
    const ScopedFlushDenormals flush;
    EXPECT_EQ(AddFloat(1.0f, 1e-8f), 1.0f);  // inexact
  }
  EXPECT_NE(std::fetestexcept(FE_INEXACT), 0);
  std::feclearexcept(FE_ALL_EXCEPT);
}

TEST(FloatEnvironmentTest, AnotherThreadTakesTheModeItIsGiven) {
  uint64_t mode = 0;
  {
    const ScopedFlushDenormals flush;
    mode = DenormalMode();
  }
  float flushed = -1.0f;
  bool was_flushing = true;
  std::thread worker([&] {
    was_flushing = FlushingDenormals();
    SetDenormalMode(mode);
    flushed = AddFloat(kSubnormalFloat, 0.0f);
    SetDenormalMode(0);
  });
  worker.join();
  EXPECT_FALSE(was_flushing);  // a thread started from a thread that does not flush
  EXPECT_EQ(flushed, 0.0f);
}

}  // namespace
}  // namespace numerics
}  // namespace sluice
