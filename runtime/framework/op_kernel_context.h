// OpKernelContext: one kernel invocation's inputs, outputs, device and status.
//
// The executor fills a Params (the kernel, the device, the inputs for this step), builds a
// context on the stack and calls OpKernel::Compute (or ComputeAsync). The kernel reads
// inputs, fills every output with allocate_output / forward_input_or_allocate_output /
// set_output, and reports failure with OP_REQUIRES / OP_REQUIRES_OK (which set the status
// and return). Afterwards the executor takes the outputs with release_output.
//
// Rules checked here rather than trusted:
//  - an output's dtype must be the one the node declares; set_output with another dtype
//    sets INTERNAL "Output 0 of type int32 does not match declared output type float for
//    node {{node n}}" and leaves the output unset;
//  - allocate_output on a bad index, a ref-typed output or an output already set is
//    INTERNAL naming the kernel;
//  - forward_input_or_allocate_output reuses an input's buffer only when the input is not a
//    ref, has the output's dtype, element count and memory type, and its buffer is held by
//    no Tensor but the input itself (Tensor::RefCountIsOne), so no one else sees the writes.
// Index arguments (input(i), set_output(i)...) are the kernel's own invariants and CHECKed.
//
// Ownership: Params and everything it points at (kernel, device, input tensors, ref
// mutexes) are owned by the caller and outlive the context. The context owns the tensors of
// non-ref outputs until it is destroyed.
// Thread safety: a context serves one invocation; an async kernel may finish it on another
// thread, but not from two threads at once.
#ifndef SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_CONTEXT_H_
#define SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_CONTEXT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "absl/base/optimization.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "glog/logging.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/device_type.h"

namespace Eigen {
struct ThreadPoolDevice;
}  // namespace Eigen

namespace sluice {

class CallFrameInterface;
class CancellationManager;
class DeviceBase;
class OpKernel;
class OpKernelContext;
class Rendezvous;
class ResourceMgr;
class ScopedStepContainer;

// One input or output slot: a tensor, and for ref-typed slots the mutex guarding it.
struct TensorValue {
  TensorValue() = default;
  explicit TensorValue(Tensor* t) : tensor(t) {}
  TensorValue(absl::Mutex* mu, Tensor* t) : tensor(t), mutex_if_ref(mu) {}

  bool is_ref() const { return mutex_if_ref != nullptr; }
  Tensor* operator->() const { return tensor; }
  // The slot's dtype (a ref type for ref slots); DT_INVALID when empty.
  DataType dtype() const;

  Tensor* tensor = nullptr;
  absl::Mutex* mutex_if_ref = nullptr;
};

// The inputs of a list-valued arg ("values: N * T"), by position within the arg.
class OpInputList {
 public:
  OpInputList() = default;
  OpInputList(OpKernelContext* ctx, int start, int stop) : ctx_(ctx), start_(start), stop_(stop) {}
  int size() const { return stop_ - start_; }
  const Tensor& operator[](int i) const;

 private:
  OpKernelContext* ctx_ = nullptr;
  int start_ = 0;
  int stop_ = 0;
};

// The outputs of a list-valued arg, by position within the arg.
class OpOutputList {
 public:
  OpOutputList() = default;
  OpOutputList(OpKernelContext* ctx, int start, int stop) : ctx_(ctx), start_(start), stop_(stop) {}
  int size() const { return stop_ - start_; }
  // The i-th output's tensor, or nullptr if not yet set.
  Tensor* operator[](int i);
  DataType expected_output_dtype(int i) const;
  absl::Status allocate(int i, const TensorShape& shape, Tensor** output);
  void set(int i, const Tensor& tensor);

 private:
  OpKernelContext* ctx_ = nullptr;
  int start_ = 0;
  int stop_ = 0;
};

class OpKernelContext {
 public:
  struct Params {
    int64_t step_id = 0;
    OpKernel* op_kernel = nullptr;
    DeviceBase* device = nullptr;
    // One per kernel input, in order.
    absl::Span<const TensorValue> inputs;

    // Per-step services, set by the executor (all optional; none owned).
    // Cross-device and client transfers (_Send/_Recv kernels).
    Rendezvous* rendezvous = nullptr;
    // Feeds and fetches of a session step or function call (_Arg/_Retval kernels).
    CallFrameInterface* call_frame = nullptr;
    // Cancellation of the step; async kernels register callbacks with it.
    CancellationManager* cancellation_manager = nullptr;
    // Per-session resources (variables).
    ResourceMgr* resource_manager = nullptr;
    // Per-step resources (TensorArrays), a container of resource_manager.
    ScopedStepContainer* step_container = nullptr;
    // Runs closures on the step's inter-op pool (kernels that fan out work).
    const std::function<void(std::function<void()>)>* runner = nullptr;
    // The loop frame and iteration of this execution, for rendezvous keys ("frame_id:iter").
    std::string frame_iter = "0:0";
    // Set by the control-flow executor when a _Send runs on a dead input (an untaken
    // branch): it sends the deadness instead of a value.
    bool is_input_dead = false;
  };

  // REQUIRES: params->op_kernel and params->device are set.
  explicit OpKernelContext(Params* params);
  ~OpKernelContext();

  OpKernelContext(const OpKernelContext&) = delete;
  OpKernelContext& operator=(const OpKernelContext&) = delete;

  const OpKernel& op_kernel() const { return *params_->op_kernel; }
  DeviceBase* device() const { return params_->device; }
  int64_t step_id() const { return params_->step_id; }
  Rendezvous* rendezvous() const { return params_->rendezvous; }
  CallFrameInterface* call_frame() const { return params_->call_frame; }
  CancellationManager* cancellation_manager() const { return params_->cancellation_manager; }
  ResourceMgr* resource_manager() const { return params_->resource_manager; }
  ScopedStepContainer* step_container() const { return params_->step_container; }
  const std::function<void(std::function<void()>)>* runner() const { return params_->runner; }
  const std::string& frame_iter() const { return params_->frame_iter; }
  bool is_input_dead() const { return params_->is_input_dead; }
  // CHECKs that the device has one.
  const Eigen::ThreadPoolDevice& eigen_cpu_device() const;
  // How many threads this run of the kernel may use for its intra-op work (a ParallelFor's
  // team): set by the device per call from the core budget (runtime/device/core_budget.h),
  // at most eigen_cpu_device()->numThreads(), which is the default (1 without a pool).
  // Before Device::Compute it is a cap: the executor lowers it to 1 for a node measured too
  // small for a team.
  // Decisions that change results (how a sum is split into partial sums) must follow
  // numThreads(), which is fixed, never this, which follows the machine's load.
  int intra_op_threads() const { return intra_op_threads_; }
  void set_intra_op_threads(int threads) { intra_op_threads_ = threads; }
  // A note for this run's step statistics, which the executor appends to the node's
  // NodeExecStats.timeline_label (after TensorFlow's "name = op(inputs)") when it collects
  // them: something a kernel did on this step that its time alone does not explain, such as
  // compiling code. Notes added on one run are joined with "; ".
  void AddStatsNote(absl::string_view note) {
    absl::StrAppend(&stats_note_, stats_note_.empty() ? "" : "; ", note);
  }
  const std::string& stats_note() const { return stats_note_; }
  // eigen_device<Eigen::ThreadPoolDevice>() is eigen_cpu_device().
  template <typename EigenDevice>
  const EigenDevice& eigen_device() const;

  // Inputs ------------------------------------------------------------------------------
  int num_inputs() const { return static_cast<int>(params_->inputs.size()); }
  DataType input_dtype(int index) const;
  bool input_is_ref(int index) const;
  MemoryType input_memory_type(int index) const;
  // REQUIRES: 0 <= index < num_inputs() and the input is not a ref (CHECKed). Inline:
  // kernels call it for every input on every run.
  const Tensor& input(int index) const {
    if (ABSL_PREDICT_FALSE(index < 0 || index >= num_inputs() || params_->inputs[index].is_ref())) {
      BadInput(index);
    }
    return *params_->inputs[index].tensor;
  }
  // Whether input `index` has a value: false only for a Merge's dead inputs (the
  // control-flow executor leaves them empty).
  bool has_input(int index) const {
    return index >= 0 && index < num_inputs() && params_->inputs[index].tensor != nullptr;
  }
  // The single input named `name`. INVALID_ARGUMENT for an unknown name, a list-valued arg
  // or a ref input.
  absl::Status input(absl::string_view name, const Tensor** tensor) const;
  // The inputs of arg `name`. INVALID_ARGUMENT for an unknown name.
  absl::Status input_list(absl::string_view name, OpInputList* list);
  // Ref inputs: a copy of the referenced tensor (sharing its buffer), read under the ref's
  // mutex unless the caller holds it. REQUIRES: the input is a ref.
  Tensor mutable_input(int index, bool lock_held);
  absl::Mutex* input_ref_mutex(int index) const;

  // Outputs -----------------------------------------------------------------------------
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  DataType expected_output_dtype(int index) const;
  MemoryType output_memory_type(int index) const;

  // Allocates output `index` with the declared dtype and `shape` from the device's
  // allocator (its host allocator for HostMemory outputs). RESOURCE_EXHAUSTED when the
  // allocator fails; INTERNAL for a bad index, a ref output or an output already set.
  absl::Status allocate_output(int index, const TensorShape& shape, Tensor** output);
  absl::Status allocate_output(absl::string_view name, const TensorShape& shape, Tensor** output);
  // Reuses the buffer of the first candidate input that may be forwarded (see the file
  // comment), else allocates. *forwarded_input (if non-null) is the input used, or -1.
  absl::Status forward_input_or_allocate_output(absl::Span<const int> candidate_input_indices,
                                                int output_index, const TensorShape& shape,
                                                Tensor** output, int* forwarded_input = nullptr);
  // Makes output `output_index` a view of input `input_index` with `shape` if it may be
  // forwarded; returns whether it did.
  bool forward_input_to_output_with_shape(int input_index, int output_index,
                                          const TensorShape& shape, Tensor** output);
  // A scratch tensor from the device's allocator: device memory on a GPU, unless every
  // argument of the kernel is in host memory (a CPU kernel class registered for a GPU with
  // HostMemory everywhere is host code), when it comes from the device's host allocator.
  // Host working arrays belong in ScratchArray (kernels/cpu/scratch.h), host memory on every
  // device. RESOURCE_EXHAUSTED on failure.
  absl::Status allocate_temp(DataType dtype, const TensorShape& shape, Tensor* out_temp);

  // Output `index` becomes `tensor` (sharing its buffer). A dtype other than the declared
  // one sets INTERNAL on the context instead. REQUIRES: the output is not a ref and unset.
  void set_output(int index, const Tensor& tensor);
  absl::Status set_output(absl::string_view name, const Tensor& tensor);
  // Ref output `index` refers to `*tensor_for_ref`, guarded by `mu`. REQUIRES: the output is
  // a ref.
  void set_output_ref(int index, absl::Mutex* mu, Tensor* tensor_for_ref);
  // Ref output `output_index` refers to the same tensor as ref input `input_index`.
  void forward_ref_input_to_ref_output(int input_index, int output_index);
  absl::Status output_list(absl::string_view name, OpOutputList* list);
  // Output `index`'s tensor, or nullptr if not yet set.
  Tensor* mutable_output(int index);
  // Hands output `index` to the caller and empties the slot. For a non-ref output the
  // tensor is still owned by the context (valid until it is destroyed; the caller may move
  // from it); a ref output points at the caller's tensor.
  // REQUIRES: 0 <= index < num_outputs() (DCHECKed: only the executor calls it).
  TensorValue release_output(int index) {
    DCHECK_GE(index, 0);
    DCHECK_LT(index, num_outputs());
    const TensorValue value = outputs_[index];
    outputs_[index] = TensorValue();
    return value;
  }

  // Status ------------------------------------------------------------------------------
  // Keeps the first non-OK status.
  void SetStatus(const absl::Status& status);
  const absl::Status& status() const { return status_; }
  // Used by OP_REQUIRES (logs at VLOG(1)) and OP_REQUIRES_OK (logs a warning).
  void CtxFailure(const absl::Status& status);
  void CtxFailure(const char* file, int line, const absl::Status& status);
  void CtxFailureWithWarning(const absl::Status& status);
  void CtxFailureWithWarning(const char* file, int line, const absl::Status& status);

 private:
  // CHECK-fails with what is wrong with input(index).
  [[noreturn]] void BadInput(int index) const;
  absl::Status InputIndex(absl::string_view name, int* index) const;
  absl::Status OutputIndex(absl::string_view name, int* index) const;
  Allocator* AllocatorFor(MemoryType memory_type) const;
  absl::StatusOr<Tensor> AllocateTensor(DataType dtype, const TensorShape& shape,
                                        MemoryType memory_type) const;

  // The tensor of one non-ref output, constructed when the kernel first sets that output.
  // Most nodes set one or two outputs, and building and destroying an empty Tensor for
  // every declared output cost as much as running a scalar kernel.
  class LazyTensor {
   public:
    LazyTensor() {}
    ~LazyTensor() {
      if (constructed_) tensor_.~Tensor();
    }
    LazyTensor(const LazyTensor&) = delete;
    LazyTensor& operator=(const LazyTensor&) = delete;

    // The tensor, empty if nothing was stored yet.
    Tensor* get() {
      if (!constructed_) Construct(Tensor());
      return &tensor_;
    }
    // Stores `value` (copied or moved) and returns the stored tensor.
    template <typename T>
    Tensor* Set(T&& value) {
      if (constructed_) {
        tensor_ = std::forward<T>(value);
      } else {
        Construct(std::forward<T>(value));
      }
      return &tensor_;
    }

   private:
    template <typename T>
    void Construct(T&& value) {
      new (&tensor_) Tensor(std::forward<T>(value));
      constructed_ = true;
    }

    union {
      Tensor tensor_;
    };
    bool constructed_ = false;
  };
  static constexpr int kInlineOutputs = 4;

  Params* const params_;
  absl::Status status_;
  int intra_op_threads_ = 1;
  std::string stats_note_;
  // outputs_[i] points at output_tensors_[i] for a non-ref output once set.
  absl::InlinedVector<TensorValue, kInlineOutputs> outputs_;
  // Storage for the tensors of non-ref outputs: inline for kernels with at most
  // kInlineOutputs outputs, else heap_output_tensors_.
  LazyTensor inline_output_tensors_[kInlineOutputs];
  std::unique_ptr<LazyTensor[]> heap_output_tensors_;
  LazyTensor* const output_tensors_;
};

template <>
const Eigen::ThreadPoolDevice& OpKernelContext::eigen_device() const;

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_CONTEXT_H_
