// ScratchArray: a kernel's working array (per-channel sums, index tables, interpolation
// weights) taken from the device's host allocator instead of the C++ heap: host memory on
// every device, since the host reads and writes it (a CPU kernel registered for a GPU, such
// as the list kernels, gets host scratch there too).
//
// Why: a std::vector sized from an input's dimension is invisible to the session's memory
// limit and statistics, and when the heap refuses it the process ends (Sluice builds
// without exceptions). Through the allocator, a refusal is RESOURCE_EXHAUSTED naming the
// node, and the bytes count against SessionOptions::memory_limit_bytes.
//
// Contract: Allocate() value-initialises n elements (zero for arithmetic types; T's default
// member initialisers for aggregates) in a buffer aligned to kAllocatorAlignment. T must be
// trivially destructible: the buffer is released without running destructors. The array
// holds its buffer until it is destroyed or allocated again; it is not copyable.
#ifndef SLUICE_KERNELS_CPU_SCRATCH_H_
#define SLUICE_KERNELS_CPU_SCRATCH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/allocator.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

namespace scratch_internal {
// A DT_UINT8 tensor of n * element_size bytes from the host allocator of ctx's device;
// RESOURCE_EXHAUSTED naming the node when n * element_size overflows or the allocator
// refuses it.
absl::Status AllocateBytes(OpKernelContext* ctx, int64_t n, size_t element_size, Tensor* buffer);
}  // namespace scratch_internal

template <typename T>
class ScratchArray {
  static_assert(std::is_trivially_destructible_v<T>, "scratch is released without destructors");
  static_assert(alignof(T) <= kAllocatorAlignment, "the allocator cannot align T");

 public:
  ScratchArray() = default;
  ScratchArray(const ScratchArray&) = delete;
  ScratchArray& operator=(const ScratchArray&) = delete;

  // REQUIRES: n >= 0.
  absl::Status Allocate(OpKernelContext* ctx, int64_t n) {
    data_ = nullptr;
    size_ = 0;
    const absl::Status status = scratch_internal::AllocateBytes(ctx, n, sizeof(T), &buffer_);
    if (!status.ok()) return status;
    if (n > 0) {
      data_ = static_cast<T*>(buffer_.raw_data());
      std::uninitialized_value_construct_n(data_, static_cast<size_t>(n));
    }
    size_ = n;
    return absl::OkStatus();
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  int64_t size() const { return size_; }
  T& operator[](int64_t i) { return data_[i]; }
  const T& operator[](int64_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  absl::Span<T> span() { return absl::Span<T>(data_, static_cast<size_t>(size_)); }

 private:
  Tensor buffer_;
  T* data_ = nullptr;
  int64_t size_ = 0;
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SCRATCH_H_
