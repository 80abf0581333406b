// The local executor.
//
// Design. Construction (executor_graph.h) lays the graph out once in flat arrays: per node
// its kernel, the start of its inputs in a per-step slot array, its out edges as
// (consumer, consumer slot) runs sorted by output, its initial pending count (in-edges,
// data and control) and whether its kernel is asynchronous or expensive; the roots are the
// nodes without in-edges. A step (ExecutorState, deleted when the step ends) uses exactly
// two per-node arrays, a StepFrame: an atomic pending count per node and an InputSlot per input
// slot. The executor keeps one frame from a finished step for the next one, so that
// sequential steps do not allocate them, and an InputSlot constructs its Tensor only while it
// holds a value (an empty Tensor costs a validated shape, once per slot per step otherwise).
//
// RunAsync runs the roots, and every node they make ready that stays on this thread, on the
// calling thread (a caller that waits for the step would otherwise hand its first node to the
// pool and sleep). A thread runs Process over a small local ready queue: for each node it points
// the kernel's inputs at the node's slots, calls Device::Compute, clears the input slots (so a
// buffer held only by its consumer can be forwarded in place), then copies every output into its
// consumers' slots (sharing the buffer; the last reader of an output takes the context's reference
// instead) and decrements their pending counts. The kernel's context, which holds the other
// reference when there are several readers, is gone before the consumers run on this thread. A
// consumer whose count reaches zero is ready: cheap ones join the local queue (a kernel that calls
// itself expensive but is measured to take a few microseconds counts as cheap, see KernelCosts).
// One expensive node is kept by the thread (deferred) and runs when its cheap queue is empty, or
// after kCheapNodesBeforeDeferred cheap nodes; every further expensive node whose measured
// work pays for a hand-off (KernelCosts::WorthAHandOff) goes to args.runner, so two of them
// run at once, while the device has a core for another thread (Device::ThreadsWorthRunning
// against the cores the process's threads occupy, CoreBudget::occupied: the loops here, the
// nodes handed over and the teams of running kernels); the others stay in the local queue. Handing
// the only expensive node to the pool, as TensorFlow's executor does when cheap work is queued,
// costs a wake-up on another core and a sleep of the caller, often more than the node itself. No
// lock is taken per node: slots are written by the one producer of each slot before the
// release-decrement that makes the consumer ready, and read after it.
//
// Kernels run in TensorFlow's floating-point mode, subnormal numbers flushed to zero
// (numerics/float_environment.h): pool threads are always in it, and Process sets it on the
// thread that calls it (a caller's, a device callback's) for as long as it runs. TensorFlow's
// kernels run on its pools' threads, which are in that mode; only a step it runs in the caller's
// thread (RunOptions.inter_op_thread_pool -1) computes in the caller's mode, and then only the
// shares of kernels that Eigen does not hand to the intra-op pool. Sluice flushes there too.
//
// A Const (its kernel's const_tensor()) is not run: its value is copied to the readers'
// slots, sharing the kernel's buffer, unless step stats are collected (they time every node).
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
// Graphs with control flow (Switch/Merge/Enter/Exit/NextIteration) run on the frame
// executor instead (frame_executor.h), which NewLocalExecutor picks for them.
#include "runtime/executor/executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "absl/base/optimization.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"
#include "numerics/float_environment.h"
#include "proto/step_stats.pb.h"
#include "runtime/device/core_budget.h"
#include "runtime/device/device.h"
#include "runtime/executor/executor_graph.h"
#include "runtime/executor/executor_node_io.h"
#include "runtime/executor/frame_executor.h"
#include "runtime/executor/kernel_costs.h"
#include "runtime/executor/step_stats_collector.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/rendezvous.h"
#include "runtime/framework/resource_var.h"

namespace sluice {
namespace {

// A Process loop runs at most this many cheap nodes while it keeps an expensive one waiting,
// so a long run of cheap work cannot starve the node on the critical path.
constexpr int kCheapNodesBeforeDeferred = 32;

// The per-step arrays. A frame goes back to its executor with every slot cleared.
struct StepFrame {
  explicit StepFrame(const ExecutorGraph& layout)
      : pending(new std::atomic<int32_t>[layout.num_nodes()]),
        slots(new InputSlot[layout.num_input_slots()]),
        inputs(new TensorValue[layout.num_input_slots()]) {}

  std::unique_ptr<std::atomic<int32_t>[]> pending;
  std::unique_ptr<InputSlot[]> slots;
  // What each node's kernel sees as its inputs (OpKernelContext::Params::inputs): the
  // node's run of this array, filled from its slots just before it runs. Only the thread
  // running a node touches its run.
  std::unique_ptr<TensorValue[]> inputs;
};

using ReadyList = absl::InlinedVector<int32_t, 8>;

class ExecutorImpl : public Executor {
 public:
  ExecutorImpl(Device* device, std::unique_ptr<ExecutorGraph> layout)
      : device_(device), layout_(std::move(layout)), costs_(*layout_) {}
  ~ExecutorImpl() override { delete spare_frame_.load(std::memory_order_acquire); }

  void RunAsync(const Args& args, DoneCallback done) override;

  Device* device() const { return device_; }
  const ExecutorGraph& layout() const { return *layout_; }
  KernelCosts& costs() const { return costs_; }

  // The spare frame if there is one, else a new one. Lock-free: concurrent steps beyond
  // the first simply allocate their own.
  std::unique_ptr<StepFrame> TakeFrame() const {
    StepFrame* spare = spare_frame_.exchange(nullptr, std::memory_order_acq_rel);
    if (spare != nullptr) return std::unique_ptr<StepFrame>(spare);
    return std::make_unique<StepFrame>(*layout_);
  }
  // REQUIRES: every slot of `frame` is clear.
  void ReturnFrame(std::unique_ptr<StepFrame> frame) const {
    StepFrame* expected = nullptr;
    if (spare_frame_.compare_exchange_strong(expected, frame.get(), std::memory_order_acq_rel,
                                             std::memory_order_relaxed)) {
      frame.release();
    }
  }

 private:
  Device* const device_;
  const std::unique_ptr<ExecutorGraph> layout_;
  mutable KernelCosts costs_;
  mutable std::atomic<StepFrame*> spare_frame_{nullptr};
};

// The state of one step; deletes itself when the step ends.
class ExecutorState {
 public:
  ExecutorState(const ExecutorImpl& impl, const Executor::Args& args, Executor::DoneCallback done);

  // Schedules the roots.
  void Start();

 private:
  struct AsyncNode;

  // Runs `initial`, then `deferred` (an expensive node kept for this thread, -1 for none),
  // and every node they make ready that stays on this thread.
  void Process(absl::Span<const int32_t> initial, int32_t deferred = -1);
  // Process by a thread that occupies a core (CoreBudget::Occupant; `promised` when a
  // Dispatch counted it) and holds one count of outstanding_ (so the step outlives the
  // loop); releases both when the loop ends.
  void ProcessCounted(absl::Span<const int32_t> initial, int32_t deferred, bool promised);
  // Whether one more thread running this step's nodes would get a core of its own: the
  // process's threads (of every step) occupy fewer cores than the device can use.
  bool CoreForAnotherThread() const {
    return CoreBudget::Get().occupied() < device_->ThreadsWorthRunning();
  }
  // Runs node `id`. Returns false if it went asynchronous and someone else completes it;
  // otherwise its status and the nodes it made ready are in *status and *ready.
  bool RunNode(int32_t id, OpKernelContext::Params* params, ReadyList* ready, absl::Status* status);
  void AsyncDone(AsyncNode* async_node);
  // Points the node's run of frame inputs at its slots.
  absl::Status PrepareInputs(const ExecutorNode& item);
  void ClearInputs(const ExecutorNode& item);
  // After the kernel ran: clears its inputs and propagates its outputs.
  absl::Status FinishNode(const ExecutorNode& item, OpKernelContext* ctx, NodeExecStats* stats,
                          ReadyList* ready);
  absl::Status PropagateOutputs(const ExecutorNode& item, OpKernelContext* ctx,
                                NodeExecStats* stats, ReadyList* ready);
  // A Const (item.const_tensor set) in place of running it: its value goes to the readers.
  void PropagateConst(const ExecutorNode& item, ReadyList* ready);
  // Counts `edge` as done for its consumer; appends the consumer to *ready if that was its
  // last pending input.
  void MarkInputReady(const ExecutorEdge& edge, ReadyList* ready);
  // Accounts for a finished node; returns true if the step is over (call Finish).
  bool NodeDone(const absl::Status& s, const ReadyList& ready, ReadyList* inline_ready,
                int32_t* deferred);
  // inline_ready and deferred (the Process loop's queue and its kept expensive node) are
  // null when the caller is not a Process loop (an async callback).
  void ScheduleReady(const ReadyList& ready, ReadyList* inline_ready, int32_t* deferred);
  // Hands node `id` (already counted in outstanding_) to the runner.
  void Dispatch(int32_t id);
  // Runs `dispatch` (which calls Dispatch) so that the step outlives it.
  template <typename Fn>
  void HoldWhileDispatching(Fn dispatch);
  std::unique_ptr<NodeExecStats> StartStats(const ExecutorNode& item) const;
  void SaveStats(std::unique_ptr<NodeExecStats> stats) const;
  void Finish();

  // Constant for the step.
  const ExecutorImpl& impl_;
  const ExecutorGraph& layout_;
  KernelCosts& costs_;
  Device* const device_;
  StepServices services_;
  Executor::DoneCallback done_;

  // Per node and per input slot, in frame_; see the file comment for why no lock guards
  // them.
  std::unique_ptr<StepFrame> frame_;
  std::atomic<int32_t>* const pending_;
  InputSlot* const slots_;
  TensorValue* const inputs_;
  // Nodes ready or running, plus one for each counted Process loop (ProcessCounted).
  std::atomic<int64_t> outstanding_{0};
};

// What an asynchronous kernel's context needs until its done callback: a copy of the params
// (the Process loop reuses its own; the inputs they point to stay in the frame), the
// context, the stats.
struct ExecutorState::AsyncNode {
  AsyncNode(int32_t id, const OpKernelContext::Params& p, std::unique_ptr<NodeExecStats> node_stats)
      : id(id), params(p), ctx(&params), stats(std::move(node_stats)) {}

  const int32_t id;
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
    : impl_(impl),
      layout_(impl.layout()),
      costs_(impl.costs()),
      device_(impl.device()),
      services_(args, impl.device()),
      done_(std::move(done)),
      frame_(impl.TakeFrame()),
      pending_(frame_->pending.get()),
      slots_(frame_->slots.get()),
      inputs_(frame_->inputs.get()) {
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
  if (!services_.runner) {
    outstanding_.store(num_roots, std::memory_order_relaxed);
    ReadyList roots(cheap.begin(), cheap.end());
    roots.insert(roots.end(), expensive.begin(), expensive.end());
    const CoreBudget::Occupant occupant(CoreBudget::Get(), /*promised=*/false);
    Process(roots);
    return;
  }
  // This thread's loop is counted (it may hand nodes to others).
  outstanding_.store(num_roots + 1, std::memory_order_relaxed);
  if (expensive.empty()) {
    ProcessCounted(cheap, -1, /*promised=*/false);
    return;
  }
  // The first expensive root stays on this thread, the others go to the pool (see
  // ScheduleReady).
  ReadyList inline_roots(cheap.begin(), cheap.end());
  int32_t deferred = -1;
  for (int32_t id : expensive) {
    if (!costs_.IsExpensive(id)) {
      inline_roots.push_back(id);
    } else if (deferred < 0) {
      deferred = id;
    } else if (costs_.WorthAHandOff(id) && CoreForAnotherThread()) {
      Dispatch(id);
    } else {
      inline_roots.push_back(id);
    }
  }
  ProcessCounted(inline_roots, deferred, /*promised=*/false);
}

void ExecutorState::ProcessCounted(absl::Span<const int32_t> initial, int32_t deferred,
                                   bool promised) {
  {
    // The core is vacated before the step can end (Finish may wake a waiting caller).
    const CoreBudget::Occupant occupant(CoreBudget::Get(), promised);
    // The loop's own count of outstanding_ keeps Process from ending the step.
    Process(initial, deferred);
  }
  if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) Finish();
}

void ExecutorState::Dispatch(int32_t id) {
  // The caller holds a count of outstanding_ (its node's), so the step is alive here. The
  // core is counted now, before the thread wakes, so that a team formed meanwhile (this
  // thread's next kernel) does not count on it.
  CoreBudget::Get().PromiseCore();
  outstanding_.fetch_add(1, std::memory_order_relaxed);
  services_.runner(
      [this, id]() { ProcessCounted(absl::MakeConstSpan(&id, 1), -1, /*promised=*/true); });
}

template <typename Fn>
void ExecutorState::HoldWhileDispatching(Fn dispatch) {
  // Without the extra count, the last node handed out could end the step (deleting
  // services_.runner) while services_.runner is still being called.
  outstanding_.fetch_add(1, std::memory_order_relaxed);
  dispatch();
  if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) Finish();
}

void ExecutorState::Process(absl::Span<const int32_t> initial, int32_t deferred) {
  const numerics::ScopedFlushDenormals flush;
  // Popped from the back: reversed so that `initial` runs in order.
  ReadyList inline_ready(initial.rbegin(), initial.rend());
  int cheap_since_deferred = 0;
  ReadyList ready;
  OpKernelContext::Params params;
  services_.FillParams(&params);

  while (!inline_ready.empty() || deferred >= 0) {
    int32_t id;
    if (deferred >= 0 &&
        (inline_ready.empty() || cheap_since_deferred >= kCheapNodesBeforeDeferred)) {
      id = deferred;
      deferred = -1;
      cheap_since_deferred = 0;
    } else {
      id = inline_ready.back();
      inline_ready.pop_back();
      if (deferred >= 0) ++cheap_since_deferred;
    }
    ready.clear();
    absl::Status s;
    if (services_.cancellation_manager != nullptr &&
        services_.cancellation_manager->IsCancelled() && !services_.aborted()) {
      // Cancelled from outside (e.g. the session's timeout): stop at the next node.
      services_.RecordError(errors::Cancelled("The step was cancelled before node '",
                                              layout_.node(id).node->name(), "' ran"));
    }
    if (!services_.aborted()) {
      if (!RunNode(id, &params, &ready, &s)) continue;
    }
    if (NodeDone(s, ready, &inline_ready, &deferred)) {
      Finish();
      return;
    }
  }
}

bool ExecutorState::RunNode(int32_t id, OpKernelContext::Params* params, ReadyList* ready,
                            absl::Status* status) {
  const ExecutorNode& item = layout_.node(id);
  if (item.const_tensor != nullptr && !services_.runs_every_kernel()) {
    PropagateConst(item, ready);
    return true;
  }
  std::unique_ptr<NodeExecStats> stats;
  if (services_.stats_collector != nullptr) stats = StartStats(item);

  absl::Status s = PrepareInputs(item);
  if (!s.ok()) {
    ClearInputs(item);
    SaveStats(std::move(stats));
    *status = s;
    return true;
  }
  params->op_kernel = item.kernel;
  params->inputs = absl::MakeConstSpan(inputs_ + item.input_start, item.num_inputs);

  if (item.async != nullptr) {
    auto* async_node = new AsyncNode(id, *params, std::move(stats));
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
  // The team cap the device sees (it may lower it further, core_budget.h).
  if (!costs_.WorthATeam(id)) ctx.set_intra_op_threads(1);
  if (item.expensive && costs_.ShouldTime(id)) {
    const uint64_t start = KernelCosts::Now();
    device_->Compute(item.kernel, &ctx);
    costs_.Update(id, KernelCosts::Now() - start, ctx.intra_op_threads());
  } else {
    device_->Compute(item.kernel, &ctx);
  }
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
  if (NodeDone(status, ready, nullptr, nullptr)) Finish();
}

absl::Status ExecutorState::PrepareInputs(const ExecutorNode& item) {
  return PrepareNodeInputs(item, slots_ + item.input_start, inputs_ + item.input_start,
                           /*allow_missing=*/false);
}

void ExecutorState::ClearInputs(const ExecutorNode& item) {
  InputSlot* first = slots_ + item.input_start;
  for (int i = 0; i < item.num_inputs; ++i) first[i].Clear();
}

absl::Status ExecutorState::FinishNode(const ExecutorNode& item, OpKernelContext* ctx,
                                       NodeExecStats* stats, ReadyList* ready) {
  if (stats != nullptr) {
    SetOpEnd(stats);
    AddKernelNote(*ctx, stats);
  }
  ClearInputs(item);
  if (!ctx->status().ok()) return NodeError(item, ctx->status());
  if (ABSL_PREDICT_FALSE(services_.output_observer != nullptr)) {
    for (int i = 0; i < item.num_outputs; ++i) {
      const Tensor* value = ctx->mutable_output(i);
      if (value == nullptr) continue;  // reported as missing below
      RETURN_IF_ERROR(ObserveOutput(services_.output_observer, item, i,
                                    TensorValue(const_cast<Tensor*>(value)), device_));
    }
  }
  return PropagateOutputs(item, ctx, stats, ready);
}

absl::Status ExecutorState::PropagateOutputs(const ExecutorNode& item, OpKernelContext* ctx,
                                             NodeExecStats* stats, ReadyList* ready) {
  // Out edges come as the data edges of output 0, of output 1, ..., then control edges, so
  // each output is released and handed to its readers in one pass.
  absl::Span<const ExecutorEdge> edges = layout_.out_edges(item);
  const ExecutorEdge* edge = edges.data();
  const ExecutorEdge* const end = edge + edges.size();
  for (int i = 0; i < item.num_outputs; ++i) {
    const TensorValue value = ctx->release_output(i);
    if (ABSL_PREDICT_FALSE(value.tensor == nullptr)) {
      return AttachDef(errors::Internal("Missing ", i, "-th output from ",
                                        FormatNodeDefForError(item.node->def())),
                       item.node->def());
    }
    if (stats != nullptr) RecordOutput(i, value, device_->GetAllocator(), stats);
    for (; edge != end && edge->src_output == i; ++edge) {
      InputSlot& entry = slots_[edge->dst_slot];
      if (value.is_ref()) {
        entry.SetRef(value.tensor, value.mutex_if_ref);
      } else if (edge + 1 != end && edge[1].src_output == i) {
        entry.SetValue(*value.tensor);
      } else {
        entry.SetValue(std::move(*value.tensor));
      }
      MarkInputReady(*edge, ready);
    }
  }
  for (; edge != end; ++edge) MarkInputReady(*edge, ready);  // control edges
  return absl::OkStatus();
}

void ExecutorState::PropagateConst(const ExecutorNode& item, ReadyList* ready) {
  for (const ExecutorEdge& edge : layout_.out_edges(item)) {
    if (edge.src_output == 0) slots_[edge.dst_slot].SetValue(*item.const_tensor);
    MarkInputReady(edge, ready);
  }
}

void ExecutorState::MarkInputReady(const ExecutorEdge& edge, ReadyList* ready) {
  // Release: the slot written before is visible to whoever sees the count reach zero. A
  // consumer with this one in-edge is made ready by this thread alone, so needs no count.
  if (edge.sole_input || pending_[edge.dst].fetch_sub(1, std::memory_order_acq_rel) == 1) {
    ready->push_back(edge.dst);
  }
}

bool ExecutorState::NodeDone(const absl::Status& s, const ReadyList& ready, ReadyList* inline_ready,
                             int32_t* deferred) {
  // The common case: one cheap successor, which inherits this node's count.
  if (inline_ready != nullptr && ready.size() == 1 && s.ok() && !costs_.IsExpensive(ready[0]) &&
      !services_.aborted()) {
    inline_ready->push_back(ready[0]);
    return false;
  }
  if (!s.ok()) services_.RecordError(s);
  const int64_t num_ready = services_.aborted() ? 0 : static_cast<int64_t>(ready.size());
  if (num_ready == 0) return outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  // This node's count passes to one of the ready nodes; count the others before any of
  // them can run (and finish) elsewhere.
  if (num_ready > 1) outstanding_.fetch_add(num_ready - 1, std::memory_order_relaxed);
  ScheduleReady(ready, inline_ready, deferred);
  return false;
}

void ExecutorState::ScheduleReady(const ReadyList& ready, ReadyList* inline_ready,
                                  int32_t* deferred) {
  if (inline_ready == nullptr) {
    if (!services_.runner) {
      Process(ready);
      return;
    }
    HoldWhileDispatching([this, &ready]() {
      for (int32_t id : ready) Dispatch(id);
    });
    return;
  }
  if (!services_.runner) {
    inline_ready->insert(inline_ready->end(), ready.rbegin(), ready.rend());
    return;
  }
  // One expensive node stays with this thread, run once its cheap work is done: handing it
  // over would cost a wake-up on another core and a sleep here, more than a few cheap
  // nodes take. Further expensive nodes go to the pool, which runs them at the same time,
  // while the device says another thread would get a core of its own: with one core free
  // (a busy neighbour), the handed-off node would wait for a time slice of this thread's
  // core and the step with it. Keeping them here is safe because no synchronous kernel
  // waits for another node of its step (a kernel that waits is asynchronous, op_kernel.h).
  for (auto it = ready.rbegin(); it != ready.rend(); ++it) {
    if (!costs_.IsExpensive(*it)) {
      inline_ready->push_back(*it);
    } else if (*deferred < 0) {
      *deferred = *it;
    } else if (costs_.WorthAHandOff(*it) && CoreForAnotherThread()) {
      Dispatch(*it);
    } else {
      inline_ready->push_back(*it);
    }
  }
}

std::unique_ptr<NodeExecStats> ExecutorState::StartStats(const ExecutorNode& item) const {
  return StartNodeStats(item);
}

void ExecutorState::SaveStats(std::unique_ptr<NodeExecStats> stats) const {
  if (stats == nullptr) return;
  SetAllEnd(stats.get());
  services_.stats_collector->Save(device_->name(), std::move(*stats));
}

void ExecutorState::Finish() {
  // A failed step leaves values in the slots of nodes that never ran; a successful one ran
  // every node, and each cleared its inputs.
  if (services_.aborted()) {
    for (int i = 0; i < layout_.num_input_slots(); ++i) slots_[i].Clear();
  }
  impl_.ReturnFrame(std::move(frame_));
  absl::Status status = services_.TakeStatus();
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
  if (layout->has_control_flow() || params.may_receive_dead) {
    return NewFrameExecutor(params.device, std::move(layout), executor);
  }
  *executor = std::make_unique<ExecutorImpl>(params.device, std::move(layout));
  return absl::OkStatus();
}

}  // namespace sluice
