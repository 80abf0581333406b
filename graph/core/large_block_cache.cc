#include "graph/core/large_block_cache.h"

#include <cstdlib>
#include <vector>

namespace sluice {

LargeBlockCache::~LargeBlockCache() {
  for (auto& [size, block] : blocks_) std::free(block.base);
}

void* LargeBlockCache::Take(size_t min_bytes, size_t* block_bytes) {
  absl::MutexLock lock(&mu_);
  auto it = blocks_.lower_bound(min_bytes);
  if (it == blocks_.end()) return nullptr;
  void* base = it->second.base;
  *block_bytes = it->first;
  cached_bytes_ -= it->first;
  by_age_.erase(it->second.put_order);
  blocks_.erase(it);
  return base;
}

bool LargeBlockCache::Put(void* base, size_t block_bytes) {
  absl::MutexLock lock(&mu_);
  if (block_bytes > capacity_bytes_ - cached_bytes_) return false;
  const uint64_t order = next_put_order_++;
  by_age_.emplace(order, blocks_.emplace(block_bytes, Block{base, order}));
  cached_bytes_ += block_bytes;
  return true;
}

size_t LargeBlockCache::Trim(size_t keep_bytes) {
  std::vector<void*> victims;
  size_t freed = 0;
  {
    absl::MutexLock lock(&mu_);
    while (cached_bytes_ > keep_bytes) {
      const auto oldest = by_age_.begin();
      const BySize::iterator block = oldest->second;
      victims.push_back(block->second.base);
      freed += block->first;
      cached_bytes_ -= block->first;
      blocks_.erase(block);
      by_age_.erase(oldest);
    }
  }
  // Outside the lock: returning a large block to the system is an munmap.
  for (void* base : victims) std::free(base);
  return freed;
}

size_t LargeBlockCache::cached_bytes() const {
  absl::MutexLock lock(&mu_);
  return cached_bytes_;
}

}  // namespace sluice
