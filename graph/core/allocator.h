// Allocator: where tensor buffers come from.
//
// Contract:
//  - Thread-safe: any thread may allocate and free concurrently.
//  - AllocateRaw returns nullptr on failure (including requests the allocator refuses as too
//    large); it never aborts, so callers turn failure into RESOURCE_EXHAUSTED.
//  - DeallocateRaw takes only pointers this allocator returned (or nullptr, a no-op).
//  - An allocator must outlive every buffer it handed out.
//
// CpuAllocator serves host memory aligned to at least kAllocatorAlignment and keeps
// statistics (allocation count, bytes in use and their peak, the largest request). Freed
// blocks of kMinCachedBlockBytes or more are kept in a LargeBlockCache and reused by later
// requests that fit in them (a step's activations recur every step); the statistics count
// requested bytes, so cached blocks are not "in use".
//
// What large blocks hold beyond the requests, live or cached, is bounded: before a block
// comes from the system, the cache frees its oldest blocks until the bytes in use, the
// unused ends of live large blocks and the cached blocks together are at most a quarter
// above the most ever in use (kCacheSlackDivisor). Without the bound, blocks no later
// request fitted piled up: InceptionV3 at batch 32 held 2027 MB where 1439 MB sufficed with
// no cache at all; with it and the cache's any-fit rule, 1540 MB at the same speed.
#ifndef SLUICE_GRAPH_CORE_ALLOCATOR_H_
#define SLUICE_GRAPH_CORE_ALLOCATOR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace sluice {

class LargeBlockCache;  // graph/core/large_block_cache.h; kept out of this header, which custom-op
                        // libraries compile against

// Alignment of every tensor buffer: enough for any SIMD load Eigen or oneDNN issues.
inline constexpr size_t kAllocatorAlignment = 64;

struct AllocatorStats {
  int64_t num_allocs = 0;          // successful allocations since the last ClearStats
  int64_t bytes_in_use = 0;        // requested bytes not yet freed
  int64_t peak_bytes_in_use = 0;   // highest bytes_in_use since the last ClearStats
  int64_t largest_alloc_size = 0;  // largest successful request since the last ClearStats
  int64_t bytes_limit = 0;         // most bytes in use at once (0: no limit of the allocator's)
  std::string DebugString() const;
};

class Allocator {
 public:
  virtual ~Allocator();

  virtual std::string Name() const = 0;
  // `alignment` must be a power of two; the result is aligned to it. Zero bytes yields a
  // valid, unique pointer that must still be deallocated.
  virtual void* AllocateRaw(size_t alignment, size_t num_bytes) = 0;
  virtual void DeallocateRaw(void* ptr) = 0;

  // Allocators without statistics report zeros.
  virtual AllocatorStats GetStats() const;
  // Resets the counters and the peak to the current state (bytes_in_use is kept).
  virtual void ClearStats();
  // What is in use and what is free, for an out-of-memory error; empty if nothing to add.
  virtual std::string MemorySummary() const { return ""; }
};

class CpuAllocator : public Allocator {
 public:
  // Requests above `max_allocation_bytes` fail (return nullptr) without touching the system
  // allocator. The default limit is the machine's physical memory: a larger request can
  // never be served and, with overcommit, might otherwise "succeed" and get the process
  // killed when touched.
  //
  // `cache_bytes` bounds the freed large blocks kept for reuse (0: none). By default it is
  // an eighth of physical memory, or the environment variable SLUICE_CPU_CACHE_MB
  // (megabytes) when set; it is 0 under AddressSanitizer, which must see every free to
  // catch later uses.
  //
  // `bytes_limit` > 0 caps the bytes in use at once (stats' bytes_in_use): a request that
  // would pass it fails, however much memory the machine has. 0: no cap.
  CpuAllocator();
  explicit CpuAllocator(size_t max_allocation_bytes);
  CpuAllocator(size_t max_allocation_bytes, size_t cache_bytes, int64_t bytes_limit = 0);
  // The defaults above, with `bytes_limit`.
  static std::unique_ptr<CpuAllocator> WithBytesLimit(int64_t bytes_limit);
  ~CpuAllocator() override;

  CpuAllocator(const CpuAllocator&) = delete;
  CpuAllocator& operator=(const CpuAllocator&) = delete;

  std::string Name() const override { return "cpu"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override;
  void DeallocateRaw(void* ptr) override;
  AllocatorStats GetStats() const override;
  void ClearStats() override;

  size_t max_allocation_bytes() const { return max_allocation_bytes_; }
  // Bytes of freed blocks held for reuse.
  size_t cached_bytes() const;

  // Blocks from this size up (header and padding included) are cached when freed. Smaller
  // ones come from glibc's heap, which already recycles them cheaply.
  static constexpr size_t kMinCachedBlockBytes = size_t{256} << 10;
  // Bytes in use, plus the unused ends of live large blocks, plus cached blocks stay within
  // 1 + 1/kCacheSlackDivisor times the most ever in use (as far as trimming the cache can
  // make them: live blocks stay).
  static constexpr size_t kCacheSlackDivisor = 4;

 private:
  // The block for a request the caller checked; `counted`: the request is already in
  // bytes_in_use_. Null if the system has no memory for it.
  void* AllocateBlock(size_t alignment, size_t num_bytes, bool counted);
  // Before a new block comes from the system: trims the cache to the bound above, counting
  // the block as in use (`uncounted_bytes`: the part of it not yet in bytes_in_use_).
  void TrimCacheBefore(size_t uncounted_bytes);

  const size_t max_allocation_bytes_;
  const int64_t bytes_limit_;
  const std::unique_ptr<LargeBlockCache> cache_;  // null when caching is off

  // Lock-free counters: allocation sits on every step's hot path.
  std::atomic<int64_t> num_allocs_{0};
  std::atomic<int64_t> bytes_in_use_{0};
  std::atomic<int64_t> peak_bytes_in_use_{0};
  std::atomic<int64_t> largest_alloc_size_{0};
  std::atomic<int64_t> high_water_in_use_{0};  // like the peak, but ClearStats keeps it
  std::atomic<int64_t> large_block_slack_{0};  // block bytes past the request, live blocks
};

// The process-wide CPU allocator; created on first use and never destroyed, so buffers freed
// during static destruction stay valid.
Allocator* DefaultCpuAllocator();

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_ALLOCATOR_H_
