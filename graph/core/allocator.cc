#include "graph/core/allocator.h"

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "graph/core/large_block_cache.h"
#include "graph/core/sanitizers.h"
#include "graph/core/small_block_cache.h"

namespace sluice {
namespace {

// Each block starts with a header recording what DeallocateRaw needs: the requested size
// (for the statistics) and where the block really begins. The header sits just before the
// returned pointer, which is kept aligned by padding: cached blocks (page-sized, from
// aligned_alloc) pad the front to a multiple of the alignment; malloc'd blocks skip to the
// first aligned address past the header.
struct BlockHeader {
  // Where a freed block goes.
  enum class Reuse : uint8_t {
    kNone,   // std::free
    kSmall,  // small_block_cache (block_bytes is its class size), else std::free
    kLarge,  // the allocator's LargeBlockCache, else std::free
  };
  void* base;
  size_t num_bytes;
  size_t block_bytes;  // the whole block from `base`: what a cached block can hold
  Reuse reuse;
};

constexpr size_t kPageBytes = 4096;
// What malloc guarantees on the 64-bit targets Sluice builds for.
constexpr size_t kMallocAlignment = alignof(std::max_align_t);
static_assert(kMallocAlignment <= kAllocatorAlignment);
static_assert(sizeof(BlockHeader) % kMallocAlignment == 0);

size_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);    // NOLINT(runtime/int): POSIX type
  const long page_size = sysconf(_SC_PAGESIZE);  // NOLINT(runtime/int): POSIX type
  if (pages <= 0 || page_size <= 0) return std::numeric_limits<size_t>::max() / 2;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_size);
}

void UpdateMax(std::atomic<int64_t>* target, int64_t value) {
  int64_t current = target->load(std::memory_order_relaxed);
  while (value > current &&
         !target->compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
}

size_t DefaultCacheBytes() {
#if defined(SLUICE_ADDRESS_SANITIZER)
  return 0;
#else
  if (const char* mb = std::getenv("SLUICE_CPU_CACHE_MB"); mb != nullptr && *mb != '\0') {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(mb, &end, 10);  // NOLINT(runtime/int)
    if (end != nullptr && *end == '\0') return static_cast<size_t>(value) << 20;
  }
  return PhysicalMemoryBytes() / 8;
#endif
}

}  // namespace

std::string AllocatorStats::DebugString() const {
  return absl::StrCat(bytes_limit > 0 ? absl::StrCat("Limit: ", bytes_limit, "\n") : "",
                      "InUse: ", bytes_in_use, "\nMaxInUse: ", peak_bytes_in_use,
                      "\nNumAllocs: ", num_allocs, "\nMaxAllocSize: ", largest_alloc_size, "\n");
}

Allocator::~Allocator() = default;

AllocatorStats Allocator::GetStats() const { return AllocatorStats(); }

void Allocator::ClearStats() {}

CpuAllocator::CpuAllocator() : CpuAllocator(PhysicalMemoryBytes()) {}

CpuAllocator::CpuAllocator(size_t max_allocation_bytes)
    : CpuAllocator(max_allocation_bytes, DefaultCacheBytes()) {}

CpuAllocator::CpuAllocator(size_t max_allocation_bytes, size_t cache_bytes, int64_t bytes_limit)
    : max_allocation_bytes_(max_allocation_bytes),
      bytes_limit_(std::max<int64_t>(bytes_limit, 0)),
      cache_(cache_bytes == 0 ? nullptr : std::make_unique<LargeBlockCache>(cache_bytes)) {}

std::unique_ptr<CpuAllocator> CpuAllocator::WithBytesLimit(int64_t bytes_limit) {
  return std::make_unique<CpuAllocator>(PhysicalMemoryBytes(), DefaultCacheBytes(), bytes_limit);
}

CpuAllocator::~CpuAllocator() = default;

size_t CpuAllocator::cached_bytes() const { return cache_ == nullptr ? 0 : cache_->cached_bytes(); }

void* CpuAllocator::AllocateRaw(size_t alignment, size_t num_bytes) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
  if (num_bytes > max_allocation_bytes_) return nullptr;
  const int64_t size = static_cast<int64_t>(num_bytes);
  int64_t in_use = 0;
  if (bytes_limit_ > 0) {
    // Counted before the block exists, so that threads allocating at once cannot pass the
    // limit together; uncounted again if over it or if the block cannot be had.
    in_use = bytes_in_use_.fetch_add(size, std::memory_order_relaxed) + size;
    if (in_use > bytes_limit_) {
      bytes_in_use_.fetch_sub(size, std::memory_order_relaxed);
      return nullptr;
    }
  }
  void* payload = AllocateBlock(alignment, num_bytes, /*counted=*/bytes_limit_ > 0);
  if (payload == nullptr) {
    if (bytes_limit_ > 0) bytes_in_use_.fetch_sub(size, std::memory_order_relaxed);
    return nullptr;
  }
  if (bytes_limit_ == 0) in_use = bytes_in_use_.fetch_add(size, std::memory_order_relaxed) + size;
  num_allocs_.fetch_add(1, std::memory_order_relaxed);
  UpdateMax(&peak_bytes_in_use_, in_use);
  UpdateMax(&high_water_in_use_, in_use);
  UpdateMax(&largest_alloc_size_, size);
  return payload;
}

void* CpuAllocator::AllocateBlock(size_t alignment, size_t num_bytes, bool counted) {
  alignment = std::max(alignment, kAllocatorAlignment);
  // The front padding holds the header and keeps the payload aligned.
  const size_t front = ((sizeof(BlockHeader) + alignment - 1) / alignment) * alignment;
  if (num_bytes > std::numeric_limits<size_t>::max() - front - alignment) return nullptr;
  // aligned_alloc needs a size that is a multiple of the alignment.
  size_t total = ((front + num_bytes + alignment - 1) / alignment) * alignment;
  // Cached blocks all have the default alignment, so that any of them fits any request
  // that asks for no more; whole pages make near sizes share blocks.
  const bool cacheable =
      cache_ != nullptr && alignment == kAllocatorAlignment && total >= kMinCachedBlockBytes;
  void* base = nullptr;
  char* payload = nullptr;
  BlockHeader::Reuse reuse = BlockHeader::Reuse::kNone;
  if (cacheable) {
    reuse = BlockHeader::Reuse::kLarge;
    total = ((total + kPageBytes - 1) / kPageBytes) * kPageBytes;
    size_t cached_size = 0;
    base = cache_->Take(total, &cached_size);
    if (base != nullptr) {
      total = cached_size;
    } else {
      TrimCacheBefore(counted ? total - num_bytes : total);
      base = std::aligned_alloc(alignment, total);
      if (base == nullptr) return nullptr;
    }
    payload = static_cast<char*>(base) + front;
  } else {
    // malloc, aligned here: aligned_alloc always takes glibc's general path (about 600
    // instructions, most of a scalar kernel's cost). Past the header, malloc's alignment
    // leaves at most alignment - kMallocAlignment bytes to skip. Small blocks are rounded to
    // a class size and recycled per thread.
    total = sizeof(BlockHeader) + (alignment - kMallocAlignment) + num_bytes;
    if (const size_t class_bytes = small_block_cache::ClassBytes(total); class_bytes != 0) {
      reuse = BlockHeader::Reuse::kSmall;
      total = class_bytes;
      base = small_block_cache::Take(total);
    }
    if (base == nullptr) base = std::malloc(total);
    if (base == nullptr) return nullptr;
    const uintptr_t first = reinterpret_cast<uintptr_t>(base) + sizeof(BlockHeader);
    payload = reinterpret_cast<char*>((first + alignment - 1) & ~(uintptr_t{alignment} - 1));
  }
  if (reuse == BlockHeader::Reuse::kLarge) {
    large_block_slack_.fetch_add(static_cast<int64_t>(total - num_bytes),
                                 std::memory_order_relaxed);
  }
  BlockHeader header{base, num_bytes, total, reuse};
  std::memcpy(payload - sizeof(BlockHeader), &header, sizeof(header));
  return payload;
}

void CpuAllocator::TrimCacheBefore(size_t uncounted_bytes) {
  const size_t cached = cache_->cached_bytes();
  if (cached == 0) return;
  const auto load = [](const std::atomic<int64_t>& counter) {
    return static_cast<size_t>(std::max<int64_t>(counter.load(std::memory_order_relaxed), 0));
  };
  const size_t requested = load(bytes_in_use_) + uncounted_bytes;
  const size_t held = requested + load(large_block_slack_);
  const size_t high_water = std::max(load(high_water_in_use_), requested);
  const size_t limit = high_water + high_water / kCacheSlackDivisor;
  if (held + cached > limit) cache_->Trim(limit > held ? limit - held : 0);
}

void CpuAllocator::DeallocateRaw(void* ptr) {
  if (ptr == nullptr) return;
  BlockHeader header;
  std::memcpy(&header, static_cast<char*>(ptr) - sizeof(BlockHeader), sizeof(header));
  bytes_in_use_.fetch_sub(static_cast<int64_t>(header.num_bytes), std::memory_order_relaxed);
  switch (header.reuse) {
    case BlockHeader::Reuse::kSmall:
      if (small_block_cache::Put(header.base, header.block_bytes)) return;
      break;
    case BlockHeader::Reuse::kLarge:
      large_block_slack_.fetch_sub(static_cast<int64_t>(header.block_bytes - header.num_bytes),
                                   std::memory_order_relaxed);
      if (cache_->Put(header.base, header.block_bytes)) return;
      break;
    case BlockHeader::Reuse::kNone:
      break;
  }
  std::free(header.base);
}

AllocatorStats CpuAllocator::GetStats() const {
  AllocatorStats stats;
  stats.num_allocs = num_allocs_.load(std::memory_order_relaxed);
  stats.bytes_in_use = bytes_in_use_.load(std::memory_order_relaxed);
  stats.peak_bytes_in_use = peak_bytes_in_use_.load(std::memory_order_relaxed);
  stats.largest_alloc_size = largest_alloc_size_.load(std::memory_order_relaxed);
  stats.bytes_limit = bytes_limit_;
  return stats;
}

void CpuAllocator::ClearStats() {
  num_allocs_.store(0, std::memory_order_relaxed);
  peak_bytes_in_use_.store(bytes_in_use_.load(std::memory_order_relaxed),
                           std::memory_order_relaxed);
  largest_alloc_size_.store(0, std::memory_order_relaxed);
}

Allocator* DefaultCpuAllocator() {
  static Allocator* const allocator = new CpuAllocator();
  return allocator;
}

}  // namespace sluice
