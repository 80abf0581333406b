// LargeBlockCache: keeps freed large host blocks for reuse by later requests that fit in them.
//
// Why: a model's step allocates the same large activation buffers every time. glibc serves
// blocks above its mmap threshold (at most 32 MiB) with fresh mmap()s and returns them to
// the kernel on free, so every step pays a page fault per 4 KiB page it writes (MobileNetV2
// at batch 32: 775 ms per step with fresh pages, 531 ms with reused ones). Keeping the
// blocks avoids both the system calls and the faults.
//
// Contract:
//  - Blocks are opaque (base pointer, size in bytes); the cache never touches their memory.
//  - Take(n) returns the smallest cached block of at least n bytes, or nullptr. However much
//    larger, a cached block's pages are already resident: using it for a smaller request
//    costs no memory a fresh block would not, where refusing it (an earlier rule took only
//    blocks at most a quarter larger) left blocks of sizes no later request fitted piling up
//    while new ones were mapped (EfficientNetB0 at batch 32: 806 MB held, 581 MB with any
//    fit). The owner bounds what is held in all (Trim).
//  - Put() keeps a block unless that would take the cached total above the capacity, in
//    which case it returns false and the caller frees the block itself.
//  - Trim(keep) frees the blocks cached longest ago until at most `keep` bytes remain: the
//    owner calls it to bound what the process holds (CpuAllocator, on a miss).
//  - The destructor frees every cached block with std::free (blocks must come from
//    malloc-family allocation).
//  - Thread-safe; a mutex guards the index (large blocks are rare next to the work done
//    with them, so contention is negligible).
#ifndef SLUICE_GRAPH_CORE_LARGE_BLOCK_CACHE_H_
#define SLUICE_GRAPH_CORE_LARGE_BLOCK_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <map>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace sluice {

class LargeBlockCache {
 public:
  explicit LargeBlockCache(size_t capacity_bytes) : capacity_bytes_(capacity_bytes) {}
  ~LargeBlockCache();

  LargeBlockCache(const LargeBlockCache&) = delete;
  LargeBlockCache& operator=(const LargeBlockCache&) = delete;

  // The smallest cached block of at least `min_bytes`, removed from the cache; its size goes
  // to *block_bytes. nullptr when none is that large.
  void* Take(size_t min_bytes, size_t* block_bytes);

  // Offers a block of `block_bytes` for reuse; false when the cache is full.
  bool Put(void* base, size_t block_bytes);

  // Frees cached blocks, least recently put first, until at most `keep_bytes` stay cached;
  // returns the bytes freed.
  size_t Trim(size_t keep_bytes);

  size_t cached_bytes() const;
  size_t capacity_bytes() const { return capacity_bytes_; }

 private:
  const size_t capacity_bytes_;
  struct Block {
    void* base;
    uint64_t put_order;  // key in by_age_
  };
  using BySize = std::multimap<size_t, Block>;

  mutable absl::Mutex mu_;
  BySize blocks_ ABSL_GUARDED_BY(mu_);                                // by size, for best fit
  std::map<uint64_t, BySize::iterator> by_age_ ABSL_GUARDED_BY(mu_);  // oldest first, for Trim
  uint64_t next_put_order_ ABSL_GUARDED_BY(mu_) = 0;
  size_t cached_bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_LARGE_BLOCK_CACHE_H_
