// What a step does around one node, shared by the executors (executor.cc for graphs
// without control flow, frame_executor.cc for graphs with it): the input slots a node's
// producers fill (InputSlot), reading them into the kernel's inputs, the node's error status and
// its step statistics.
#ifndef SLUICE_RUNTIME_EXECUTOR_EXECUTOR_NODE_IO_H_
#define SLUICE_RUNTIME_EXECUTOR_EXECUTOR_NODE_IO_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <utility>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"
#include "proto/step_stats.pb.h"
#include "runtime/device/device.h"
#include "runtime/executor/executor.h"
#include "runtime/executor/executor_graph.h"
#include "runtime/executor/step_stats_collector.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/node_output_observer.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/rendezvous.h"
#include "runtime/framework/resource_var.h"

namespace sluice {

// One input slot of a step. `value` is alive only while value_alive: slots are made and
// cleared far more often than they hold anything, and an empty Tensor is not free.
struct InputSlot {
  InputSlot() {}
  ~InputSlot() { Clear(); }
  InputSlot(const InputSlot&) = delete;
  InputSlot& operator=(const InputSlot&) = delete;

  void SetValue(const Tensor& t) {
    new (&value) Tensor(t);
    value_alive = true;
    has_value = true;
  }
  // For an output's last reader: takes the producer's reference instead of adding one (two
  // atomic read-modify-writes fewer per edge).
  void SetValue(Tensor&& t) {
    new (&value) Tensor(std::move(t));
    value_alive = true;
    has_value = true;
  }
  void SetRef(Tensor* t, absl::Mutex* mu) {
    ref = t;
    ref_mu = mu;
    has_value = true;
  }
  // Room for a snapshot of a ref read as a value.
  Tensor* MutableValue() {
    if (!value_alive) {
      new (&value) Tensor();
      value_alive = true;
    }
    return &value;
  }
  void Clear() {
    if (value_alive) {
      value.~Tensor();
      value_alive = false;
    }
    ref = nullptr;
    ref_mu = nullptr;
    has_value = false;
    is_dead = false;
  }

  union {
    Tensor value;  // the value, unless the producer's output was a ref
  };
  Tensor* ref = nullptr;          // a ref output: the producer's tensor ...
  absl::Mutex* ref_mu = nullptr;  // ... and the mutex guarding it
  bool has_value = false;
  bool value_alive = false;
  // A dead input (an untaken Switch branch and what depends on it); only the control-flow
  // executor sets it.
  bool is_dead = false;
};

// The step's status for a node's failure: the kernel's code and message, the op type, and
// the node (TensorFlow's "\n\t [[{{node n}}]]").
absl::Status NodeError(const ExecutorNode& item, const absl::Status& s);

// Points `inputs` (the node's run of the kernel inputs) at its slots `first`. A ref read as a
// value is snapshotted under its mutex (FAILED_PRECONDITION for an uninitialized variable).
// A slot without a value is INTERNAL, unless `allow_missing` (a Merge's dead inputs), when
// its input is left null. Inline: it runs for every node of every step.
inline absl::Status PrepareNodeInputs(const ExecutorNode& item, InputSlot* first,
                                      TensorValue* inputs, bool allow_missing) {
  for (int i = 0; i < item.num_inputs; ++i) {
    InputSlot& entry = first[i];
    if (ABSL_PREDICT_FALSE(!entry.has_value)) {
      if (allow_missing) {
        inputs[i] = TensorValue();
        continue;
      }
      return AttachDef(
          errors::Internal("Missing required input ", i, " of ", item.node->type_string(),
                           " node '", item.node->name(), "': its producer is not in this graph"),
          item.node->def());
    }
    if (entry.ref == nullptr && !item.ref_inputs) {
      inputs[i] = TensorValue(&entry.value);
      continue;
    }
    const bool expects_ref = IsRefType(item.kernel->input_type(i));
    if (entry.ref == nullptr) {
      if (expects_ref) {
        return AttachDef(errors::InvalidArgument(i, "-th input expects a ref type"),
                         item.node->def());
      }
      inputs[i] = TensorValue(&entry.value);
    } else if (expects_ref) {
      inputs[i] = TensorValue(entry.ref_mu, entry.ref);
    } else {
      // A ref read as a value: a snapshot taken under the ref's mutex, sharing its buffer;
      // an uninitialized variable is TensorFlow's FAILED_PRECONDITION naming it.
      Tensor* snapshot = entry.MutableValue();
      RETURN_IF_ERROR(
          ReadRefInput(item.node->def(), i, TensorValue(entry.ref_mu, entry.ref), snapshot));
      inputs[i] = TensorValue(snapshot);
    }
  }
  return absl::OkStatus();
}

// The services a step hands every kernel (from Executor::Args), and the step's first error.
// Shared by both executors; the error half is thread-safe.
class StepServices {
 public:
  StepServices(const Executor::Args& args, Device* device)
      : step_id(args.step_id),
        device(device),
        rendezvous(args.rendezvous),
        call_frame(args.call_frame),
        cancellation_manager(args.cancellation_manager),
        resource_manager(args.resource_manager),
        step_container(args.step_container),
        stats_collector(args.stats_collector),
        output_observer(args.output_observer),
        runner(args.runner) {}

  // Sets the step's services on a kernel context's params.
  void FillParams(OpKernelContext::Params* params) const {
    params->step_id = step_id;
    params->device = device;
    params->rendezvous = rendezvous;
    params->call_frame = call_frame;
    params->cancellation_manager = cancellation_manager;
    params->resource_manager = resource_manager;
    params->step_container = step_container;
    params->runner = runner ? &runner : nullptr;
  }

  // The first error claims the step's status; it aborts the rendezvous and cancels the step
  // (so pending Recvs and blocked kernels wake up). Later errors are dropped.
  void RecordError(const absl::Status& s) {
    if (error_claimed_.exchange(true, std::memory_order_acq_rel)) return;
    status_ = s;
    aborted_.store(true, std::memory_order_release);
    if (rendezvous != nullptr) rendezvous->StartAbort(s);
    if (cancellation_manager != nullptr) cancellation_manager->StartCancel();
  }
  bool aborted() const { return aborted_.load(std::memory_order_acquire); }
  // The recorded status (OK if none); call once, after every node finished.
  absl::Status TakeStatus() { return std::move(status_); }

  const int64_t step_id;
  Device* const device;
  Rendezvous* const rendezvous;
  CallFrameInterface* const call_frame;
  CancellationManager* const cancellation_manager;
  ResourceMgr* const resource_manager;
  ScopedStepContainer* const step_container;
  StepStatsCollector* const stats_collector;
  NodeOutputObserver* const output_observer;
  // Whether every node must run its kernel and show its outputs: the executors' shortcuts
  // (a Const's value passed on directly, Identity-likes forwarded) are off.
  bool runs_every_kernel() const {
    return stats_collector != nullptr || output_observer != nullptr;
  }
  const std::function<void(std::function<void()>)> runner;

 private:
  std::atomic<bool> aborted_{false};
  // Written once by the claiming thread before its node finishes; read only after every
  // node finished (the executors' outstanding counts order it), so no mutex.
  std::atomic<bool> error_claimed_{false};
  absl::Status status_;
};

// Shows output `index` of a node that ran to `observer` (never null); a failure comes back
// attributed to the node. Dead (null) outputs are skipped.
// Values in a GPU's memory are shown as host copies, so that observers can read them.
absl::Status ObserveOutput(NodeOutputObserver* observer, const ExecutorNode& item, int index,
                           const TensorValue& value, DeviceBase* device);

// Step statistics of one node (NodeExecStats), in nanoseconds with derived micros fields.
std::unique_ptr<NodeExecStats> StartNodeStats(const ExecutorNode& item);
void SetOpStart(NodeExecStats* stats);
void SetOpEnd(NodeExecStats* stats);
// Appends the kernel's note for this run (OpKernelContext::stats_note), if any, to the
// timeline label: "name = op(inputs) [note]".
void AddKernelNote(const OpKernelContext& ctx, NodeExecStats* stats);
// Records output `slot` (its description and allocation) on `stats`.
void RecordOutput(int slot, const TensorValue& value, Allocator* allocator, NodeExecStats* stats);
// Sets the end time.
void SetAllEnd(NodeExecStats* stats);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_EXECUTOR_EXECUTOR_NODE_IO_H_
