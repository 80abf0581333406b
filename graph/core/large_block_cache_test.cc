#include "graph/core/large_block_cache.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(LargeBlockCacheTest, TakesTheSmallestBlockThatFits) {
  LargeBlockCache cache(1 << 20);
  void* small = std::malloc(1000);
  void* large = std::malloc(5000);
  ASSERT_TRUE(cache.Put(large, 5000));
  ASSERT_TRUE(cache.Put(small, 1000));
  EXPECT_EQ(cache.cached_bytes(), 6000u);

  size_t size = 0;
  EXPECT_EQ(cache.Take(900, &size), small);
  EXPECT_EQ(size, 1000u);
  EXPECT_EQ(cache.Take(5001, &size), nullptr);  // too small
  EXPECT_EQ(cache.Take(900, &size), large);     // five times the request: still a fit
  EXPECT_EQ(size, 5000u);
  EXPECT_EQ(cache.Take(900, &size), nullptr);
  EXPECT_EQ(cache.cached_bytes(), 0u);
  std::free(small);
  std::free(large);
}

TEST(LargeBlockCacheTest, TrimFreesTheBlocksCachedLongestAgo) {
  LargeBlockCache cache(1 << 20);
  void* oldest = std::malloc(3000);
  void* middle = std::malloc(1000);
  void* newest = std::malloc(2000);
  ASSERT_TRUE(cache.Put(oldest, 3000));
  ASSERT_TRUE(cache.Put(middle, 1000));
  ASSERT_TRUE(cache.Put(newest, 2000));
  size_t size = 0;
  // Taking and putting back makes a block new again.
  ASSERT_EQ(cache.Take(3000, &size), oldest);
  ASSERT_TRUE(cache.Put(oldest, 3000));  // order now: middle, newest, oldest

  EXPECT_EQ(cache.Trim(6000), 0u);     // already within
  EXPECT_EQ(cache.Trim(5000), 1000u);  // middle alone brings 6000 to 5000
  EXPECT_EQ(cache.cached_bytes(), 5000u);
  EXPECT_EQ(cache.Take(900, &size), newest);  // middle is gone
  ASSERT_TRUE(cache.Put(newest, 2000));       // order now: oldest, newest
  EXPECT_EQ(cache.Trim(2000), 3000u);         // oldest goes, newest stays
  EXPECT_EQ(cache.Take(1, &size), newest);
  EXPECT_EQ(cache.cached_bytes(), 0u);
  EXPECT_EQ(cache.Trim(0), 0u);
  std::free(newest);
  // `oldest` and `middle` were freed by Trim (LeakSanitizer would report them otherwise, and
  // AddressSanitizer a double free if this test freed them too).
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
