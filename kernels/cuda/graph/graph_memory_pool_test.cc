#include "kernels/cuda/graph/graph_memory_pool.h"

#include <cstdint>
#include <memory>
#include <set>

#include "gtest/gtest.h"

namespace sluice {
namespace cuda {
namespace {

// An allocator that counts what is outstanding, as the device's stands in here.
class CountingAllocator : public Allocator {
 public:
  std::string Name() const override { return "counting"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override {
    void* ptr = base_.AllocateRaw(alignment, num_bytes);
    live_.insert(ptr);
    return ptr;
  }
  void DeallocateRaw(void* ptr) override {
    EXPECT_EQ(live_.erase(ptr), 1u) << "freed twice or never allocated";
    base_.DeallocateRaw(ptr);
  }
  size_t live() const { return live_.size(); }

 private:
  CpuAllocator base_;
  std::set<void*> live_;
};

TEST(GraphMemoryPoolTest, KeepsWhatItHandedOutUntilRetired) {
  CountingAllocator base;
  auto owned = std::make_unique<GraphMemoryPool>(&base);
  GraphMemoryPool* pool = owned.get();
  void* a = pool->AllocateRaw(64, 1000);
  void* b = pool->AllocateRaw(64, 4000);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(pool->bytes_held(), 5000u);
  // Freed buffers stay the pool's: the graph replays on them.
  pool->DeallocateRaw(a);
  EXPECT_EQ(base.live(), 2u);
  // A later allocation of the capture reuses a kept one that fits (not one far too large).
  EXPECT_EQ(pool->AllocateRaw(64, 900), a);
  void* c = pool->AllocateRaw(64, 100);
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  EXPECT_EQ(base.live(), 3u);
  pool->DeallocateRaw(a);
  pool->DeallocateRaw(c);
  // Retiring gives back what no tensor uses; what is still used goes back when freed.
  pool->Retire();
  EXPECT_EQ(base.live(), 1u);
  EXPECT_EQ(pool->bytes_held(), 4000u);
  pool->DeallocateRaw(b);
  EXPECT_EQ(base.live(), 0u);
  EXPECT_EQ(pool->bytes_held(), 0u);
  // After retirement the pool only passes requests through.
  void* d = pool->AllocateRaw(64, 10);
  pool->DeallocateRaw(d);
  EXPECT_EQ(base.live(), 0u);
}

TEST(GraphMemoryPoolTest, ReuseRespectsAlignment) {
  CountingAllocator base;
  auto owned = std::make_unique<GraphMemoryPool>(&base);
  GraphMemoryPool* pool = owned.get();
  void* a = pool->AllocateRaw(64, 256);
  pool->DeallocateRaw(a);
  void* b = pool->AllocateRaw(4096, 256);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 4096, 0u);
  pool->DeallocateRaw(b);
  pool->Retire();
  EXPECT_EQ(base.live(), 0u);
}

}  // namespace
}  // namespace cuda
}  // namespace sluice
