#include "kernels/cpu/wrapping_arithmetic.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(WrappingArithmeticTest, SignedOverflowWraps) {
  EXPECT_EQ(WrappingAdd<int8_t>(127, 1), -128);
  EXPECT_EQ(WrappingSub<int8_t>(-128, 1), 127);
  EXPECT_EQ(WrappingMul<int16_t>(256, 256), 0);
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(WrappingAdd<int32_t>(kMax, 1), kMin);
  EXPECT_EQ(WrappingSub<int32_t>(kMin, 1), kMax);
  EXPECT_EQ(WrappingMul<int32_t>(kMin, -1), kMin);
  EXPECT_EQ(WrappingMul<int64_t>(int64_t{1} << 62, 4), 0);
}

TEST(WrappingArithmeticTest, NarrowUnsignedDoesNotPromoteIntoOverflow) {
  // 65535 * 65535 overflows int, the type uint16 promotes to; the product wraps to 1.
  EXPECT_EQ(WrappingMul<uint16_t>(65535, 65535), 1);
  EXPECT_EQ(WrappingAdd<uint8_t>(255, 2), 1);
  EXPECT_EQ(WrappingSub<uint32_t>(0, 1), 4294967295u);
  EXPECT_EQ(WrappingMul<uint64_t>(uint64_t{1} << 63, 2), 0u);
}

TEST(WrappingArithmeticTest, FloatingPointIsPlain) {
  EXPECT_EQ(WrappingAdd(1.5f, 2.25f), 3.75f);
  EXPECT_EQ(WrappingSub(1.0, 3.0), -2.0);
  EXPECT_EQ(WrappingMul(3.0f, -0.5f), -1.5f);
}

}  // namespace
}  // namespace sluice
