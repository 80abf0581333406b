// GraphMemoryPool: the device memory of one captured CUDA graph.
//
// A captured graph replays its kernels on the addresses they were given while it was
// captured, so every buffer allocated during the capture must stay the graph's until the
// graph is destroyed. The pool hands out buffers from the device's allocator and keeps each
// one it gets back: a later allocation of the same capture may reuse it (the graph runs its
// nodes in capture order, so a buffer's earlier users are done before its later ones start),
// nothing else may. Retire() (when the graph is destroyed) gives the kept buffers back to the
// device's allocator, and buffers returned after that go straight back too.
//
// Tensors hold a raw pointer to their allocator, and a graph's outputs or a kernel's cache
// may outlive the graph: a retired pool must therefore stay alive. Kernels make pools with
// NewForProcess, which keeps every pool until the process exits (a few hundred bytes per
// graph; graphs are rebuilt only when shapes change).
//
// Thread safety: all methods may be called from any thread.
#ifndef SLUICE_KERNELS_CUDA_GRAPH_GRAPH_MEMORY_POOL_H_
#define SLUICE_KERNELS_CUDA_GRAPH_GRAPH_MEMORY_POOL_H_

#include <cstddef>
#include <map>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/allocator.h"

namespace sluice {
namespace cuda {

class GraphMemoryPool : public Allocator {
 public:
  // `base` (not owned) must outlive the pool: the device's allocator, which lives as long as
  // the process.
  explicit GraphMemoryPool(Allocator* base) : base_(base) {}

  // A pool kept until the process exits (see above).
  static GraphMemoryPool* NewForProcess(Allocator* base);

  std::string Name() const override { return "cuda_graph_pool"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override;
  void DeallocateRaw(void* ptr) override;

  // Gives every kept buffer back to the device's allocator; later deallocations go there too.
  void Retire();

  // Bytes the pool has taken from the device's allocator and not given back.
  size_t bytes_held() const;

 private:
  struct Block {
    size_t bytes;
    size_t alignment;
  };

  Allocator* const base_;
  mutable absl::Mutex mu_;
  bool retired_ ABSL_GUARDED_BY(mu_) = false;
  // Every buffer taken from base_ and not given back, by address.
  absl::flat_hash_map<void*, Block> blocks_ ABSL_GUARDED_BY(mu_);
  // The kept ones that no tensor uses, by size.
  std::multimap<size_t, void*> free_ ABSL_GUARDED_BY(mu_);
  size_t bytes_held_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_GRAPH_GRAPH_MEMORY_POOL_H_
