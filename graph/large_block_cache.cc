#include "graph/large_block_cache.h"

#include <cstdlib>

namespace sluice {

LargeBlockCache::~LargeBlockCache() {
  for (auto& [size, base] : blocks_) std::free(base);
}

void* LargeBlockCache::Take(size_t min_bytes, size_t* block_bytes) {
  absl::MutexLock lock(&mu_);
  auto it = blocks_.lower_bound(min_bytes);
  if (it == blocks_.end() || it->first > min_bytes + min_bytes / 4) return nullptr;
  void* base = it->second;
  *block_bytes = it->first;
  cached_bytes_ -= it->first;
  blocks_.erase(it);
  return base;
}

bool LargeBlockCache::Put(void* base, size_t block_bytes) {
  absl::MutexLock lock(&mu_);
  if (block_bytes > capacity_bytes_ - cached_bytes_) return false;
  blocks_.emplace(block_bytes, base);
  cached_bytes_ += block_bytes;
  return true;
}

size_t LargeBlockCache::cached_bytes() const {
  absl::MutexLock lock(&mu_);
  return cached_bytes_;
}

}  // namespace sluice
