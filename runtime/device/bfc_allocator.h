// BfcAllocator: a best-fit-with-coalescing allocator that carves tensor buffers out of a few
// large regions, so a device pays for its memory system's allocator (cudaMalloc on a GPU)
// once per region rather than once per tensor per step.
//
// Contract (that of Allocator, graph/core/allocator.h, plus):
//  - Regions come from a SubAllocator the allocator owns; their bytes together never exceed
//    `memory_limit`, and a request above it fails without asking the sub-allocator.
//  - AllocateRaw returns nullptr when no region has room and no new region can be had; the
//    allocator stays usable. Every pointer is aligned to kMinAllocationBytes, which serves any
//    power-of-two alignment up to it; a larger alignment is refused (nullptr), since carving
//    an aligned chunk out of the middle of a free one is not worth it for tensors.
//  - DeallocateRaw of a pointer it did not hand out (or already freed) is logged and ignored:
//    corrupting the bins would turn a caller's bug into silent data corruption later.
//  - The destructor returns every region to the sub-allocator, in use or not.
//  - Thread-safe: one mutex guards all state. Device allocations are few next to the kernel
//    work they feed, and the critical section is a set lookup and a few link updates.
//
// Policy:
//  - Every request is rounded up to a multiple of kMinAllocationBytes; a chunk is a run of
//    such units inside one region, linked to its neighbours by address.
//  - Free chunks sit in size-class bins (bin b holds sizes in [256 << b, 256 << (b + 1))),
//    each ordered by (size, address). Best fit: the smallest free chunk that fits, the lowest
//    address among equals, found from the request's bin upwards.
//  - Split rule: the chosen chunk is split when the remainder is at least an eighth of the
//    rounded request (and so at least kMinAllocationBytes); otherwise it is handed out whole.
//    Handing out a slightly larger chunk whole wastes at most 12.5% while it lives, but keeps
//    a sliver from being taken by a small tensor that would then stop the chunk from being
//    whole again when a tensor of the original size recurs next step.
//  - A freed chunk merges with its free neighbours at once, so a region whose chunks are all
//    free is again one chunk.
//  - Growth (Options::allow_growth): when nothing fits, a new region of max(rounded request,
//    next region size) is taken, capped by what is left of the limit; the next region size
//    starts at kMinRegionBytes and doubles with each region. Without growth the first
//    allocation takes the whole limit as one region. When the new region cannot be had (the
//    limit or the sub-allocator refuses), the regions that are entirely free are returned and
//    the region asked for once more.
//
// Statistics count chunk bytes: the rounded request, or the whole chunk when it is not split,
// since that is what the allocation keeps from others.
#ifndef SLUICE_RUNTIME_DEVICE_BFC_ALLOCATOR_H_
#define SLUICE_RUNTIME_DEVICE_BFC_ALLOCATOR_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/allocator.h"

namespace sluice {

// Where a BfcAllocator's regions come from (cudaMalloc on a GPU; the heap in tests). The
// BfcAllocator calls it with its mutex held: one serving a single allocator needs no lock.
class SubAllocator {
 public:
  virtual ~SubAllocator() = default;
  // A region of `num_bytes` aligned to `alignment` (a power of two, at least 256), or null.
  virtual void* Alloc(size_t alignment, size_t num_bytes) = 0;
  // Returns a region Alloc gave, with its size.
  virtual void Free(void* ptr, size_t num_bytes) = 0;
};

class BfcAllocator : public Allocator {
 public:
  struct Options {
    // Grow region by region (doubling the region size, starting at kMinRegionBytes or the
    // request, whichever is larger, never past memory_limit) rather than taking
    // memory_limit at the first allocation (TensorFlow's allow_growth).
    bool allow_growth = true;
  };

  // `memory_limit` bounds the region bytes; only its multiples of kMinAllocationBytes are
  // used. `name` is what Name() reports.
  BfcAllocator(std::unique_ptr<SubAllocator> sub_allocator, size_t memory_limit, std::string name,
               Options options);
  ~BfcAllocator() override;

  BfcAllocator(const BfcAllocator&) = delete;
  BfcAllocator& operator=(const BfcAllocator&) = delete;

  std::string Name() const override;
  void* AllocateRaw(size_t alignment, size_t num_bytes) override;
  void DeallocateRaw(void* ptr) override;
  // Chunk bytes (see above); bytes_limit is memory_limit.
  AllocatorStats GetStats() const override;
  void ClearStats() override;

  // One line for RESOURCE_EXHAUSTED messages: the limit, the bytes in use, the bytes free
  // (inside regions and not yet taken from the sub-allocator) and the largest free chunk.
  std::string MemorySummary() const override;
  // Bytes of the regions currently held from the sub-allocator.
  size_t region_bytes() const;

  // Granularity: every chunk is a multiple of it and aligned to it.
  static constexpr size_t kMinAllocationBytes = 256;
  static constexpr size_t kMinRegionBytes = size_t{2} << 20;

 private:
  // Index into chunks_; chunks refer to each other by handle because chunks_ reallocates.
  using ChunkHandle = int64_t;
  static constexpr ChunkHandle kNoChunk = -1;
  // Bin b holds sizes from kMinAllocationBytes << b; the last bin holds everything above.
  static constexpr int kNumBins = 48;

  struct Chunk {
    char* ptr = nullptr;
    size_t size = 0;
    ChunkHandle prev = kNoChunk;  // neighbours in the same region, by address
    ChunkHandle next = kNoChunk;
    bool in_use = false;
  };
  // A free chunk's place in its bin.
  struct FreeKey {
    size_t size;
    uintptr_t address;
    ChunkHandle chunk;
    bool operator<(const FreeKey& other) const {
      return size != other.size ? size < other.size : address < other.address;
    }
  };
  struct Region {
    char* base;
    size_t bytes;
    // Merging keeps the lower chunk and splitting keeps the front, so the region's first
    // chunk never changes handle: the region is entirely free when it is free and whole.
    ChunkHandle first;
  };

  static int BinFor(size_t bytes);

  // A free chunk of at least `rounded` bytes, or kNoChunk.
  ChunkHandle FindFit(size_t rounded) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Takes free chunk `h` out of its bin for a request of `rounded` bytes: splits it, marks it
  // in use and counts it.
  void* HandOut(ChunkHandle h, size_t rounded) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Adds a region with room for `rounded` bytes; false when the limit or the sub-allocator
  // refuses.
  bool Extend(size_t rounded) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Returns the regions that are entirely free to the sub-allocator; how many there were.
  int ReleaseFreeRegions() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  ChunkHandle NewChunk() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DeleteChunk(ChunkHandle h) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void InsertFree(ChunkHandle h) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RemoveFree(ChunkHandle h) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Folds `next` (free, out of its bin) into its lower neighbour `h`.
  void Merge(ChunkHandle h, ChunkHandle next) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Constant after construction.
  const std::unique_ptr<SubAllocator> sub_allocator_;
  const size_t memory_limit_;
  const size_t usable_limit_;  // memory_limit_ rounded down to kMinAllocationBytes
  const std::string name_;
  const Options options_;

  mutable absl::Mutex mu_;
  std::vector<Chunk> chunks_ ABSL_GUARDED_BY(mu_);
  std::vector<ChunkHandle> unused_handles_ ABSL_GUARDED_BY(mu_);
  std::array<std::set<FreeKey>, kNumBins> bins_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, ChunkHandle> in_use_ ABSL_GUARDED_BY(mu_);
  std::vector<Region> regions_ ABSL_GUARDED_BY(mu_);
  size_t region_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  size_t next_region_bytes_ ABSL_GUARDED_BY(mu_) = kMinRegionBytes;
  AllocatorStats stats_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_BFC_ALLOCATOR_H_
