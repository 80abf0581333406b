#include "graph/large_block_cache.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(LargeBlockCacheTest, TakesTheSmallestBlockThatFits) {
  LargeBlockCache cache(1 << 20);
  void* small = std::malloc(1000);
  void* large = std::malloc(1200);
  ASSERT_TRUE(cache.Put(large, 1200));
  ASSERT_TRUE(cache.Put(small, 1000));
  EXPECT_EQ(cache.cached_bytes(), 2200u);

  size_t size = 0;
  EXPECT_EQ(cache.Take(900, &size), small);
  EXPECT_EQ(size, 1000u);
  EXPECT_EQ(cache.Take(900, &size), nullptr);  // 1200 > 900 + 225
  EXPECT_EQ(cache.Take(1000, &size), large);  // 1200 <= 1000 + 250
  EXPECT_EQ(size, 1200u);
  EXPECT_EQ(cache.Take(900, &size), nullptr);
  EXPECT_EQ(cache.cached_bytes(), 0u);
  std::free(small);
  std::free(large);
}

TEST(LargeBlockCacheTest, RefusesBlocksFarLargerThanTheRequest) {
  LargeBlockCache cache(1 << 20);
  void* block = std::malloc(2000);
  ASSERT_TRUE(cache.Put(block, 2000));
  size_t size = 0;
  EXPECT_EQ(cache.Take(1500, &size), nullptr);  // 2000 > 1500 + 375: too wasteful
  EXPECT_EQ(cache.Take(2001, &size), nullptr);  // too small
  EXPECT_EQ(cache.Take(1600, &size), block);
  std::free(block);
}

TEST(LargeBlockCacheTest, StaysWithinCapacityAndFreesWhatItHolds) {
  LargeBlockCache cache(3000);
  void* a = std::malloc(2000);
  void* b = std::malloc(2000);
  EXPECT_TRUE(cache.Put(a, 2000));
  EXPECT_FALSE(cache.Put(b, 2000));  // would hold 4000 > 3000: the caller keeps it
  EXPECT_EQ(cache.cached_bytes(), 2000u);
  std::free(b);
  // `a` is freed by the destructor (LeakSanitizer checks this under --config=asan).
}

}  // namespace
}  // namespace sluice
