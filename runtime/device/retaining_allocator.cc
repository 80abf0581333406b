#include "runtime/device/retaining_allocator.h"

#include <utility>

namespace sluice {

RetainingAllocator::RetainingAllocator(std::unique_ptr<CpuAllocator> base)
    : base_(std::move(base)) {}

void* RetainingAllocator::AllocateRaw(size_t alignment, size_t num_bytes) {
  void* ptr = base_->AllocateRaw(alignment, num_bytes);
  if (ptr != nullptr) refs_.fetch_add(1, std::memory_order_relaxed);
  return ptr;
}

void RetainingAllocator::DeallocateRaw(void* ptr) {
  if (ptr == nullptr) return;
  base_->DeallocateRaw(ptr);
  Unref();
}

void RetainingAllocator::Unref() {
  // acq_rel: the thread that deletes must see every other thread's last use.
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

}  // namespace sluice
