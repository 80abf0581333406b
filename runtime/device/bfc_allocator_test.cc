#include "runtime/device/bfc_allocator.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr size_t kKiB = 1024;
constexpr size_t kMiB = 1024 * 1024;

// What the sub-allocator saw; shared so tests can read it after the allocator is gone.
struct SubAllocatorLog {
  int alloc_calls = 0;
  int free_calls = 0;
  size_t bytes_outstanding = 0;
  std::vector<size_t> regions;  // the size of every region handed out, in order
  // The device's memory: Alloc fails when the outstanding bytes would pass it.
  size_t capacity = std::numeric_limits<size_t>::max();
};

// Host memory standing in for a device. Called under the BfcAllocator's lock.
class HostSubAllocator : public SubAllocator {
 public:
  explicit HostSubAllocator(std::shared_ptr<SubAllocatorLog> log) : log_(std::move(log)) {}
  ~HostSubAllocator() override { EXPECT_TRUE(live_.empty()) << "regions never freed"; }

  void* Alloc(size_t alignment, size_t num_bytes) override {
    ++log_->alloc_calls;
    EXPECT_GE(alignment, 256u);
    EXPECT_EQ(alignment & (alignment - 1), 0u);
    if (num_bytes > log_->capacity - log_->bytes_outstanding) return nullptr;
    void* ptr = ::operator new(num_bytes, std::align_val_t(alignment), std::nothrow);
    if (ptr == nullptr) return nullptr;
    live_[ptr] = {num_bytes, alignment};
    log_->bytes_outstanding += num_bytes;
    log_->regions.push_back(num_bytes);
    return ptr;
  }

  void Free(void* ptr, size_t num_bytes) override {
    ++log_->free_calls;
    auto it = live_.find(ptr);
    ASSERT_NE(it, live_.end()) << "freed a region it was not given";
    EXPECT_EQ(it->second.first, num_bytes);
    ::operator delete(ptr, std::align_val_t(it->second.second));
    log_->bytes_outstanding -= num_bytes;
    live_.erase(it);
  }

 private:
  std::shared_ptr<SubAllocatorLog> log_;
  std::map<void*, std::pair<size_t, size_t>> live_;  // ptr -> (bytes, alignment)
};

class BfcAllocatorTest : public ::testing::Test {
 protected:
  std::unique_ptr<BfcAllocator> Make(size_t memory_limit, bool allow_growth = true) {
    BfcAllocator::Options options;
    options.allow_growth = allow_growth;
    return std::make_unique<BfcAllocator>(std::make_unique<HostSubAllocator>(log_), memory_limit,
                                          "bfc_test", options);
  }

  std::shared_ptr<SubAllocatorLog> log_ = std::make_shared<SubAllocatorLog>();
};

char* Alloc(BfcAllocator& allocator, size_t bytes) {
  return static_cast<char*>(allocator.AllocateRaw(64, bytes));
}

TEST_F(BfcAllocatorTest, ReturnsPointersAlignedTo256) {
  auto allocator = Make(16 * kMiB);
  std::vector<void*> ptrs;
  for (size_t alignment = 1; alignment <= 256; alignment *= 2) {
    for (size_t bytes : {1, 7, 255, 256, 257, 1000, 4099}) {
      void* ptr = allocator->AllocateRaw(alignment, bytes);
      ASSERT_NE(ptr, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % 256, 0u) << alignment << " " << bytes;
      ptrs.push_back(ptr);
    }
  }
  // Larger alignments are refused rather than served by carving.
  EXPECT_EQ(allocator->AllocateRaw(512, 1024), nullptr);
  for (void* ptr : ptrs) allocator->DeallocateRaw(ptr);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 0);
}

TEST_F(BfcAllocatorTest, ZeroBytesYieldsUniqueFreeablePointers) {
  auto allocator = Make(16 * kMiB);
  void* a = allocator->AllocateRaw(64, 0);
  void* b = allocator->AllocateRaw(64, 0);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 512);
  allocator->DeallocateRaw(nullptr);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 512);
  allocator->DeallocateRaw(a);
  allocator->DeallocateRaw(b);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 0);
}

TEST_F(BfcAllocatorTest, IgnoresPointersItDidNotHandOut) {
  auto allocator = Make(16 * kMiB);
  char* p = Alloc(*allocator, 1024);
  ASSERT_NE(p, nullptr);
  int local = 0;
  allocator->DeallocateRaw(&local);
  allocator->DeallocateRaw(p + 256);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 1024);
  allocator->DeallocateRaw(p);
  allocator->DeallocateRaw(p);  // a double free must not put the chunk in a bin twice
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 0);
  char* a = Alloc(*allocator, 1024);
  char* b = Alloc(*allocator, 1024);
  EXPECT_EQ(a, p);
  EXPECT_EQ(b, p + 1024);
  allocator->DeallocateRaw(a);
  allocator->DeallocateRaw(b);
}

TEST_F(BfcAllocatorTest, BestFitChoosesSmallestFittingChunk) {
  auto allocator = Make(16 * kMiB);
  // The larger free chunk comes first, so first fit would pick it.
  char* large = Alloc(*allocator, 16 * kKiB);
  char* guard1 = Alloc(*allocator, 256);
  char* small = Alloc(*allocator, 4 * kKiB);
  char* guard2 = Alloc(*allocator, 256);
  allocator->DeallocateRaw(large);
  allocator->DeallocateRaw(small);

  EXPECT_EQ(Alloc(*allocator, 3 * kKiB), small);
  // What is left of `small` (1 KiB) no longer fits 4 KiB: the next best is `large`.
  EXPECT_EQ(Alloc(*allocator, 4 * kKiB), large);
  allocator->DeallocateRaw(small);
  allocator->DeallocateRaw(large);
  allocator->DeallocateRaw(guard1);
  allocator->DeallocateRaw(guard2);
  EXPECT_EQ(log_->alloc_calls, 1);
}

TEST_F(BfcAllocatorTest, BestFitTakesLowestAddressAmongEqualSizes) {
  auto allocator = Make(16 * kMiB);
  char* first = Alloc(*allocator, 8 * kKiB);
  char* guard1 = Alloc(*allocator, 256);
  char* second = Alloc(*allocator, 8 * kKiB);
  char* guard2 = Alloc(*allocator, 256);
  ASSERT_LT(first, second);
  allocator->DeallocateRaw(second);
  allocator->DeallocateRaw(first);
  EXPECT_EQ(Alloc(*allocator, 8 * kKiB), first);
  EXPECT_EQ(Alloc(*allocator, 8 * kKiB), second);
  for (char* ptr : {first, second, guard1, guard2}) allocator->DeallocateRaw(ptr);
}

TEST_F(BfcAllocatorTest, SplitsAndCoalescesNeighbours) {
  auto allocator = Make(16 * kMiB);
  char* a = Alloc(*allocator, 64 * kKiB);
  char* b = Alloc(*allocator, 64 * kKiB);
  char* c = Alloc(*allocator, 64 * kKiB);
  char* d = Alloc(*allocator, 64 * kKiB);
  char* guard = Alloc(*allocator, 256);
  // Split off one region, front to back.
  ASSERT_EQ(b, a + 64 * kKiB);
  ASSERT_EQ(c, b + 64 * kKiB);
  ASSERT_EQ(d, c + 64 * kKiB);
  ASSERT_EQ(guard, d + 64 * kKiB);

  allocator->DeallocateRaw(b);
  allocator->DeallocateRaw(d);
  allocator->DeallocateRaw(c);  // merges with b below and d above
  allocator->DeallocateRaw(a);  // merges with b..d above
  EXPECT_EQ(Alloc(*allocator, 256 * kKiB), a);
  EXPECT_EQ(log_->alloc_calls, 1);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, static_cast<int64_t>(256 * kKiB + 256));
  allocator->DeallocateRaw(a);
  allocator->DeallocateRaw(guard);
}

TEST_F(BfcAllocatorTest, HandsOutChunkWholeWhenRemainderIsSmall) {
  auto allocator = Make(16 * kMiB);
  char* x = Alloc(*allocator, 8 * kKiB);
  char* guard = Alloc(*allocator, 256);
  allocator->DeallocateRaw(x);

  // 512 bytes left over is under an eighth of the request: the chunk goes whole.
  EXPECT_EQ(Alloc(*allocator, 7 * kKiB + 512), x);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, static_cast<int64_t>(8 * kKiB + 256));
  allocator->DeallocateRaw(x);

  // Half left over: split, and the rest is served next.
  EXPECT_EQ(Alloc(*allocator, 4 * kKiB), x);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, static_cast<int64_t>(4 * kKiB + 256));
  EXPECT_EQ(Alloc(*allocator, 4 * kKiB), x + 4 * kKiB);
  allocator->DeallocateRaw(x);
  allocator->DeallocateRaw(x + 4 * kKiB);
  allocator->DeallocateRaw(guard);
}

TEST_F(BfcAllocatorTest, NoSubAllocatorCallPerAllocationAfterWarmUp) {
  auto allocator = Make(64 * kMiB);
  const std::vector<size_t> sizes = {1000, 4096, 70000, 300, 0, kMiB};
  std::vector<void*> ptrs;
  for (int step = 0; step < 1000; ++step) {
    for (size_t bytes : sizes) {
      ptrs.push_back(allocator->AllocateRaw(64, bytes));
      ASSERT_NE(ptrs.back(), nullptr);
    }
    for (void* ptr : ptrs) allocator->DeallocateRaw(ptr);
    ptrs.clear();
    ASSERT_EQ(log_->alloc_calls, 1) << "step " << step;
  }
  EXPECT_EQ(allocator->GetStats().num_allocs, 6000);
}

TEST_F(BfcAllocatorTest, GrowsByDoublingRegionsUpToTheLimit) {
  auto allocator = Make(16 * kMiB);
  char* p2 = Alloc(*allocator, 2 * kMiB);
  char* p4 = Alloc(*allocator, 4 * kMiB);
  char* p8 = Alloc(*allocator, 8 * kMiB);
  ASSERT_NE(p2, nullptr);
  ASSERT_NE(p4, nullptr);
  ASSERT_NE(p8, nullptr);
  EXPECT_THAT(log_->regions, ElementsAre(2 * kMiB, 4 * kMiB, 8 * kMiB));

  // 2 MiB of the limit is left: a 4 MiB request fails without asking for a region.
  EXPECT_EQ(Alloc(*allocator, 4 * kMiB), nullptr);
  EXPECT_EQ(log_->alloc_calls, 3);

  // The next region would be 16 MiB; what is left of the limit caps it.
  char* p1 = Alloc(*allocator, kMiB);
  ASSERT_NE(p1, nullptr);
  EXPECT_THAT(log_->regions, ElementsAre(2 * kMiB, 4 * kMiB, 8 * kMiB, 2 * kMiB));
  EXPECT_EQ(allocator->region_bytes(), 16 * kMiB);
  EXPECT_EQ(Alloc(*allocator, 2 * kMiB), nullptr);
  EXPECT_EQ(log_->alloc_calls, 4);

  // Still usable: freed memory is served again.
  allocator->DeallocateRaw(p4);
  EXPECT_EQ(Alloc(*allocator, 4 * kMiB), p4);
  EXPECT_EQ(log_->alloc_calls, 4);
  EXPECT_LE(log_->bytes_outstanding, 16 * kMiB);
  for (char* ptr : {p1, p2, p4, p8}) allocator->DeallocateRaw(ptr);
}

TEST_F(BfcAllocatorTest, RequestAboveLimitFailsWithoutSubAllocatorCall) {
  auto allocator = Make(16 * kMiB);
  EXPECT_EQ(Alloc(*allocator, 16 * kMiB + 1), nullptr);
  EXPECT_EQ(Alloc(*allocator, std::numeric_limits<size_t>::max()), nullptr);
  EXPECT_EQ(log_->alloc_calls, 0);
  char* all = Alloc(*allocator, 16 * kMiB);
  ASSERT_NE(all, nullptr);
  EXPECT_THAT(log_->regions, ElementsAre(16 * kMiB));
  allocator->DeallocateRaw(all);
}

TEST_F(BfcAllocatorTest, WithoutGrowthTakesWholeLimitAsOneRegion) {
  auto allocator = Make(16 * kMiB, /*allow_growth=*/false);
  char* small = Alloc(*allocator, 256);
  EXPECT_THAT(log_->regions, ElementsAre(16 * kMiB));
  char* large = Alloc(*allocator, 15 * kMiB);
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(Alloc(*allocator, 2 * kMiB), nullptr);
  allocator->DeallocateRaw(small);
  allocator->DeallocateRaw(large);
  char* all = Alloc(*allocator, 16 * kMiB);
  EXPECT_NE(all, nullptr);
  EXPECT_EQ(log_->alloc_calls, 1);
  EXPECT_EQ(allocator->region_bytes(), 16 * kMiB);
  allocator->DeallocateRaw(all);
}

TEST_F(BfcAllocatorTest, ReleasesFreeRegionsWhenSubAllocatorFails) {
  log_->capacity = 5 * kMiB;
  auto allocator = Make(64 * kMiB);
  allocator->DeallocateRaw(Alloc(*allocator, kMiB));  // leaves a free 2 MiB region

  // A 4 MiB region does not fit beside it on the device: the free region goes, then retry.
  char* p = Alloc(*allocator, 3 * kMiB);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(log_->alloc_calls, 3);
  EXPECT_EQ(log_->free_calls, 1);
  EXPECT_EQ(allocator->region_bytes(), 4 * kMiB);
  EXPECT_EQ(log_->bytes_outstanding, 4 * kMiB);

  // No free region to give back: the request fails and the allocator stays usable.
  EXPECT_EQ(Alloc(*allocator, 2 * kMiB), nullptr);
  EXPECT_EQ(log_->free_calls, 1);
  char* q = Alloc(*allocator, 512 * kKiB);
  EXPECT_NE(q, nullptr);
  allocator->DeallocateRaw(p);
  allocator->DeallocateRaw(q);
}

TEST_F(BfcAllocatorTest, ReleasesFreeRegionsWhenLimitIsReached) {
  auto allocator = Make(8 * kMiB);
  allocator->DeallocateRaw(Alloc(*allocator, kMiB));  // leaves a free 2 MiB region
  char* p = Alloc(*allocator, 7 * kMiB);
  ASSERT_NE(p, nullptr);
  EXPECT_THAT(log_->regions, ElementsAre(2 * kMiB, 7 * kMiB));
  EXPECT_EQ(log_->free_calls, 1);
  EXPECT_EQ(allocator->region_bytes(), 7 * kMiB);
  allocator->DeallocateRaw(p);
}

TEST_F(BfcAllocatorTest, TracksStats) {
  auto allocator = Make(16 * kMiB);
  EXPECT_EQ(allocator->GetStats().bytes_limit, static_cast<int64_t>(16 * kMiB));
  void* a = allocator->AllocateRaw(64, 1000);  // 1 KiB chunk
  void* b = allocator->AllocateRaw(64, 5000);  // 5 KiB chunk
  AllocatorStats stats = allocator->GetStats();
  EXPECT_EQ(stats.num_allocs, 2);
  EXPECT_EQ(stats.bytes_in_use, 6 * 1024);
  EXPECT_EQ(stats.peak_bytes_in_use, 6 * 1024);
  EXPECT_EQ(stats.largest_alloc_size, 5 * 1024);

  allocator->DeallocateRaw(b);
  stats = allocator->GetStats();
  EXPECT_EQ(stats.bytes_in_use, 1024);
  EXPECT_EQ(stats.peak_bytes_in_use, 6 * 1024);

  allocator->ClearStats();
  stats = allocator->GetStats();
  EXPECT_EQ(stats.num_allocs, 0);
  EXPECT_EQ(stats.bytes_in_use, 1024);
  EXPECT_EQ(stats.peak_bytes_in_use, 1024);
  EXPECT_EQ(stats.largest_alloc_size, 0);
  EXPECT_EQ(stats.bytes_limit, static_cast<int64_t>(16 * kMiB));

  allocator->DeallocateRaw(a);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 0);
}

TEST_F(BfcAllocatorTest, MemorySummaryStatesLimitUseAndFreeSpace) {
  auto allocator = Make(16 * kMiB);
  char* a = Alloc(*allocator, kMiB);
  char* guard = Alloc(*allocator, 512 * kKiB);
  allocator->DeallocateRaw(a);
  char* b = Alloc(*allocator, 768 * kKiB);
  // In use: b (768 KiB, where a was) and guard (512 KiB). Free: 256 KiB after b, 512 KiB
  // at the end of the 2 MiB region, and the 14 MiB of the limit not yet in a region.
  EXPECT_EQ(allocator->MemorySummary(),
            "bfc_test: 1.25MiB in use in 2 chunks; 14.75MiB free of 16.00MiB limit "
            "(768.00KiB in 2 free chunks of 1 region, largest free chunk 512.00KiB; "
            "14.00MiB not yet reserved)");
  allocator->DeallocateRaw(b);
  allocator->DeallocateRaw(guard);
  EXPECT_THAT(allocator->MemorySummary(), HasSubstr("0B in use in 0 chunks"));
  EXPECT_THAT(allocator->MemorySummary(), HasSubstr("largest free chunk 2.00MiB"));
}

TEST_F(BfcAllocatorTest, ConcurrentAllocationsNeverOverlap) {
  auto allocator = Make(64 * kMiB);
  constexpr int kThreads = 4;
  constexpr int kSteps = 5000;
  constexpr size_t kMaxBytes = 128 * kKiB;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&allocator, t] {
      std::mt19937 rng(1234 + t);
      struct Live {
        char* ptr;
        size_t bytes;
        unsigned char pattern;
      };
      std::vector<Live> live;
      std::vector<unsigned char> expected(kMaxBytes);
      auto check_and_free = [&](size_t i) {
        const Live buffer = live[i];
        std::memset(expected.data(), buffer.pattern, buffer.bytes);
        EXPECT_EQ(std::memcmp(buffer.ptr, expected.data(), buffer.bytes), 0)
            << "buffer overwritten: chunks overlap";
        allocator->DeallocateRaw(buffer.ptr);
        live[i] = live.back();
        live.pop_back();
      };
      for (int step = 0; step < kSteps; ++step) {
        if (live.size() >= 32 || (!live.empty() && rng() % 2 == 0)) {
          check_and_free(rng() % live.size());
          continue;
        }
        const size_t bytes = rng() % (size_t{1} << (rng() % 18));  // mostly small
        char* ptr = static_cast<char*>(allocator->AllocateRaw(64, bytes));
        ASSERT_NE(ptr, nullptr);
        const auto pattern = static_cast<unsigned char>(rng());
        std::memset(ptr, pattern, bytes);
        live.push_back({ptr, bytes, pattern});
      }
      while (!live.empty()) check_and_free(live.size() - 1);
    });
  }
  for (std::thread& thread : threads) thread.join();
  const AllocatorStats stats = allocator->GetStats();
  EXPECT_EQ(stats.bytes_in_use, 0);
  EXPECT_GT(stats.num_allocs, 0);
  EXPECT_LE(allocator->region_bytes(), 64 * kMiB);
}

TEST_F(BfcAllocatorTest, DestructorReturnsEveryRegion) {
  auto allocator = Make(64 * kMiB);
  std::vector<void*> ptrs;
  for (size_t bytes : {kMiB, 3 * kMiB, 6 * kMiB, 100 * kKiB}) {
    ptrs.push_back(allocator->AllocateRaw(64, bytes));
    ASSERT_NE(ptrs.back(), nullptr);
  }
  EXPECT_GT(log_->alloc_calls, 1);
  for (void* ptr : ptrs) allocator->DeallocateRaw(ptr);
  // A buffer still out when the allocator goes (a caller's bug) does not keep its region.
  ASSERT_NE(allocator->AllocateRaw(64, 4096), nullptr);
  allocator.reset();
  EXPECT_EQ(log_->bytes_outstanding, 0u);
  EXPECT_EQ(log_->free_calls, log_->alloc_calls);
}

}  // namespace
}  // namespace sluice
