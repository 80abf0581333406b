// OpKernel: the computation of one node on one device, built once and run every step.
//
// A kernel class derives from OpKernel (or AsyncOpKernel when it must wait for something,
// like Recv or a queue: a synchronous kernel must never wait for another node of its step,
// which the executor may run later on the same thread), reads and validates its attrs in the
// constructor from an OpKernelConstruction, and implements Compute(OpKernelContext*). Kernels are
// registered with REGISTER_KERNEL_BUILDER (kernel_registry.h, included here) and built by
// CreateOpKernel (create_op_kernel.h).
//
//   class AddOneOp : public OpKernel {
//    public:
//     explicit AddOneOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
//     void Compute(OpKernelContext* ctx) override {
//       const Tensor& x = ctx->input(0);
//       Tensor* y = nullptr;
//       OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, x.shape(), &y));
//       ...
//     }
//   };
//   REGISTER_KERNEL_BUILDER(Name("AddOne").Device(DEVICE_CPU).TypeConstraint<float>("T"),
//                           AddOneOp);
//
// Thread safety: Compute may run concurrently for different steps, so a kernel's state
// after construction is read-only or guarded by the kernel itself. The accessors below are
// constant after construction.
#ifndef SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_H_
#define SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_H_

#include <functional>
#include <string>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
// The typed views (t.flat<T>() and the rest) for the kernels that include this header, as
// TensorFlow's op_kernel.h gives them: custom ops written against it keep compiling.
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"
#include "proto/node_def.pb.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/framework/op_kernel_construction.h"
#include "runtime/framework/op_kernel_context.h"

namespace sluice {

class AsyncOpKernel;

class OpKernel {
 public:
  // Copies what it keeps from `context`; a failure (e.g. the node's arg sizes are invalid)
  // is set on `context`.
  explicit OpKernel(OpKernelConstruction* context);
  virtual ~OpKernel();

  OpKernel(const OpKernel&) = delete;
  OpKernel& operator=(const OpKernel&) = delete;

  virtual void Compute(OpKernelContext* context) = 0;

  // Non-null for kernels derived from AsyncOpKernel.
  virtual AsyncOpKernel* AsAsync() { return nullptr; }

  // Whether the executor should run this kernel on another thread rather than inline. As in
  // TensorFlow: true, except for kernels on GPU devices (they only enqueue work).
  virtual bool IsExpensive() { return expensive_; }

  // The output of a kernel that always produces the same tensor (Const), else nullptr. The
  // executor hands it to the consumers without calling Compute, as TensorFlow's does.
  virtual const Tensor* const_tensor() const { return nullptr; }

  const NodeDef& def() const { return def_; }
  const std::string& name() const { return def_.name(); }
  const std::string& type_string() const { return def_.op(); }
  const std::string& requested_device() const { return def_.device(); }

  int num_inputs() const { return static_cast<int>(input_types_.size()); }
  DataType input_type(int i) const { return input_types_[i]; }
  const DataTypeVector& input_types() const { return input_types_; }
  const MemoryTypeVector& input_memory_types() const { return input_memory_types_; }
  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  DataType output_type(int i) const { return output_types_[i]; }
  const DataTypeVector& output_types() const { return output_types_; }
  const MemoryTypeVector& output_memory_types() const { return output_memory_types_; }

  // [*start, *stop) are the input (output) indices of arg `name`. INVALID_ARGUMENT
  // "Unknown input name: x" if the op has no such arg.
  absl::Status InputRange(absl::string_view name, int* start, int* stop) const;
  absl::Status OutputRange(absl::string_view name, int* start, int* stop) const;

 private:
  const NodeDef def_;
  const DataTypeVector input_types_;
  const MemoryTypeVector input_memory_types_;
  const DataTypeVector output_types_;
  const MemoryTypeVector output_memory_types_;
  NameRangeMap input_name_map_;
  NameRangeMap output_name_map_;
  bool expensive_;
};

class AsyncOpKernel : public OpKernel {
 public:
  using OpKernel::OpKernel;

  // Called exactly once when the asynchronous computation is finished; after it the context
  // may be destroyed.
  using DoneCallback = std::function<void()>;

  // Starts the computation and returns; runs `done` (on any thread) when finished, with any
  // failure set on `context` first.
  virtual void ComputeAsync(OpKernelContext* context, DoneCallback done) = 0;

  AsyncOpKernel* AsAsync() override { return this; }

  // Runs ComputeAsync and blocks until done is called.
  void Compute(OpKernelContext* context) override;
};

}  // namespace sluice

// Kernel-side error checks, for OpKernelConstruction* and OpKernelContext* alike. On failure
// they set the status on CTX and return from the enclosing (void) function; the _ASYNC forms
// also run CALLBACK (the done callback) first.
#define OP_REQUIRES(CTX, EXP, STATUS)                  \
  do {                                                 \
    if (ABSL_PREDICT_FALSE(!(EXP))) {                  \
      (CTX)->CtxFailure(__FILE__, __LINE__, (STATUS)); \
      return;                                          \
    }                                                  \
  } while (0)

#define OP_REQUIRES_OK(CTX, ...)                                                    \
  do {                                                                              \
    const ::absl::Status sluice_op_requires_status_(__VA_ARGS__);                   \
    if (ABSL_PREDICT_FALSE(!sluice_op_requires_status_.ok())) {                     \
      (CTX)->CtxFailureWithWarning(__FILE__, __LINE__, sluice_op_requires_status_); \
      return;                                                                       \
    }                                                                               \
  } while (0)

#define OP_REQUIRES_ASYNC(CTX, EXP, STATUS, CALLBACK)  \
  do {                                                 \
    if (ABSL_PREDICT_FALSE(!(EXP))) {                  \
      (CTX)->CtxFailure(__FILE__, __LINE__, (STATUS)); \
      (CALLBACK)();                                    \
      return;                                          \
    }                                                  \
  } while (0)

#define OP_REQUIRES_OK_ASYNC(CTX, STATUS, CALLBACK)                                 \
  do {                                                                              \
    const ::absl::Status sluice_op_requires_status_(STATUS);                        \
    if (ABSL_PREDICT_FALSE(!sluice_op_requires_status_.ok())) {                     \
      (CTX)->CtxFailureWithWarning(__FILE__, __LINE__, sluice_op_requires_status_); \
      (CALLBACK)();                                                                 \
      return;                                                                       \
    }                                                                               \
  } while (0)

#endif  // SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_H_
