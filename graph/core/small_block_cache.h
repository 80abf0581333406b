// SmallBlockCache: per-thread free lists of small host blocks, for CpuAllocator.
//
// Why: scalar and other small tensors are allocated and freed once per kernel run. glibc's
// per-thread cache keeps at most 7 free chunks per size, so a step that holds many small
// outputs at once (1,000 scalar adds feeding one AddN) falls through to its general path,
// which splits and coalesces chunks and cost more per node than the executor and the kernel
// together. Here each thread keeps its freed blocks in LIFO lists by size class, so a
// block is reused while still in cache, in a few instructions.
//
// Contract:
//  - Blocks are malloc'd memory of exactly ClassBytes(n) bytes; the caller allocates them
//    with std::malloc when Take returns nullptr and frees them with std::free when Put
//    returns false.
//  - Take/Put act on the calling thread's lists only: no locks, no atomics. A block freed
//    on another thread than the one that took it joins the freeing thread's lists.
//  - A thread keeps at most kMaxThreadBytes; its lists go back to malloc when it exits.
//  - Disabled (ClassBytes returns 0) under AddressSanitizer, which must see every malloc
//    and free to find use-after-free. ThreadSanitizer sees a recycled block as memory
//    reused on one thread, ordered after its earlier users by the synchronization that
//    handed the tensor over.
#ifndef SLUICE_GRAPH_CORE_SMALL_BLOCK_CACHE_H_
#define SLUICE_GRAPH_CORE_SMALL_BLOCK_CACHE_H_

#include <cstddef>

#include "graph/core/sanitizers.h"

namespace sluice {
namespace small_block_cache {

inline constexpr size_t kClassStepBytes = 64;
inline constexpr size_t kMaxBlockBytes = 1024;
inline constexpr size_t kMaxThreadBytes = size_t{1} << 20;

// The class size serving a block of `bytes`: a multiple of kClassStepBytes, or 0 when
// `bytes` exceeds kMaxBlockBytes (or the cache is disabled).
constexpr size_t ClassBytes(size_t bytes) {
#if defined(SLUICE_ADDRESS_SANITIZER)
  static_cast<void>(bytes);
  return 0;
#else
  return bytes == 0 || bytes > kMaxBlockBytes
             ? 0
             : (bytes + kClassStepBytes - 1) / kClassStepBytes * kClassStepBytes;
#endif
}

// A cached block of `class_bytes` (a ClassBytes result), or nullptr.
void* Take(size_t class_bytes);

// Keeps `block` (of `class_bytes`) for this thread; false when this thread's lists are full
// (or the thread is exiting) and the caller must free it.
bool Put(void* block, size_t class_bytes);

// Bytes cached by the calling thread (for tests).
size_t ThreadCachedBytes();

}  // namespace small_block_cache
}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_SMALL_BLOCK_CACHE_H_
