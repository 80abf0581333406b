#include "kernels/cuda/graph/graph_memory_pool.h"

#include <memory>
#include <utility>
#include <vector>

namespace sluice {
namespace cuda {

GraphMemoryPool* GraphMemoryPool::NewForProcess(Allocator* base) {
  static absl::Mutex* const mu = new absl::Mutex;
  // Reachable until exit, so leak checkers do not count the pools.
  static std::vector<std::unique_ptr<GraphMemoryPool>>* const pools =
      new std::vector<std::unique_ptr<GraphMemoryPool>>;
  absl::MutexLock lock(mu);
  pools->push_back(std::make_unique<GraphMemoryPool>(base));
  return pools->back().get();
}

void* GraphMemoryPool::AllocateRaw(size_t alignment, size_t num_bytes) {
  {
    absl::MutexLock lock(&mu_);
    // The smallest kept buffer that fits, unless it is more than twice the request (a large
    // buffer would be tied up by a small tensor).
    auto it = free_.lower_bound(num_bytes);
    for (; it != free_.end() && it->first <= 2 * num_bytes + 256; ++it) {
      void* ptr = it->second;
      if (reinterpret_cast<uintptr_t>(ptr) % alignment == 0) {
        free_.erase(it);
        return ptr;
      }
    }
  }
  void* ptr = base_->AllocateRaw(alignment, num_bytes);
  if (ptr == nullptr) return nullptr;
  absl::MutexLock lock(&mu_);
  blocks_[ptr] = Block{num_bytes, alignment};
  bytes_held_ += num_bytes;
  return ptr;
}

void GraphMemoryPool::DeallocateRaw(void* ptr) {
  if (ptr == nullptr) return;
  {
    absl::MutexLock lock(&mu_);
    const auto it = blocks_.find(ptr);
    if (it != blocks_.end() && !retired_) {
      free_.emplace(it->second.bytes, ptr);
      return;
    }
    if (it != blocks_.end()) {
      bytes_held_ -= it->second.bytes;
      blocks_.erase(it);
    }
  }
  base_->DeallocateRaw(ptr);
}

void GraphMemoryPool::Retire() {
  std::multimap<size_t, void*> free;
  {
    absl::MutexLock lock(&mu_);
    retired_ = true;
    free = std::move(free_);
    free_.clear();
    for (const auto& [bytes, ptr] : free) {
      bytes_held_ -= bytes;
      blocks_.erase(ptr);
    }
  }
  for (const auto& [bytes, ptr] : free) base_->DeallocateRaw(ptr);
}

size_t GraphMemoryPool::bytes_held() const {
  absl::MutexLock lock(&mu_);
  return bytes_held_;
}

}  // namespace cuda
}  // namespace sluice
