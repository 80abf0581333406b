#include "graph/core/size_arithmetic.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST(AddWithoutOverflowTest, Sums) {
  EXPECT_EQ(AddWithoutOverflow(6, 7), 13);
  EXPECT_EQ(AddWithoutOverflow(0, kInt64Max), kInt64Max);
  EXPECT_EQ(AddWithoutOverflow(kInt64Max - 2, 2), kInt64Max);
  EXPECT_EQ(AddWithoutOverflow(kInt64Max, 2), -1);
  EXPECT_EQ(AddWithoutOverflow(int64_t{1} << 62, int64_t{1} << 62), -1);
  EXPECT_EQ(AddWithoutOverflow(-1, 5), -1);
  EXPECT_EQ(AddWithoutOverflow(5, -1), -1);
}

TEST(AddWithoutOverflowTest, MultiplyComesAlong) {
  EXPECT_EQ(MultiplyWithoutOverflow(6, 7), 42);
  EXPECT_EQ(MultiplyWithoutOverflow(int64_t{1} << 32, int64_t{1} << 31), -1);
}

}  // namespace
}  // namespace sluice
