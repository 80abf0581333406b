// Stack: the resource behind TensorFlow's StackV2 ops, a last-in first-out stack of tensors
// of one dtype that lives for one step. TF1's gradients of while loops use them: each forward
// iteration pushes the intermediates the gradient needs, and the backward loop, which runs the
// iterations in reverse, pops them.
//
// A stack holds at most max_size tensors (unbounded when the graph's max_size is negative);
// pushing onto a full stack, popping an empty one and using a closed one are INVALID_ARGUMENT
// with TensorFlow's messages. Tensors are held, not copied.
//
// Stacks live in the step's container (ScopedStepContainer), as TensorArrays do, and are
// deleted when the step ends. Thread safety: every method locks the stack.
#ifndef SLUICE_KERNELS_CPU_LISTS_STACK_H_
#define SLUICE_KERNELS_CPU_LISTS_STACK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/resource_mgr.h"

namespace sluice {

class Stack : public ResourceBase {
 public:
  Stack(std::string name, DataType elem_type, int64_t max_size);

  std::string DebugString() const override;
  const std::string& name() const { return name_; }
  DataType elem_type() const { return elem_type_; }

  // REQUIRES: value's dtype is elem_type() (the push kernel checks it).
  absl::Status Push(const Tensor& value);
  absl::Status Pop(Tensor* value);
  // Drops the tensors; later calls fail with "has already been closed".
  void Close();

 private:
  absl::Status CheckOpenLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string name_;
  const DataType elem_type_;
  const int64_t max_size_;
  mutable absl::Mutex mu_;
  // Grows by one handle per push: bounded by max_size and by the pushes the graph runs, each
  // holding a tensor some kernel allocated.
  std::vector<Tensor> tensors_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LISTS_STACK_H_
