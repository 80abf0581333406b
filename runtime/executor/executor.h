// Executor: runs the nodes of one partition graph on one device, step after step.
//
// NewLocalExecutor takes a graph whose nodes are all placed on `params.device`, creates
// every node's kernel once (through params.create_kernel) and lays the graph out for
// execution. Each RunAsync is a step: nodes run once all their inputs (data and control)
// are ready; values enter through `_Arg`/`_Recv` kernels (call frame, rendezvous) and leave
// through `_Retval`/`_Send`. Cheap kernels run inline on the thread that made them ready
// (the cheap roots on the thread calling RunAsync, before it returns); expensive ones
// (OpKernel::IsExpensive) go to args.runner; asynchronous kernels (AsyncOpKernel) finish
// on whatever thread calls them back.
//
// Errors: the first failing node ends the step. Its status keeps the kernel's code and
// message, with the op and node appended (" [Op:AddV2]" then "\n\t [[{{node add}}]]", see
// AttachDef); the executor then aborts args.rendezvous and cancels
// args.cancellation_manager with it (so pending Recvs and blocked kernels wake up), runs
// no further nodes, and calls done once every node already running has finished. Other
// steps of the same executor are not affected.
//
// Ownership: the executor owns the graph and the kernels; the device and everything in
// Args are not owned and must outlive the step (until done has been called).
// Thread safety: an Executor is immutable after construction; RunAsync may be called from
// many threads at once for different steps.
#ifndef SLUICE_RUNTIME_EXECUTOR_EXECUTOR_H_
#define SLUICE_RUNTIME_EXECUTOR_EXECUTOR_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "graph/graph.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

class CallFrameInterface;
class CancellationManager;
class Device;
class NodeOutputObserver;
class Rendezvous;
class ResourceMgr;
class ScopedStepContainer;
class StepStatsCollector;

struct LocalExecutorParams {
  Device* device = nullptr;  // Not owned.
  // Creates the kernel for a node (the session passes CreateOpKernel on `device`). Called
  // once per node, at construction.
  std::function<absl::Status(const Node& node, std::unique_ptr<OpKernel>* kernel)> create_kernel;
  // Whether a _Recv may bring a dead tensor (another partition of the step has a Switch):
  // the executor then tracks deadness even if this graph has no control-flow node.
  bool may_receive_dead = false;
};

class Executor {
 public:
  struct Args {
    int64_t step_id = 0;
    // Per-step services handed to every kernel (OpKernelContext::Params); all optional.
    Rendezvous* rendezvous = nullptr;
    CallFrameInterface* call_frame = nullptr;
    CancellationManager* cancellation_manager = nullptr;
    ResourceMgr* resource_manager = nullptr;
    // The step's resources (TensorArrays); every partition of a step shares it.
    ScopedStepContainer* step_container = nullptr;
    // When set, every node that runs is recorded on it under the device's name.
    StepStatsCollector* stats_collector = nullptr;
    // When set, sees every node output of the step (node_output_observer.h); a failure it
    // returns ends the step as a failing kernel would.
    NodeOutputObserver* output_observer = nullptr;
    // Runs a closure on the inter-op pool; if empty, everything runs inline on the calling
    // thread (and on the threads that call asynchronous kernels back).
    std::function<void(std::function<void()>)> runner;
  };
  // Called exactly once per step, on any thread, when the step is over.
  using DoneCallback = std::function<void(const absl::Status&)>;

  virtual ~Executor() = default;

  // Starts a step, running its cheap roots and what they make ready on this thread (so it
  // may return only once much of the step has run). `done` may run before RunAsync returns.
  virtual void RunAsync(const Args& args, DoneCallback done) = 0;

  // Runs a step and blocks until it is done.
  absl::Status Run(const Args& args);
};

// Builds an executor over `graph` (taking ownership). Kernels are created now; the first
// failure is returned with the node attached. A graph with v1 control flow (Switch, Merge,
// Enter, Exit, NextIteration) gets the frame executor (frame_executor.h), with loops and
// dead tensors. INVALID_ARGUMENT when params lack a device or create_kernel, naming a node on
// or behind a cycle that is not a loop, or a node whose loop frames are malformed.
absl::Status NewLocalExecutor(const LocalExecutorParams& params, std::unique_ptr<const Graph> graph,
                              std::unique_ptr<Executor>* executor);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_EXECUTOR_EXECUTOR_H_
