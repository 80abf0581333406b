// OneDnnArgPool: the dnnl::memory objects of one cached primitive's arguments, made once and
// pointed at each call's buffers.
//
// Why: a dnnl::memory allocates its descriptor block (over 1 KiB) when it is created. A
// matrix product that wrapped its four operands and scratchpad anew on every call made five
// such allocations, and glibc answers each request of that size by first merging the small
// freed chunks of the whole step (malloc_consolidate): for a model whose step is a few
// microseconds, a quarter of the step and most of its tail (docs/threading.md).
//
// Contract: a pool belongs to one primitive (its argument descriptors and scratchpad
// descriptor are fixed). Acquire lends a set of memory objects no other caller holds, so a
// primitive may run on several threads at once; each Lease points the arguments at its
// call's buffers (set_data_handle, no allocation) and returns the set when destroyed, which
// must happen before the pool is. Sets are made on demand, so a pool holds as many as calls
// ever ran at once. Thread-safe.
#ifndef SLUICE_KERNELS_CPU_LINALG_ONEDNN_ARGS_H_
#define SLUICE_KERNELS_CPU_LINALG_ONEDNN_ARGS_H_

#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// One set of argument memory objects (see OneDnnArgPool).
class OneDnnArgs {
 public:
  // Points argument `arg` (a DNNL_ARG_* the pool was made with) at `data`.
  void Set(int arg, const void* data) { args_.at(arg).set_data_handle(const_cast<void*>(data)); }
  // Allocates the scratchpad as a temp tensor of `ctx` (kept alive by *scratch) and points
  // DNNL_ARG_SCRATCHPAD at it.
  absl::Status SetScratchpad(OpKernelContext* ctx, Tensor* scratch);
  // What primitive::execute takes.
  const std::unordered_map<int, dnnl::memory>& map() const { return args_; }

 private:
  friend class OneDnnArgPool;
  std::unordered_map<int, dnnl::memory> args_;
  int64_t scratchpad_bytes_ = 0;
};

class OneDnnArgPool {
 public:
  // `args`: each argument's DNNL_ARG_* and descriptor; DNNL_ARG_SCRATCHPAD is added with
  // `scratchpad` (the primitive's scratchpad_desc()).
  OneDnnArgPool(std::vector<std::pair<int, dnnl::memory::desc>> args,
                const dnnl::memory::desc& scratchpad);
  OneDnnArgPool(const OneDnnArgPool&) = delete;
  OneDnnArgPool& operator=(const OneDnnArgPool&) = delete;

  struct Return {
    OneDnnArgPool* pool;
    void operator()(OneDnnArgs* args) const { pool->Put(args); }
  };
  using Lease = std::unique_ptr<OneDnnArgs, Return>;

  // A set no one else holds; INTERNAL if oneDNN fails to make one.
  absl::Status Acquire(Lease* lease);

  // The pool of a matrix product's source, weights (, bias) and destination.
  static std::unique_ptr<OneDnnArgPool> ForMatMul(const dnnl::matmul::primitive_desc& pd,
                                                  bool with_bias);

 private:
  void Put(OneDnnArgs* args);

  const std::vector<std::pair<int, dnnl::memory::desc>> descs_;
  absl::Mutex mu_;
  std::vector<std::unique_ptr<OneDnnArgs>> free_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_ONEDNN_ARGS_H_
