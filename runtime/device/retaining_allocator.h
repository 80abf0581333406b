// RetainingAllocator: a device's allocator that stays alive while buffers it handed out do.
//
// A tensor fetched from a session keeps a pointer to the allocator of the device that made
// it, and may outlive the session (TensorFlow's own C++ examples declare the output vector
// before the session). The device therefore does not delete its allocator: it calls
// Release(), and the allocator deletes itself when the last of its buffers is freed (at once
// if none is outstanding). Statistics are those of the wrapped CpuAllocator.
//
// Thread safety: as CpuAllocator (lock-free); Release() is called once, by the owner.
#ifndef SLUICE_RUNTIME_DEVICE_RETAINING_ALLOCATOR_H_
#define SLUICE_RUNTIME_DEVICE_RETAINING_ALLOCATOR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "graph/core/allocator.h"

namespace sluice {

class RetainingAllocator : public Allocator {
 public:
  explicit RetainingAllocator(std::unique_ptr<CpuAllocator> base);

  RetainingAllocator(const RetainingAllocator&) = delete;
  RetainingAllocator& operator=(const RetainingAllocator&) = delete;

  std::string Name() const override { return base_->Name(); }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override;
  void DeallocateRaw(void* ptr) override;
  AllocatorStats GetStats() const override { return base_->GetStats(); }
  void ClearStats() override { base_->ClearStats(); }

  // The owner is done with it: deleted now, or when the last outstanding buffer is freed.
  void Release() { Unref(); }

  // For std::unique_ptr<RetainingAllocator, RetainingAllocator::Releaser>.
  struct Releaser {
    void operator()(RetainingAllocator* allocator) const { allocator->Release(); }
  };

 private:
  ~RetainingAllocator() override = default;
  void Unref();

  const std::unique_ptr<CpuAllocator> base_;
  // Outstanding buffers, plus one while the owner holds it.
  std::atomic<int64_t> refs_{1};
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_RETAINING_ALLOCATOR_H_
