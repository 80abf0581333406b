#include "graph/core/small_block_cache.h"

#include <cstdlib>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace small_block_cache {
namespace {

bool Enabled() { return ClassBytes(1) != 0; }

TEST(SmallBlockCacheTest, ClassSizesRoundUpToSteps) {
  if (!Enabled()) GTEST_SKIP() << "disabled under AddressSanitizer";
  EXPECT_EQ(ClassBytes(0), 0u);
  EXPECT_EQ(ClassBytes(1), 64u);
  EXPECT_EQ(ClassBytes(64), 64u);
  EXPECT_EQ(ClassBytes(65), 128u);
  EXPECT_EQ(ClassBytes(1000), 1024u);
  EXPECT_EQ(ClassBytes(1024), 1024u);
  EXPECT_EQ(ClassBytes(1025), 0u);
}

TEST(SmallBlockCacheTest, ReusesTheLastFreedBlockOfItsClass) {
  if (!Enabled()) GTEST_SKIP() << "disabled under AddressSanitizer";
  const size_t before = ThreadCachedBytes();
  void* a = std::malloc(128);
  void* b = std::malloc(128);
  void* c = std::malloc(256);
  ASSERT_TRUE(Put(a, 128));
  ASSERT_TRUE(Put(b, 128));
  ASSERT_TRUE(Put(c, 256));
  EXPECT_EQ(ThreadCachedBytes(), before + 512);
  EXPECT_EQ(Take(256), c);
  EXPECT_EQ(Take(128), b);  // last in, first out: the block most likely still in cache
  EXPECT_EQ(Take(128), a);
  EXPECT_EQ(ThreadCachedBytes(), before);
  // Nothing of a class nobody freed.
  EXPECT_EQ(Take(1024), nullptr);
  std::free(a);
  std::free(b);
  std::free(c);
}

TEST(SmallBlockCacheTest, RefusesBlocksBeyondTheThreadCap) {
  if (!Enabled()) GTEST_SKIP() << "disabled under AddressSanitizer";
  std::thread worker([] {
    std::vector<void*> kept;
    for (;;) {
      void* block = std::malloc(kMaxBlockBytes);
      if (!Put(block, kMaxBlockBytes)) {
        std::free(block);
        break;
      }
      kept.push_back(block);
    }
    EXPECT_EQ(kept.size(), kMaxThreadBytes / kMaxBlockBytes);
    EXPECT_EQ(ThreadCachedBytes(), kMaxThreadBytes);
    // Half are taken back; the thread's exit frees the rest.
    for (size_t i = 0; i < kept.size() / 2; ++i) std::free(Take(kMaxBlockBytes));
    EXPECT_EQ(ThreadCachedBytes(), kMaxThreadBytes / 2);
  });
  worker.join();
}

TEST(SmallBlockCacheTest, EachThreadHasItsOwnLists) {
  if (!Enabled()) GTEST_SKIP() << "disabled under AddressSanitizer";
  void* block = std::malloc(64);
  ASSERT_TRUE(Put(block, 64));
  void* seen_elsewhere = &block;  // any non-null value
  std::thread other([&seen_elsewhere] { seen_elsewhere = Take(64); });
  other.join();
  EXPECT_EQ(seen_elsewhere, nullptr);
  EXPECT_EQ(Take(64), block);
  std::free(block);
}

}  // namespace
}  // namespace small_block_cache
}  // namespace sluice
