// oneDNN plumbing shared by the CPU kernels that run on oneDNN primitives (matrix products,
// convolutions, average pooling, softmax).
//
// Contract:
//  - OneDnnEngine() is the process's one CPU engine; OneDnnStream() an in-order stream on it
//    owned by the calling thread (oneDNN streams are not thread-safe, so each thread that runs
//    kernels gets its own).
//  - Debian's libdnnl runs its parallel regions on OpenMP; CpuDevice::Compute sets the calling
//    thread's OpenMP thread count to the kernel's team (runtime/device/core_budget.h), so no
//    setting is made here. A oneDNN primitive fixes its thread count when it is created (it
//    forks that many threads whatever the caller's setting is later), so every primitive
//    cache keys its entries by OneDnnThreads() as well as by shape.
//  - oneDNN's C++ API reports failures with exceptions; OneDnnCall runs a callable and turns a
//    dnnl::error into an INTERNAL status, so no exception leaves a kernel.
//  - Primitives are created with a user-managed scratchpad (ScratchpadAttr) so that one cached
//    primitive may run on several threads at once: each call passes its own scratch buffer.
//  - OneDnnCachingEnabled() is true unless a benchmark turned the kernels' caches off to
//    measure what they save.
#ifndef SLUICE_KERNELS_CPU_LINALG_ONEDNN_UTIL_H_
#define SLUICE_KERNELS_CPU_LINALG_ONEDNN_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "runtime/framework/op_kernel.h"

namespace sluice {

const dnnl::engine& OneDnnEngine();
dnnl::stream& OneDnnStream();

// The oneDNN element type of T; only float and bfloat16 run natively here.
template <typename T>
struct OneDnnType;
template <>
struct OneDnnType<float> {
  static constexpr dnnl::memory::data_type value = dnnl::memory::data_type::f32;
};
template <>
struct OneDnnType<bfloat16> {
  static constexpr dnnl::memory::data_type value = dnnl::memory::data_type::bf16;
};

// The OpenMP team a primitive created now would use: the calling thread's setting.
int OneDnnThreads();

// A primitive attribute with the user-managed scratchpad every cached primitive uses.
dnnl::primitive_attr ScratchpadAttr();

// Runs fn(); a dnnl::error becomes INTERNAL "oneDNN <what> failed: <message>".
template <typename Fn>
absl::Status OneDnnCall(absl::string_view what, Fn&& fn) {
  try {
    fn();
  } catch (const dnnl::error& e) {
    return errors::Internal("oneDNN ", what, " failed: ", e.what());
  }
  return absl::OkStatus();
}

// Wraps a tensor's buffer (or nullptr) as oneDNN memory of `desc` without copying.
inline dnnl::memory WrapMemory(const dnnl::memory::desc& desc, const void* data) {
  return dnnl::memory(desc, OneDnnEngine(), const_cast<void*>(data));
}

// Row-major strides of a batched matrix operand with batch dims `batch` and stored matrices
// of rows x cols, listed in (batch..., op rows, op cols) order; `transposed` reads each stored
// matrix through swapped strides.
dnnl::memory::dims BatchedMatrixStrides(absl::Span<const int64_t> batch, int64_t rows, int64_t cols,
                                        bool transposed);

// The primitive descriptor of a batched matrix product: x [x_batch..., m, k] times
// y [y_batch..., k, n] into a dense [batch..., m, n], x and y read through `x_strides` and
// `y_strides` (BatchedMatrixStrides), with the user scratchpad. Throws dnnl::error: call it
// inside OneDnnCall.
dnnl::matmul::primitive_desc BatchedMatMulDesc(
    dnnl::memory::data_type type, absl::Span<const int64_t> x_batch,
    absl::Span<const int64_t> y_batch, absl::Span<const int64_t> batch, int64_t m, int64_t k,
    int64_t n, const dnnl::memory::dims& x_strides, const dnnl::memory::dims& y_strides);

// Allocates the primitive's scratchpad as a temp tensor and adds it to `args`.
absl::Status AddScratchpad(OpKernelContext* ctx, const dnnl::primitive_desc_base& pd,
                           Tensor* scratch, std::unordered_map<int, dnnl::memory>* args);

// Runs a primitive that reads `src` and writes `dst` (their descriptors are `pd`'s), with a
// scratchpad of its own, on the calling thread's stream, and waits for it.
absl::Status RunSrcDstPrimitive(OpKernelContext* ctx, absl::string_view what,
                                const dnnl::primitive& primitive,
                                const dnnl::primitive_desc_base& pd, const void* src, void* dst);

// A kernel's primitives by shape key (and OneDnnThreads()), for kernels whose primitive
// depends only on the shapes they see (pooling, softmax). Thread-safe. Shapes that change every
// step would grow it without bound, so it starts over once it holds kMaxEntries.
template <typename Key, typename Primitive>
class OneDnnShapeCache {
 public:
  static constexpr size_t kMaxEntries = 16;

  // The primitive for `key`, made by create(std::shared_ptr<const Primitive>*) -> absl::Status
  // when absent. Two threads may both make one; the later replaces the earlier.
  template <typename Create>
  absl::Status Get(const Key& shape_key, Create&& create, std::shared_ptr<const Primitive>* out) {
    const std::pair<Key, int> key(shape_key, OneDnnThreads());
    {
      absl::MutexLock lock(&mu_);
      auto it = cache_.find(key);
      if (it != cache_.end()) {
        *out = it->second;
        return absl::OkStatus();
      }
    }
    RETURN_IF_ERROR(create(out));
    absl::MutexLock lock(&mu_);
    if (cache_.size() >= kMaxEntries) cache_.clear();
    cache_[key] = *out;
    return absl::OkStatus();
  }

 private:
  absl::Mutex mu_;
  absl::flat_hash_map<std::pair<Key, int>, std::shared_ptr<const Primitive>> cache_
      ABSL_GUARDED_BY(mu_);
};

// A content fingerprint of `t`'s bytes, so a cached transform of a tensor (reordered weights)
// is redone when the tensor changed in place even though its buffer stayed the same.
uint64_t TensorFingerprint(const Tensor& t);

// Whether kernels keep primitives and reordered weights across calls (default true).
bool OneDnnCachingEnabled();
void SetOneDnnCachingEnabled(bool enabled);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_ONEDNN_UTIL_H_
