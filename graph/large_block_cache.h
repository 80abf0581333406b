// LargeBlockCache: keeps freed large host blocks for reuse by later requests of about the
// same size.
//
// Why: a model's step allocates the same large activation buffers every time. glibc serves
// blocks above its mmap threshold (at most 32 MiB) with fresh mmap()s and returns them to
// the kernel on free, so every step pays a page fault per 4 KiB page it writes (MobileNetV2
// at batch 32: 775 ms per step with fresh pages, 531 ms with reused ones). Keeping the
// blocks avoids both the system calls and the faults.
//
// Contract:
//  - Blocks are opaque (base pointer, size in bytes); the cache never touches their memory.
//  - Take(n) returns the smallest cached block whose size is in [n, n + n/4], or nullptr;
//    best fit keeps the waste of a reused block bounded.
//  - Put() keeps a block unless that would take the cached total above the capacity, in
//    which case it returns false and the caller frees the block itself.
//  - The destructor frees every cached block with std::free (blocks must come from
//    malloc-family allocation).
//  - Thread-safe; a mutex guards the index (large blocks are rare next to the work done
//    with them, so contention is negligible).
#ifndef SLUICE_GRAPH_LARGE_BLOCK_CACHE_H_
#define SLUICE_GRAPH_LARGE_BLOCK_CACHE_H_

#include <cstddef>
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

  // A cached block of at least `min_bytes` (and at most a quarter more), removed from the
  // cache; its size goes to *block_bytes. nullptr when none fits.
  void* Take(size_t min_bytes, size_t* block_bytes);

  // Offers a block of `block_bytes` for reuse; false when the cache is full.
  bool Put(void* base, size_t block_bytes);

  size_t cached_bytes() const;
  size_t capacity_bytes() const { return capacity_bytes_; }

 private:
  const size_t capacity_bytes_;
  mutable absl::Mutex mu_;
  std::multimap<size_t, void*> blocks_ ABSL_GUARDED_BY(mu_);  // by size, for best fit
  size_t cached_bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace sluice

#endif  // SLUICE_GRAPH_LARGE_BLOCK_CACHE_H_
