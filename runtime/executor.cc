// The local executor.
//
// Design. Construction (executor_graph.h) lays the graph out once in flat arrays: per node
// its kernel, the start of its inputs in a per-step slot array, its out edges as
// (consumer, consumer slot) runs sorted by output, its initial pending count (in-edges,
// data and control) and whether its kernel is asynchronous or expensive; the roots are the
// nodes without in-edges. A step (ExecutorState, deleted when the step ends) owns exactly
// two per-node arrays: an atomic pending count per node and an Entry per input slot.
//
// A thread runs Process over a small local ready queue: for each node it points the
// kernel's inputs at the node's slots, calls Device::Compute, clears the input slots (so a
// buffer held only by its consumer can be forwarded in place), then moves every output
// into its consumers' slots (the last reader of an output takes it by move; the others
// copy, which shares the buffer) and decrements their pending counts. A consumer whose
// count reaches zero is ready: cheap ones join the local queue; expensive ones go to
// args.runner, except one that stays on this thread when nothing cheap is queued. No lock
// is taken per node: slots are written by the one producer of each slot before the
// release-decrement that makes the consumer ready, and read after it.
//
// Asynchronous kernels get a heap-allocated AsyncNode (their context must outlive the
// call). Whichever comes second, the kernel's done callback or ComputeAsync returning,
// completes the node, so a kernel that calls back at once continues on the same loop
// without recursion, and one that calls back later continues on the callback's thread.
//
// outstanding_ counts nodes that are ready or running; the thread that brings it to zero
// ends the step. The first error is recorded, aborts the rendezvous and cancels the
// cancellation manager; from then on ready nodes are dropped without running, and the step
// ends once the nodes already running have finished.
//
// Dead tensors and loop frames (Switch/Merge/Enter/Exit/NextIteration) are not run yet:
// such graphs are rejected at construction; Entry keeps an is_dead bit for them.
#include "runtime/executor.h"

#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "graph/allocator.h"
#include "graph/errors.h"
#include "graph/node_def_util.h"
#include "proto/step_stats.pb.h"
#include "runtime/cancellation.h"
#include "runtime/device.h"
#include "runtime/executor_graph.h"
#include "runtime/rendezvous.h"
#include "runtime/resource_var.h"
#include "runtime/step_stats_collector.h"

namespace sluice {
namespace {

// What a cleared slot holds. Assigning from it drops the buffer without building a new
// shape (a default-constructed Tensor validates one), which matters once per input per node.
const Tensor& EmptyTensor() {
  static const Tensor* const empty = new Tensor();
  return *empty;
}

// One input slot of a step.
struct Entry {
  Tensor value;                   // the value, unless the producer's output was a ref
  Tensor* ref = nullptr;          // a ref output: the producer's tensor ...
  absl::Mutex* ref_mu = nullptr;  // ... and the mutex guarding it
  bool has_value = false;
  // Set by Switch for the untaken branch once control flow is supported; false until then.
  bool is_dead = false;

  void Clear() {
    value = EmptyTensor();
    ref = nullptr;
    ref_mu = nullptr;
    has_value = false;
    is_dead = false;
  }
};

using ReadyList = absl::InlinedVector<int32_t, 8>;
using InputVector = absl::InlinedVector<TensorValue, 4>;
using OutputVector = absl::InlinedVector<TensorValue, 4>;

// The step's status for a node's failure: the kernel's code and message, the op type, and
// the node (TensorFlow's "\n\t [[{{node n}}]]").
absl::Status NodeError(const ExecutorNode& item, const absl::Status& s) {
  return AttachDef(absl::Status(s.code(), absl::StrCat(s.message(), " [Op:",
                                                       item.node->type_string(), "]")),
                   item.node->def());
}

// Stats times are taken in nanoseconds; the micros fields are derived from them.
void SetOpStart(NodeExecStats* stats) {
  const int64_t rel = StatsNowNanos() - stats->all_start_nanos();
  stats->set_op_start_rel_nanos(rel);
  stats->set_op_start_rel_micros(rel / 1000);
}

void SetOpEnd(NodeExecStats* stats) {
  const int64_t rel = StatsNowNanos() - stats->all_start_nanos();
  stats->set_op_end_rel_nanos(rel);
  stats->set_op_end_rel_micros(rel / 1000);
}

void RecordOutput(int slot, const TensorValue& value, Allocator* allocator,
                  NodeExecStats* stats) {
  NodeOutput* output = stats->add_output();
  output->set_slot(slot);
  TensorDescription* description = output->mutable_tensor_description();
  const Tensor& t = *value.tensor;
  description->set_dtype(t.dtype());
  t.shape().AsProto(description->mutable_shape());
  AllocationDescription* allocation = description->mutable_allocation_description();
  allocation->set_requested_bytes(static_cast<int64_t>(t.TotalBytes()));
  allocation->set_allocated_bytes(static_cast<int64_t>(t.AllocatedBytes()));
  allocation->set_allocator_name(allocator->Name());
  allocation->set_has_single_reference(t.RefCountIsOne());
  allocation->set_ptr(reinterpret_cast<uint64_t>(t.raw_data()));
}

class ExecutorImpl : public Executor {
 public:
  ExecutorImpl(Device* device, std::unique_ptr<ExecutorGraph> layout)
      : device_(device), layout_(std::move(layout)) {}

  void RunAsync(const Args& args, DoneCallback done) override;

  Device* device() const { return device_; }
  const ExecutorGraph& layout() const { return *layout_; }

 private:
  Device* const device_;
  const std::unique_ptr<ExecutorGraph> layout_;
};

// The state of one step; deletes itself when the step ends.
class ExecutorState {
 public:
  ExecutorState(const ExecutorImpl& impl, const Executor::Args& args,
                Executor::DoneCallback done);

  // Schedules the roots.
  void Start();

 private:
  struct AsyncNode;

  // Runs `initial` and every cheap node they make ready, on this thread.
  void Process(absl::Span<const int32_t> initial);
  // Runs node `id`. Returns false if it went asynchronous and someone else completes it;
  // otherwise its status and the nodes it made ready are in *status and *ready.
  bool RunNode(int32_t id, OpKernelContext::Params* params, InputVector* inputs,
               ReadyList* ready, absl::Status* status);
  void AsyncDone(AsyncNode* async_node);
  absl::Status PrepareInputs(const ExecutorNode& item, InputVector* inputs);
  void ClearInputs(const ExecutorNode& item);
  // After the kernel ran: clears its inputs and propagates its outputs.
  absl::Status FinishNode(const ExecutorNode& item, OpKernelContext* ctx, NodeExecStats* stats,
                          ReadyList* ready);
  absl::Status PropagateOutputs(const ExecutorNode& item, OpKernelContext* ctx,
                                NodeExecStats* stats, ReadyList* ready);
  // Accounts for a finished node; returns true if the step is over (call Finish).
  bool NodeDone(const absl::Status& s, const ReadyList& ready, ReadyList* inline_ready);
  // inline_ready is null when the caller is not a Process loop (an async callback).
  void ScheduleReady(const ReadyList& ready, ReadyList* inline_ready);
  // Hands node `id` (already counted in outstanding_) to the runner.
  void Dispatch(int32_t id);
  // Runs `dispatch` (which calls Dispatch) so that the step outlives it.
  template <typename Fn>
  void HoldWhileDispatching(Fn dispatch);
  void RecordError(const absl::Status& s);
  std::unique_ptr<NodeExecStats> StartStats(const ExecutorNode& item) const;
  void SaveStats(std::unique_ptr<NodeExecStats> stats) const;
  void Finish();

  // Constant for the step.
  const ExecutorGraph& layout_;
  Device* const device_;
  const int64_t step_id_;
  Rendezvous* const rendezvous_;
  CallFrameInterface* const call_frame_;
  CancellationManager* const cancellation_manager_;
  ResourceMgr* const resource_manager_;
  StepStatsCollector* const stats_collector_;
  const std::function<void(std::function<void()>)> runner_;
  Executor::DoneCallback done_;

  // Per node and per input slot; see the file comment for why no lock guards them.
  std::unique_ptr<std::atomic<int32_t>[]> pending_;
  std::unique_ptr<Entry[]> slots_;
  // Nodes ready or running.
  std::atomic<int64_t> outstanding_{0};
  // Set with the first error: stop running nodes.
  std::atomic<bool> aborted_{false};

  // The first error claims the step's status. Written once by the claiming thread before
  // its node finishes, and read only by Finish, which the acq_rel decrements of
  // outstanding_ order after it; no mutex, whose construction per step is not free.
  std::atomic<bool> error_claimed_{false};
  absl::Status status_;
};

// What an asynchronous kernel's context needs until its done callback: a copy of the
// inputs and params (the Process loop reuses its own), the context, the stats.
struct ExecutorState::AsyncNode {
  AsyncNode(int32_t id, const OpKernelContext::Params& p, const InputVector& in,
            std::unique_ptr<NodeExecStats> node_stats)
      : id(id), inputs(in), params(p), ctx(BindInputs(&params, inputs)),
        stats(std::move(node_stats)) {}

  static OpKernelContext::Params* BindInputs(OpKernelContext::Params* p,
                                             const InputVector& inputs) {
    p->inputs = absl::MakeConstSpan(inputs);
    return p;
  }

  const int32_t id;
  const InputVector inputs;
  OpKernelContext::Params params;
  OpKernelContext ctx;
  std::unique_ptr<NodeExecStats> stats;
  // Filled by AsyncDone for whoever completes the node.
  absl::Status status;
  ReadyList ready;
  // The first of {done callback, ComputeAsync returning} sets it; the second completes.
  std::atomic<bool> claimed{false};
};

ExecutorState::ExecutorState(const ExecutorImpl& impl, const Executor::Args& args,
                             Executor::DoneCallback done)
    : layout_(impl.layout()),
      device_(impl.device()),
      step_id_(args.step_id),
      rendezvous_(args.rendezvous),
      call_frame_(args.call_frame),
      cancellation_manager_(args.cancellation_manager),
      resource_manager_(args.resource_manager),
      stats_collector_(args.stats_collector),
      runner_(args.runner),
      done_(std::move(done)),
      pending_(new std::atomic<int32_t>[layout_.num_nodes()]),
      slots_(new Entry[layout_.num_input_slots()]) {
  for (int i = 0; i < layout_.num_nodes(); ++i) {
    pending_[i].store(layout_.node(i).initial_pending, std::memory_order_relaxed);
  }
}

void ExecutorState::Start() {
  absl::Span<const int32_t> cheap = layout_.cheap_roots();
  absl::Span<const int32_t> expensive = layout_.expensive_roots();
  const int64_t num_roots = static_cast<int64_t>(cheap.size() + expensive.size());
  if (num_roots == 0) {
    Finish();
    return;
  }
  outstanding_.store(num_roots, std::memory_order_relaxed);
  if (!runner_) {
    ReadyList roots(cheap.begin(), cheap.end());
    roots.insert(roots.end(), expensive.begin(), expensive.end());
    Process(roots);
    return;
  }
  HoldWhileDispatching([this, cheap, expensive]() {
    for (int32_t id : expensive) Dispatch(id);
    if (!cheap.empty()) runner_([this, cheap]() { Process(cheap); });
  });
}

void ExecutorState::Dispatch(int32_t id) {
  runner_([this, id]() { Process(absl::MakeConstSpan(&id, 1)); });
}

template <typename Fn>
void ExecutorState::HoldWhileDispatching(Fn dispatch) {
  // Without the extra count, the last node handed out could end the step (deleting
  // runner_) while runner_ is still being called.
  outstanding_.fetch_add(1, std::memory_order_relaxed);
  dispatch();
  if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) Finish();
}

void ExecutorState::Process(absl::Span<const int32_t> initial) {
  // Popped from the back: reversed so that `initial` runs in order.
  ReadyList inline_ready(initial.rbegin(), initial.rend());
  ReadyList ready;
  InputVector inputs;
  OpKernelContext::Params params;
  params.step_id = step_id_;
  params.device = device_;
  params.rendezvous = rendezvous_;
  params.call_frame = call_frame_;
  params.cancellation_manager = cancellation_manager_;
  params.resource_manager = resource_manager_;
  params.runner = runner_ ? &runner_ : nullptr;

  while (!inline_ready.empty()) {
    const int32_t id = inline_ready.back();
    inline_ready.pop_back();
    ready.clear();
    absl::Status s;
    if (cancellation_manager_ != nullptr && cancellation_manager_->IsCancelled() &&
        !aborted_.load(std::memory_order_acquire)) {
      // Cancelled from outside (e.g. the session's timeout): stop at the next node.
      RecordError(errors::Cancelled("The step was cancelled before node '",
                                    layout_.node(id).node->name(), "' ran"));
    }
    if (!aborted_.load(std::memory_order_acquire)) {
      if (!RunNode(id, &params, &inputs, &ready, &s)) continue;
    }
    if (NodeDone(s, ready, &inline_ready)) {
      Finish();
      return;
    }
  }
}

bool ExecutorState::RunNode(int32_t id, OpKernelContext::Params* params, InputVector* inputs,
                            ReadyList* ready, absl::Status* status) {
  const ExecutorNode& item = layout_.node(id);
  std::unique_ptr<NodeExecStats> stats;
  if (stats_collector_ != nullptr) stats = StartStats(item);

  absl::Status s = PrepareInputs(item, inputs);
  if (!s.ok()) {
    ClearInputs(item);
    SaveStats(std::move(stats));
    *status = s;
    return true;
  }
  params->op_kernel = item.kernel;
  params->inputs = absl::MakeConstSpan(*inputs);

  if (item.async != nullptr) {
    auto* async_node = new AsyncNode(id, *params, *inputs, std::move(stats));
    if (async_node->stats) SetOpStart(async_node->stats.get());
    device_->ComputeAsync(item.async, &async_node->ctx,
                          [this, async_node]() { AsyncDone(async_node); });
    if (!async_node->claimed.exchange(true, std::memory_order_acq_rel)) return false;
    // The kernel called back before ComputeAsync returned: complete it on this loop.
    *status = std::move(async_node->status);
    ready->swap(async_node->ready);
    delete async_node;
    return true;
  }

  OpKernelContext ctx(params);
  if (stats) SetOpStart(stats.get());
  device_->Compute(item.kernel, &ctx);
  *status = FinishNode(item, &ctx, stats.get(), ready);
  SaveStats(std::move(stats));
  return true;
}

void ExecutorState::AsyncDone(AsyncNode* async_node) {
  const ExecutorNode& item = layout_.node(async_node->id);
  async_node->status =
      FinishNode(item, &async_node->ctx, async_node->stats.get(), &async_node->ready);
  SaveStats(std::move(async_node->stats));
  if (!async_node->claimed.exchange(true, std::memory_order_acq_rel)) {
    return;  // ComputeAsync has not returned yet; the Process loop completes the node.
  }
  const absl::Status status = std::move(async_node->status);
  const ReadyList ready = std::move(async_node->ready);
  delete async_node;
  if (NodeDone(status, ready, nullptr)) Finish();
}

absl::Status ExecutorState::PrepareInputs(const ExecutorNode& item, InputVector* inputs) {
  inputs->resize(item.num_inputs);
  Entry* first = slots_.get() + item.input_start;
  for (int i = 0; i < item.num_inputs; ++i) {
    Entry& entry = first[i];
    if (!entry.has_value) {
      return AttachDef(errors::Internal("Missing required input ", i, " of ",
                                        item.node->type_string(), " node '",
                                        item.node->name(), "': its producer is not in this graph"),
                       item.node->def());
    }
    const bool expects_ref = IsRefType(item.kernel->input_type(i));
    if (entry.ref == nullptr) {
      if (expects_ref) {
        return AttachDef(errors::InvalidArgument(i, "-th input expects a ref type"),
                         item.node->def());
      }
      (*inputs)[i] = TensorValue(&entry.value);
    } else if (expects_ref) {
      (*inputs)[i] = TensorValue(entry.ref_mu, entry.ref);
    } else {
      // A ref read as a value: a snapshot taken under the ref's mutex, sharing its buffer;
      // an uninitialized variable is TensorFlow's FAILED_PRECONDITION naming it.
      RETURN_IF_ERROR(ReadRefInput(item.node->def(), i, TensorValue(entry.ref_mu, entry.ref),
                                   &entry.value));
      (*inputs)[i] = TensorValue(&entry.value);
    }
  }
  return absl::OkStatus();
}

void ExecutorState::ClearInputs(const ExecutorNode& item) {
  Entry* first = slots_.get() + item.input_start;
  for (int i = 0; i < item.num_inputs; ++i) first[i].Clear();
}

absl::Status ExecutorState::FinishNode(const ExecutorNode& item, OpKernelContext* ctx,
                                       NodeExecStats* stats, ReadyList* ready) {
  if (stats != nullptr) SetOpEnd(stats);
  ClearInputs(item);
  if (!ctx->status().ok()) return NodeError(item, ctx->status());
  return PropagateOutputs(item, ctx, stats, ready);
}

absl::Status ExecutorState::PropagateOutputs(const ExecutorNode& item, OpKernelContext* ctx,
                                             NodeExecStats* stats, ReadyList* ready) {
  OutputVector outputs(item.num_outputs);
  for (int i = 0; i < item.num_outputs; ++i) {
    outputs[i] = ctx->release_output(i);
    if (outputs[i].tensor == nullptr) {
      return AttachDef(errors::Internal("Missing ", i, "-th output from ",
                                        FormatNodeDefForError(item.node->def())),
                       item.node->def());
    }
    if (stats != nullptr) {
      RecordOutput(i, outputs[i], device_->GetAllocator(), stats);
    }
  }
  for (const ExecutorEdge& edge : layout_.out_edges(item)) {
    if (edge.dst_slot >= 0) {
      Entry& entry = slots_[edge.dst_slot];
      const TensorValue& value = outputs[edge.src_output];
      if (value.is_ref()) {
        entry.ref = value.tensor;
        entry.ref_mu = value.mutex_if_ref;
      } else if (edge.last_use) {
        entry.value = std::move(*value.tensor);
      } else {
        entry.value = *value.tensor;
      }
      entry.has_value = true;
    }
    // Release: the slot written above is visible to whoever sees the count reach zero. A
    // consumer with this one in-edge is made ready by this thread alone, so needs no count.
    if (edge.sole_input ||
        pending_[edge.dst].fetch_sub(1, std::memory_order_acq_rel) == 1) {
      ready->push_back(edge.dst);
    }
  }
  return absl::OkStatus();
}

bool ExecutorState::NodeDone(const absl::Status& s, const ReadyList& ready,
                             ReadyList* inline_ready) {
  if (!s.ok()) RecordError(s);
  const int64_t num_ready =
      aborted_.load(std::memory_order_acquire) ? 0 : static_cast<int64_t>(ready.size());
  if (num_ready == 0) return outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  // This node's count passes to one of the ready nodes; count the others before any of
  // them can run (and finish) elsewhere.
  if (num_ready > 1) outstanding_.fetch_add(num_ready - 1, std::memory_order_relaxed);
  ScheduleReady(ready, inline_ready);
  return false;
}

void ExecutorState::ScheduleReady(const ReadyList& ready, ReadyList* inline_ready) {
  if (inline_ready == nullptr) {
    if (!runner_) {
      Process(ready);
      return;
    }
    HoldWhileDispatching([this, &ready]() {
      for (int32_t id : ready) Dispatch(id);
    });
    return;
  }
  if (!runner_) {
    inline_ready->insert(inline_ready->end(), ready.rbegin(), ready.rend());
    return;
  }
  int32_t kept = -1;  // the last expensive node, a candidate to run on this thread
  for (auto it = ready.rbegin(); it != ready.rend(); ++it) {
    if (!layout_.node(*it).expensive) {
      inline_ready->push_back(*it);
      continue;
    }
    if (kept >= 0) Dispatch(kept);
    kept = *it;
  }
  if (kept < 0) return;
  if (inline_ready->empty()) {
    inline_ready->push_back(kept);
  } else {
    Dispatch(kept);
  }
}

void ExecutorState::RecordError(const absl::Status& s) {
  if (error_claimed_.exchange(true, std::memory_order_acq_rel)) return;
  status_ = s;
  aborted_.store(true, std::memory_order_release);
  // This node has not finished yet (outstanding_ > 0), so the step outlives these calls
  // even when they complete other nodes synchronously.
  if (rendezvous_ != nullptr) rendezvous_->StartAbort(s);
  if (cancellation_manager_ != nullptr) cancellation_manager_->StartCancel();
}

std::unique_ptr<NodeExecStats> ExecutorState::StartStats(const ExecutorNode& item) const {
  auto stats = std::make_unique<NodeExecStats>();
  const NodeDef& def = item.node->def();
  stats->set_node_name(def.name());
  const int64_t now_nanos = StatsNowNanos();
  stats->set_all_start_nanos(now_nanos);
  stats->set_all_start_micros(now_nanos / 1000);
  stats->set_scheduled_nanos(now_nanos);
  stats->set_scheduled_micros(now_nanos / 1000);
  stats->set_thread_id(StatsThreadId());
  stats->set_timeline_label(
      absl::StrCat(def.name(), " = ", def.op(), "(", absl::StrJoin(def.input(), ", "), ")"));
  return stats;
}

void ExecutorState::SaveStats(std::unique_ptr<NodeExecStats> stats) const {
  if (stats == nullptr) return;
  const int64_t end_rel_nanos = StatsNowNanos() - stats->all_start_nanos();
  stats->set_all_end_rel_nanos(end_rel_nanos);
  stats->set_all_end_rel_micros(end_rel_nanos / 1000);
  stats_collector_->Save(device_->name(), std::move(*stats));
}

void ExecutorState::Finish() {
  absl::Status status = std::move(status_);
  // Devices that queue work (GPU) finish it before the step counts as done.
  if (status.ok()) status = device_->Sync();
  Executor::DoneCallback done = std::move(done_);
  delete this;
  done(status);
}

void ExecutorImpl::RunAsync(const Args& args, DoneCallback done) {
  (new ExecutorState(*this, args, std::move(done)))->Start();
}

}  // namespace

absl::Status Executor::Run(const Args& args) {
  absl::Notification finished;
  absl::Status status;
  RunAsync(args, [&status, &finished](const absl::Status& s) {
    status = s;
    finished.Notify();
  });
  finished.WaitForNotification();
  return status;
}

absl::Status NewLocalExecutor(const LocalExecutorParams& params, std::unique_ptr<const Graph> graph,
                              std::unique_ptr<Executor>* executor) {
  if (params.device == nullptr) {
    return errors::InvalidArgument("NewLocalExecutor requires a device");
  }
  if (!params.create_kernel) {
    return errors::InvalidArgument("NewLocalExecutor requires a create_kernel function");
  }
  if (graph == nullptr) return errors::InvalidArgument("NewLocalExecutor requires a graph");
  std::unique_ptr<ExecutorGraph> layout;
  RETURN_IF_ERROR(ExecutorGraph::Build(std::move(graph), params.create_kernel, &layout));
  *executor = std::make_unique<ExecutorImpl>(params.device, std::move(layout));
  return absl::OkStatus();
}

}  // namespace sluice
