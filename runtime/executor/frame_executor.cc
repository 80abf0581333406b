#include "runtime/executor/frame_executor.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "numerics/float_environment.h"
#include "proto/step_stats.pb.h"
#include "runtime/device/core_budget.h"
#include "runtime/executor/control_flow_info.h"
#include "runtime/executor/executor_node_io.h"
#include "runtime/executor/kernel_costs.h"
#include "runtime/executor/step_stats_collector.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/rendezvous.h"

namespace sluice {
namespace {

using Kind = ControlFlowNode::Kind;

struct FrameState;

// One iteration of a frame instance: per node of the static frame, its pending count and
// dead-input count, and the input slots of those nodes.
struct IterationState {
  IterationState(const StaticFrame& frame, const std::vector<int32_t>& initial_pending)
      : pending(initial_pending),
        dead_count(frame.nodes.size(), 0),
        slots(new InputSlot[frame.num_input_slots]),
        inputs(new TensorValue[frame.num_input_slots]) {}

  std::vector<int32_t> pending;
  std::vector<int32_t> dead_count;
  std::unique_ptr<InputSlot[]> slots;
  // The kernels' input arrays (each node's run of it), filled just before a node runs.
  std::unique_ptr<TensorValue[]> inputs;
  // Nodes of this iteration ready or running.
  int64_t outstanding_ops = 0;
  // Child frame instances started from this iteration, by static frame, while alive.
  absl::flat_hash_map<int32_t, std::unique_ptr<FrameState>> children;
};

// A value kept by a frame for later iterations: a loop invariant, or a NextIteration output
// waiting for an iteration to start.
struct HeldValue {
  int32_t node = -1;
  Tensor value;
  Tensor* ref = nullptr;
  absl::Mutex* ref_mu = nullptr;
  bool dead = false;

  TensorValue AsTensorValue() {
    if (dead) return TensorValue();
    if (ref != nullptr) return TensorValue(ref_mu, ref);
    return TensorValue(&value);
  }
};

// One instance of a static frame.
struct FrameState {
  int32_t static_id = 0;
  FrameState* parent = nullptr;
  int64_t parent_iter = 0;
  // Identifies the instance in rendezvous keys ("<id>:<iteration>"); the root is "0". The
  // same in every partition of the step (a hash of the parent's id and iteration and the
  // frame's name).
  std::string id;
  int32_t parallel_iterations = 1;
  int32_t num_pending_inputs = 0;  // Enter nodes yet to run
  int64_t iteration_count = 0;     // the newest iteration started
  int64_t first_iter = 0;          // the oldest iteration not yet deleted
  int32_t num_outstanding_iterations = 1;
  std::deque<std::unique_ptr<IterationState>> iterations;
  std::vector<HeldValue> invariants;
  std::vector<HeldValue> next_iter_roots;
  // Exit nodes that ran dead in the newest iteration: dead outputs for the parent once this
  // instance is done.
  std::vector<int32_t> dead_exits;

  IterationState* iteration(int64_t i) {
    if (i < first_iter || i - first_iter >= static_cast<int64_t>(iterations.size())) {
      return nullptr;
    }
    return iterations[i - first_iter].get();
  }
};

// A node to run: where, and whether it is dead.
struct TaggedNode {
  FrameState* frame = nullptr;
  // The iteration's state: alive while the node is outstanding in it.
  IterationState* state = nullptr;
  int64_t iter = 0;
  int32_t id = -1;
  bool dead = false;
};
using TaggedReadyList = absl::InlinedVector<TaggedNode, 8>;

// An out edge as ActivateNodes needs it: where its value goes in the consumer's iteration,
// without looking the consumer up (two lookups per edge were a third of routing's cost).
struct FrameEdge {
  int32_t dst = 0;
  int32_t local_id = 0;  // the consumer's index in its static frame
  int32_t slot = -1;     // the consumer's input slot in its iteration; -1 for a control edge
  int32_t src_output = -1;
  bool dst_is_merge = false;
};

class FrameExecutorImpl : public Executor {
 public:
  FrameExecutorImpl(Device* device, std::unique_ptr<ExecutorGraph> layout, ControlFlowInfo info)
      : device_(device), layout_(std::move(layout)), info_(std::move(info)), costs_(*layout_) {
    for (const StaticFrame& frame : info_.frames()) {
      std::vector<int32_t> pending;
      pending.reserve(frame.nodes.size());
      for (int32_t id : frame.nodes) {
        const ControlFlowNode& cf = info_.node(id);
        // A Merge waits for its control inputs (2 each) and one live data input (the low
        // bit); a dead Merge is one whose count is 1 when all data inputs are dead.
        pending.push_back(cf.kind == Kind::kMerge ? 2 * cf.num_control_inputs + 1
                                                  : layout_->node(id).initial_pending);
      }
      initial_pending_.push_back(std::move(pending));
    }
    int max_merge_inputs = 0;
    for (int32_t i = 0; i < layout_->num_nodes(); ++i) {
      if (layout_->node(i).initial_pending == 0) roots_.push_back(i);
      if (info_.node(i).kind == Kind::kMerge) {
        max_merge_inputs = std::max(max_merge_inputs, info_.node(i).num_data_inputs);
      }
    }
    for (int i = 0; i < max_merge_inputs; ++i) merge_indices_.emplace_back(static_cast<int32_t>(i));
    for (int32_t i = 0; i < layout_->num_nodes(); ++i) {
      for (const ExecutorEdge& edge : layout_->out_edges(layout_->node(i))) {
        const ControlFlowNode& dst = info_.node(edge.dst);
        FrameEdge fe;
        fe.dst = edge.dst;
        fe.local_id = dst.local_id;
        if (edge.dst_slot >= 0) {
          fe.slot = dst.local_input_start + (edge.dst_slot - layout_->node(edge.dst).input_start);
        }
        fe.src_output = edge.src_output;
        fe.dst_is_merge = dst.kind == Kind::kMerge;
        edges_.push_back(fe);
      }
    }
  }

  void RunAsync(const Args& args, DoneCallback done) override;

  Device* device() const { return device_; }
  const ExecutorGraph& layout() const { return *layout_; }
  const ControlFlowInfo& info() const { return info_; }
  const std::vector<int32_t>& initial_pending(int32_t frame) const {
    return initial_pending_[frame];
  }
  const std::vector<int32_t>& roots() const { return roots_; }
  // Merge's value_index output for live input i (shared, never written).
  const Tensor& merge_index(int i) const { return merge_indices_[i]; }
  KernelCosts& costs() const { return costs_; }
  // The out edges of node `id`, in layout_'s order.
  absl::Span<const FrameEdge> out_edges(int32_t id) const {
    const ExecutorNode& node = layout_->node(id);
    return absl::MakeConstSpan(edges_.data() + node.edge_start, node.num_edges);
  }

 private:
  Device* const device_;
  const std::unique_ptr<ExecutorGraph> layout_;
  const ControlFlowInfo info_;
  std::vector<std::vector<int32_t>> initial_pending_;
  std::vector<int32_t> roots_;
  std::vector<Tensor> merge_indices_;
  std::vector<FrameEdge> edges_;
  mutable KernelCosts costs_;
};

// The state of one step; deletes itself when the step ends.
class FrameStepState {
 public:
  FrameStepState(const FrameExecutorImpl& impl, const Executor::Args& args,
                 Executor::DoneCallback done)
      : impl_(impl),
        layout_(impl.layout()),
        info_(impl.info()),
        device_(impl.device()),
        services_(args, impl.device()),
        done_(std::move(done)) {
    absl::MutexLock lock(&mu_);
    spare_iterations_.resize(info_.frames().size());
    root_.id = "0";
    root_.num_outstanding_iterations = 1;
    root_.iterations.push_back(NewIteration(0));
  }

  void Start() {
    TaggedReadyList ready;
    {
      absl::MutexLock lock(&mu_);
      IterationState* iter0 = root_.iteration(0);
      for (int32_t id : impl_.roots()) {
        ready.push_back({&root_, iter0, 0, id, false});
        ++iter0->outstanding_ops;
      }
      outstanding_.store(static_cast<int64_t>(ready.size()) + 1, std::memory_order_relaxed);
    }
    {
      const CoreBudget::Occupant occupant(CoreBudget::Get(), /*promised=*/false);
      Process(std::move(ready));
    }
    // The count taken above for this call.
    if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) Finish();
  }

 private:
  struct AsyncState;

  // A fresh iteration of `static_frame`: a recycled one when an earlier iteration of the
  // frame was deleted in this step (a loop makes and deletes one per iteration; its five
  // arrays are worth keeping), else a new one.
  std::unique_ptr<IterationState> NewIteration(int32_t static_frame)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    std::vector<std::unique_ptr<IterationState>>& spare = spare_iterations_[static_frame];
    if (spare.empty()) {
      return std::make_unique<IterationState>(info_.frames()[static_frame],
                                              impl_.initial_pending(static_frame));
    }
    std::unique_ptr<IterationState> state = std::move(spare.back());
    spare.pop_back();
    const std::vector<int32_t>& initial = impl_.initial_pending(static_frame);
    std::copy(initial.begin(), initial.end(), state->pending.begin());
    std::fill(state->dead_count.begin(), state->dead_count.end(), 0);
    return state;
  }
  // Keeps a deleted iteration for NewIteration. Its values are released now, as deleting
  // it would.
  void RecycleIteration(int32_t static_frame, std::unique_ptr<IterationState> state)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const int32_t num_slots = info_.frames()[static_frame].num_input_slots;
    for (int32_t i = 0; i < num_slots; ++i) state->slots[i].Clear();
    state->outstanding_ops = 0;
    spare_iterations_[static_frame].push_back(std::move(state));
  }

  // Runs `ready` and what they make ready that stays on this thread.
  void Process(TaggedReadyList ready);
  // Runs one node; false if it went asynchronous (its completion continues elsewhere).
  // Otherwise *more holds the nodes it made ready, not yet counted in outstanding_.
  bool RunNode(const TaggedNode& tagged, TaggedReadyList* more);
  // Propagates a finished node's outputs (null tensor: dead output) under mu_, and accounts
  // for it in its iteration. The nodes it makes ready go to *ready uncounted: the caller
  // counts them in outstanding_ before it hands any out.
  void CompleteNode(const TaggedNode& tagged, absl::Span<const TensorValue> outputs,
                    TaggedReadyList* ready) ABSL_LOCKS_EXCLUDED(mu_);
  void AsyncDone(AsyncState* state);
  // Completes an asynchronous node and deletes its state.
  void FinishAsync(AsyncState* state, TaggedReadyList* more);
  // Shows a node's released outputs to the step's observer, if any; its failure fails the
  // step.
  void ObserveOutputs(const ExecutorNode& item, absl::Span<const TensorValue> outputs) {
    if (ABSL_PREDICT_TRUE(services_.output_observer == nullptr)) return;
    for (int i = 0; i < static_cast<int>(outputs.size()); ++i) {
      const absl::Status s = ObserveOutput(services_.output_observer, item, i, outputs[i], device_);
      if (!s.ok()) {
        services_.RecordError(s);
        return;
      }
    }
  }
  // Enter, Exit, NextIteration, Switch, Merge, LoopCond and Identity only route a value: done
  // here without a kernel call (a context, an output allocation) when no stats are
  // collected. False when the node is not one of them or the kernel must report an error.
  bool ForwardWithoutKernel(const TaggedNode& tagged, InputSlot* slots, TaggedReadyList* more);
  // Hands ready nodes beyond the first expensive one to the runner; the rest stay in *local.
  void Schedule(TaggedReadyList* ready, TaggedReadyList* local);
  void NodeFinished();

  // All below run under mu_.
  // `state` is iteration `iter` of `frame`.
  void ActivateNodes(FrameState* frame, int64_t iter, IterationState* state, int32_t src,
                     absl::Span<const TensorValue> outputs, bool src_dead, TaggedReadyList* ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  FrameState* FindOrCreateChild(FrameState* parent, int64_t parent_iter, int32_t static_child)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void IncrementIteration(FrameState* frame, TaggedReadyList* ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool IsIterationDone(FrameState* frame, int64_t iter) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Deletes the finished iterations from `iter` on, starts deferred ones, and deletes the
  // frame instance (and so on upwards) once it is done.
  void CleanupIterations(FrameState* frame, int64_t iter, TaggedReadyList* ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DeleteFrame(FrameState* frame, TaggedReadyList* ready) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void AddReady(FrameState* frame, IterationState* state, int64_t iter, int32_t id, bool dead,
                TaggedReadyList* ready) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  void Finish();

  const FrameExecutorImpl& impl_;
  const ExecutorGraph& layout_;
  const ControlFlowInfo& info_;
  Device* const device_;
  StepServices services_;
  Executor::DoneCallback done_;

  absl::Mutex mu_;
  FrameState root_ ABSL_GUARDED_BY(mu_);
  // Deleted iterations kept for reuse, by static frame.
  std::vector<std::vector<std::unique_ptr<IterationState>>> spare_iterations_ ABSL_GUARDED_BY(mu_);
  // Nodes ready or running, plus one while Start's Process call is in flight.
  std::atomic<int64_t> outstanding_{0};
};

// An asynchronous kernel's context until its done callback.
struct FrameStepState::AsyncState {
  AsyncState(const TaggedNode& t, const OpKernelContext::Params& p,
             std::unique_ptr<NodeExecStats> node_stats)
      : tagged(t), params(p), ctx(&params), stats(std::move(node_stats)) {}
  TaggedNode tagged;
  OpKernelContext::Params params;
  OpKernelContext ctx;
  std::unique_ptr<NodeExecStats> stats;
  // The first of {the done callback, ComputeAsync returning} sets it; the second finishes
  // the node (so a kernel that calls back at once continues on the same loop).
  std::atomic<bool> claimed{false};
};

void FrameStepState::Process(TaggedReadyList ready) {
  // TensorFlow's floating-point mode, as the local executor's Process sets it (executor.cc).
  const numerics::ScopedFlushDenormals flush;
  TaggedReadyList local;
  Schedule(&ready, &local);
  while (!local.empty()) {
    const TaggedNode tagged = local.back();
    local.pop_back();
    TaggedReadyList more;
    if (services_.cancellation_manager != nullptr &&
        services_.cancellation_manager->IsCancelled() && !services_.aborted()) {
      // Cancelled from outside (a session's timeout): stop at the next node.
      services_.RecordError(errors::Cancelled("The step was cancelled before node '",
                                              layout_.node(tagged.id).node->name(), "' ran"));
    }
    if (services_.aborted()) {
      NodeFinished();
      continue;
    }
    if (!RunNode(tagged, &more)) continue;
    // One node made ready inherits this node's count: a chain, the common case in a loop,
    // takes no atomic. Several are counted at once, before any can be handed out, and this
    // node's count holds the step until they are scheduled.
    if (more.size() == 1) {
      local.push_back(more[0]);
      continue;
    }
    if (!more.empty()) {
      outstanding_.fetch_add(static_cast<int64_t>(more.size()), std::memory_order_relaxed);
      Schedule(&more, &local);
    }
    NodeFinished();
  }
}

void FrameStepState::Schedule(TaggedReadyList* ready, TaggedReadyList* local) {
  bool kept_expensive = false;
  // Reversed so that `local`, popped from the back, runs them in order.
  KernelCosts& costs = impl_.costs();
  for (auto it = ready->rbegin(); it != ready->rend(); ++it) {
    // As executor.cc: a node measured cheap runs here; of the expensive ones, the first stays
    // and the others go to the runner if their work pays for the hand-off.
    if (services_.runner && !it->dead && costs.IsExpensive(it->id)) {
      // A core for another thread: the process's threads (of every step) occupy fewer
      // cores than the device can use (CoreBudget::occupied).
      if (kept_expensive && costs.WorthAHandOff(it->id) &&
          CoreBudget::Get().occupied() < device_->ThreadsWorthRunning()) {
        const TaggedNode tagged = *it;
        // Counted before the thread wakes, so a team formed meanwhile leaves it a core.
        CoreBudget::Get().PromiseCore();
        services_.runner([this, tagged]() {
          TaggedReadyList one;
          one.push_back(tagged);
          const CoreBudget::Occupant occupant(CoreBudget::Get(), /*promised=*/true);
          // The node's own count keeps the step alive until it is finished.
          Process(std::move(one));
        });
        continue;
      }
      kept_expensive = true;
    }
    local->push_back(*it);
  }
}

void FrameStepState::NodeFinished() {
  if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) Finish();
}

bool FrameStepState::RunNode(const TaggedNode& tagged, TaggedReadyList* more) {
  const ExecutorNode& item = layout_.node(tagged.id);
  const ControlFlowNode& cf = info_.node(tagged.id);
  IterationState* iter_state = tagged.state;
  InputSlot* slots = iter_state->slots.get() + cf.local_input_start;
  auto clear_inputs = [&]() {
    for (int i = 0; i < item.num_inputs; ++i) slots[i].Clear();
  };
  // A dead node does not run (its outputs are dead), except ControlTrigger, which runs,
  // and _Send, which sends the deadness.
  const bool runs_dead = cf.kind == Kind::kControlTrigger || cf.kind == Kind::kSend;
  if (tagged.dead && !runs_dead) {
    clear_inputs();
    CompleteNode(tagged, {}, more);
    return true;
  }
  if (item.const_tensor != nullptr && !services_.runs_every_kernel()) {
    TensorValue value(const_cast<Tensor*>(item.const_tensor));
    CompleteNode(tagged, absl::MakeConstSpan(&value, 1), more);
    return true;
  }
  if (!services_.runs_every_kernel() && !item.ref_inputs &&
      ForwardWithoutKernel(tagged, slots, more)) {
    return true;
  }
  std::unique_ptr<NodeExecStats> stats;
  if (services_.stats_collector != nullptr) stats = StartNodeStats(item);
  auto save_stats = [this](std::unique_ptr<NodeExecStats> s) {
    if (s == nullptr) return;
    SetAllEnd(s.get());
    services_.stats_collector->Save(device_->name(), std::move(*s));
  };
  TensorValue* inputs = iter_state->inputs.get() + cf.local_input_start;
  absl::Status s = PrepareNodeInputs(item, slots, inputs,
                                     /*allow_missing=*/cf.kind == Kind::kMerge || tagged.dead);
  if (!s.ok()) {
    clear_inputs();
    save_stats(std::move(stats));
    services_.RecordError(s);
    CompleteNode(TaggedNode{tagged.frame, tagged.state, tagged.iter, tagged.id, true}, {}, more);
    return true;
  }
  OpKernelContext::Params params;
  services_.FillParams(&params);
  params.op_kernel = item.kernel;
  params.inputs = absl::MakeConstSpan(inputs, item.num_inputs);
  params.is_input_dead = tagged.dead;
  // Only transfers read it (rendezvous keys), and a string per node is not free.
  if ((cf.kind == Kind::kSend || cf.kind == Kind::kRecv) &&
      (tagged.frame != &root_ || tagged.iter != 0)) {
    params.frame_iter = absl::StrCat(tagged.frame->id, ":", tagged.iter);
  }

  if (item.async != nullptr) {
    auto* state = new AsyncState(tagged, params, std::move(stats));
    if (state->stats) SetOpStart(state->stats.get());
    device_->ComputeAsync(item.async, &state->ctx, [this, state]() { AsyncDone(state); });
    if (!state->claimed.exchange(true, std::memory_order_acq_rel)) return false;
    FinishAsync(state, more);
    return true;
  }
  OpKernelContext ctx(&params);
  if (stats) SetOpStart(stats.get());
  KernelCosts& costs = impl_.costs();
  if (!costs.WorthATeam(tagged.id)) ctx.set_intra_op_threads(1);
  if (item.expensive && costs.ShouldTime(tagged.id)) {
    const uint64_t start = KernelCosts::Now();
    device_->Compute(item.kernel, &ctx);
    costs.Update(tagged.id, KernelCosts::Now() - start, ctx.intra_op_threads());
  } else {
    device_->Compute(item.kernel, &ctx);
  }
  if (stats) {
    SetOpEnd(stats.get());
    AddKernelNote(ctx, stats.get());
  }
  clear_inputs();
  absl::InlinedVector<TensorValue, 4> outputs(item.num_outputs);
  if (!ctx.status().ok()) {
    services_.RecordError(NodeError(item, ctx.status()));
  } else {
    for (int i = 0; i < item.num_outputs; ++i) {
      outputs[i] = ctx.release_output(i);
      if (outputs[i].tensor == nullptr && cf.kind != Kind::kSwitch && cf.kind != Kind::kRecv) {
        services_.RecordError(AttachDef(errors::Internal("Missing ", i, "-th output from ",
                                                         FormatNodeDefForError(item.node->def())),
                                        item.node->def()));
      }
      if (stats && outputs[i].tensor != nullptr) {
        RecordOutput(i, outputs[i], device_->GetAllocator(), stats.get());
      }
    }
    ObserveOutputs(item, outputs);
  }
  save_stats(std::move(stats));
  CompleteNode(tagged, outputs, more);
  return true;
}

bool FrameStepState::ForwardWithoutKernel(const TaggedNode& tagged, InputSlot* slots,
                                          TaggedReadyList* more) {
  const ControlFlowNode& cf = info_.node(tagged.id);
  const int num_inputs = layout_.node(tagged.id).num_inputs;
  // A slot that holds a ref (a ref variable read by an Identity, Enter or Switch of a non-ref
  // type, as TF1 loops over ref variables have) has no value here: the kernel path reads it
  // under its mutex.
  for (int i = 0; i < num_inputs; ++i) {
    if (slots[i].ref != nullptr) return false;
  }
  // Which input goes to which output, and Merge's index.
  int input = 0, output = 0;
  const Tensor* index = nullptr;
  switch (cf.kind) {
    case Kind::kEnter:
    case Kind::kExit:
    case Kind::kNextIteration:
      break;
    case Kind::kIdentity:
      // Identity's kernel forwards its input; a loop body has one per loop variable.
      if (num_inputs != 1) return false;
      break;
    case Kind::kLoopCond:
      // A non-scalar predicate takes the kernel, which reports it.
      if (num_inputs != 1 || slots[0].value.dims() != 0) return false;
      break;
    case Kind::kSwitch: {
      const Tensor& pred = slots[1].value;
      // _SwitchN, and a malformed predicate (the kernel reports it), take the kernel.
      if (layout_.node(tagged.id).num_outputs != 2 || pred.dtype() != DT_BOOL || pred.dims() != 0) {
        return false;
      }
      output = pred.scalar<bool>()() ? 1 : 0;
      break;
    }
    case Kind::kMerge: {
      input = -1;
      for (int i = 0; i < cf.num_data_inputs; ++i) {
        if (!slots[i].has_value) continue;
        if (input >= 0) return false;  // the kernel reports more than one live input
        input = i;
      }
      if (input < 0) return false;
      index = &impl_.merge_index(input);
      break;
    }
    default:
      return false;
  }
  // Taken out of the slots first: completing the node may end (and free) its iteration.
  Tensor value = std::move(slots[input].value);
  for (int i = 0; i < num_inputs; ++i) slots[i].Clear();
  absl::InlinedVector<TensorValue, 2> outputs(layout_.node(tagged.id).num_outputs);
  outputs[output] = TensorValue(&value);
  if (index != nullptr) outputs[1] = TensorValue(const_cast<Tensor*>(index));
  CompleteNode(tagged, outputs, more);
  return true;
}

void FrameStepState::AsyncDone(AsyncState* state) {
  if (!state->claimed.exchange(true, std::memory_order_acq_rel)) return;  // RunNode finishes it
  TaggedReadyList more;
  FinishAsync(state, &more);
  // The callback's thread continues with what the node made ready; the node's count is
  // released once they ran or were handed out.
  if (!more.empty()) {
    outstanding_.fetch_add(static_cast<int64_t>(more.size()), std::memory_order_relaxed);
  }
  {
    const CoreBudget::Occupant occupant(CoreBudget::Get(), /*promised=*/false);
    Process(std::move(more));
  }
  NodeFinished();
}

void FrameStepState::FinishAsync(AsyncState* state, TaggedReadyList* more) {
  const ExecutorNode& item = layout_.node(state->tagged.id);
  const ControlFlowNode& cf = info_.node(state->tagged.id);
  if (state->stats) {
    SetOpEnd(state->stats.get());
    AddKernelNote(state->ctx, state->stats.get());
  }
  {
    InputSlot* slots = state->tagged.state->slots.get() + cf.local_input_start;
    for (int i = 0; i < item.num_inputs; ++i) slots[i].Clear();
  }
  absl::InlinedVector<TensorValue, 4> outputs(item.num_outputs);
  if (!state->ctx.status().ok()) {
    services_.RecordError(NodeError(item, state->ctx.status()));
  } else {
    for (int i = 0; i < item.num_outputs; ++i) {
      outputs[i] = state->ctx.release_output(i);
      if (state->stats && outputs[i].tensor != nullptr) {
        RecordOutput(i, outputs[i], device_->GetAllocator(), state->stats.get());
      }
    }
    ObserveOutputs(item, outputs);
  }
  if (state->stats) {
    SetAllEnd(state->stats.get());
    services_.stats_collector->Save(device_->name(), std::move(*state->stats));
  }
  CompleteNode(state->tagged, outputs, more);
  delete state;
}

void FrameStepState::CompleteNode(const TaggedNode& tagged, absl::Span<const TensorValue> outputs,
                                  TaggedReadyList* ready) {
  const ControlFlowNode& cf = info_.node(tagged.id);
  const ExecutorNode& item = layout_.node(tagged.id);
  // A node that failed (or was dead) has every output dead.
  const bool dead = tagged.dead && cf.kind != Kind::kControlTrigger;
  absl::InlinedVector<TensorValue, 4> dead_outputs;
  if (outputs.empty() && item.num_outputs > 0) {
    dead_outputs.resize(item.num_outputs);
    outputs = dead_outputs;
  }
  absl::MutexLock lock(&mu_);
  if (services_.aborted()) return;
  FrameState* frame = tagged.frame;
  const int64_t iter = tagged.iter;
  switch (cf.kind) {
    case Kind::kEnter: {
      FrameState* child = FindOrCreateChild(frame, iter, cf.child_frame);
      if (cf.is_constant_enter) {
        HeldValue held;
        held.node = tagged.id;
        held.dead = dead || outputs[0].tensor == nullptr;
        if (!held.dead) {
          if (outputs[0].is_ref()) {
            held.ref = outputs[0].tensor;
            held.ref_mu = outputs[0].mutex_if_ref;
          } else {
            held.value = *outputs[0].tensor;
          }
        }
        child->invariants.push_back(held);
        HeldValue& kept = child->invariants.back();
        const TensorValue value = kept.AsTensorValue();
        for (int64_t i = child->first_iter; i <= child->iteration_count; ++i) {
          ActivateNodes(child, i, child->iteration(i), tagged.id, absl::MakeConstSpan(&value, 1),
                        kept.dead, ready);
        }
      } else {
        ActivateNodes(child, 0, child->iteration(0), tagged.id, outputs, dead, ready);
      }
      --child->num_pending_inputs;
      if (IsIterationDone(child, child->first_iter)) {
        CleanupIterations(child, child->first_iter, ready);
      }
      break;
    }
    case Kind::kExit:
      if (dead || outputs[0].tensor == nullptr) {
        if (iter == frame->iteration_count) frame->dead_exits.push_back(tagged.id);
      } else {
        ActivateNodes(frame->parent, frame->parent_iter,
                      frame->parent->iteration(frame->parent_iter), tagged.id, outputs, false,
                      ready);
      }
      break;
    case Kind::kNextIteration:
      if (dead || outputs[0].tensor == nullptr) break;  // deadness stops at the boundary
      if (iter == frame->iteration_count &&
          frame->num_outstanding_iterations == frame->parallel_iterations) {
        HeldValue held;
        held.node = tagged.id;
        if (outputs[0].is_ref()) {
          held.ref = outputs[0].tensor;
          held.ref_mu = outputs[0].mutex_if_ref;
        } else {
          held.value = *outputs[0].tensor;
        }
        frame->next_iter_roots.push_back(std::move(held));
      } else {
        if (iter == frame->iteration_count) IncrementIteration(frame, ready);
        ActivateNodes(frame, iter + 1, frame->iteration(iter + 1), tagged.id, outputs, false,
                      ready);
      }
      break;
    default:
      ActivateNodes(frame, iter, tagged.state, tagged.id, outputs, dead, ready);
      break;
  }
  // The node's iteration is alive until this count drops.
  IterationState* state = tagged.state;
  if (--state->outstanding_ops == 0 && frame != &root_ && IsIterationDone(frame, iter)) {
    CleanupIterations(frame, iter, ready);
  }
}

void FrameStepState::AddReady(FrameState* frame, IterationState* state, int64_t iter, int32_t id,
                              bool dead, TaggedReadyList* ready) {
  state->outstanding_ops++;
  ready->push_back({frame, state, iter, id, dead});
}

void FrameStepState::ActivateNodes(FrameState* frame, int64_t iter, IterationState* state,
                                   int32_t src, absl::Span<const TensorValue> outputs,
                                   bool src_dead, TaggedReadyList* ready) {
  const bool src_is_enter = info_.node(src).kind == Kind::kEnter;
  for (const FrameEdge& edge : impl_.out_edges(src)) {
    const int32_t l = edge.local_id;
    const bool control = edge.slot < 0;
    const bool dead = control ? src_dead : outputs[edge.src_output].tensor == nullptr;
    InputSlot* slot = control ? nullptr : state->slots.get() + edge.slot;
    auto write = [&]() {
      const TensorValue& value = outputs[edge.src_output];
      if (value.is_ref()) {
        slot->SetRef(value.tensor, value.mutex_if_ref);
      } else {
        slot->SetValue(*value.tensor);
      }
    };
    if (edge.dst_is_merge) {
      const ControlFlowNode& dst = info_.node(edge.dst);
      int32_t& pending = state->pending[l];
      int32_t& dead_count = state->dead_count[l];
      if (control) {
        pending -= 2;
        if (pending == 0) {
          AddReady(frame, state, iter, edge.dst, false, ready);
        } else if (pending == 1 && dead_count == dst.num_data_inputs) {
          AddReady(frame, state, iter, edge.dst, true, ready);
        }
      } else if (!dead) {
        // The first live input wins; later ones (none in a well-formed graph) are dropped.
        if ((pending & 1) == 1) {
          write();
          pending -= 1;
          if (pending == 0) AddReady(frame, state, iter, edge.dst, false, ready);
        }
      } else {
        // A dead Enter kills the Merge of a loop on an untaken branch: its back edge will
        // never bring a value.
        dead_count = src_is_enter ? dst.num_data_inputs : dead_count + 1;
        if (pending == 1 && dead_count == dst.num_data_inputs) {
          AddReady(frame, state, iter, edge.dst, true, ready);
        }
      }
      continue;
    }
    if (dead) {
      ++state->dead_count[l];
    } else if (!control) {
      write();
    }
    if (--state->pending[l] == 0) {
      AddReady(frame, state, iter, edge.dst, state->dead_count[l] > 0, ready);
    }
  }
}

FrameState* FrameStepState::FindOrCreateChild(FrameState* parent, int64_t parent_iter,
                                              int32_t static_child) {
  IterationState* state = parent->iteration(parent_iter);
  std::unique_ptr<FrameState>& child = state->children[static_child];
  if (child == nullptr) {
    const StaticFrame& info = info_.frames()[static_child];
    child = std::make_unique<FrameState>();
    child->static_id = static_child;
    child->parent = parent;
    child->parent_iter = parent_iter;
    // By the frame's name, not its index here: the partitions of a loop that spans devices
    // number their frames independently but must agree on the rendezvous keys.
    child->id = absl::StrCat(absl::HashOf(parent->id, parent_iter, info.name));
    child->parallel_iterations = info.parallel_iterations;
    child->num_pending_inputs = info.num_enters;
    child->iterations.push_back(NewIteration(static_child));
  }
  return child.get();
}

void FrameStepState::IncrementIteration(FrameState* frame, TaggedReadyList* ready) {
  ++frame->iteration_count;
  ++frame->num_outstanding_iterations;
  frame->iterations.push_back(NewIteration(frame->static_id));
  // Only the newest iteration's dead Exits can be the loop's last (its condition failing
  // there, or the whole loop dead): earlier ones were dead because the loop went on.
  frame->dead_exits.clear();
  for (HeldValue& held : frame->invariants) {
    const TensorValue value = held.AsTensorValue();
    ActivateNodes(frame, frame->iteration_count, frame->iteration(frame->iteration_count),
                  held.node, absl::MakeConstSpan(&value, 1), held.dead, ready);
  }
}

bool FrameStepState::IsIterationDone(FrameState* frame, int64_t iter) {
  IterationState* state = frame->iteration(iter);
  if (state == nullptr || state->outstanding_ops != 0 || !state->children.empty()) return false;
  if (iter == 0) return frame->num_pending_inputs == 0;
  return iter == frame->first_iter;  // the one before it is deleted
}

void FrameStepState::CleanupIterations(FrameState* frame, int64_t iter, TaggedReadyList* ready) {
  while (iter <= frame->iteration_count && IsIterationDone(frame, iter)) {
    RecycleIteration(frame->static_id, std::move(frame->iterations.front()));
    frame->iterations.pop_front();
    ++frame->first_iter;
    --frame->num_outstanding_iterations;
    ++iter;
    if (!frame->next_iter_roots.empty()) {
      IncrementIteration(frame, ready);
      std::vector<HeldValue> nexts = std::move(frame->next_iter_roots);
      frame->next_iter_roots.clear();
      for (HeldValue& held : nexts) {
        const TensorValue value = held.AsTensorValue();
        ActivateNodes(frame, frame->iteration_count, frame->iteration(frame->iteration_count),
                      held.node, absl::MakeConstSpan(&value, 1), false, ready);
      }
    }
  }
  if (frame->num_pending_inputs == 0 && frame->num_outstanding_iterations == 0) {
    DeleteFrame(frame, ready);
  }
}

void FrameStepState::DeleteFrame(FrameState* frame, TaggedReadyList* ready) {
  FrameState* parent = frame->parent;
  const int64_t parent_iter = frame->parent_iter;
  for (int32_t exit : frame->dead_exits) {
    absl::InlinedVector<TensorValue, 1> dead(layout_.node(exit).num_outputs);
    ActivateNodes(parent, parent_iter, parent->iteration(parent_iter), exit, dead, true, ready);
  }
  // Destroys the frame instance.
  parent->iteration(parent_iter)->children.erase(frame->static_id);
  if (parent != &root_ && IsIterationDone(parent, parent_iter)) {
    CleanupIterations(parent, parent_iter, ready);
  }
}

void FrameStepState::Finish() {
  absl::Status status = services_.TakeStatus();
  if (status.ok()) status = device_->Sync();
  Executor::DoneCallback done = std::move(done_);
  delete this;
  done(status);
}

void FrameExecutorImpl::RunAsync(const Args& args, DoneCallback done) {
  (new FrameStepState(*this, args, std::move(done)))->Start();
}

}  // namespace

absl::Status NewFrameExecutor(Device* device, std::unique_ptr<ExecutorGraph> layout,
                              std::unique_ptr<Executor>* executor) {
  ControlFlowInfo info;
  RETURN_IF_ERROR(ControlFlowInfo::Build(*layout, &info));
  *executor = std::make_unique<FrameExecutorImpl>(device, std::move(layout), std::move(info));
  return absl::OkStatus();
}

}  // namespace sluice
