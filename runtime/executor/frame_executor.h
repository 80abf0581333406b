// The executor for graphs with v1 control flow: loop frames, iterations and dead tensors,
// with TensorFlow's semantics.
//
// NewLocalExecutor picks it when the graph has Switch, Merge, Enter, Exit, NextIteration,
// LoopCond or ControlTrigger nodes; graphs without them keep the lock-free executor
// (executor.cc), whose per-node cost this one does not try to match.
//
// Semantics (TensorFlow's executor):
//  - Every node runs in a frame instance and an iteration of it (ControlFlowInfo). Enter
//    feeds iteration 0 of a child frame instance, made on first use per (parent instance,
//    parent iteration, frame name); an Enter with is_constant feeds every iteration of it
//    (a loop invariant, shared, not copied per iteration). Exit feeds the parent instance's
//    iteration. NextIteration feeds the next iteration, which is started when the frame has
//    fewer than parallel_iterations iterations in flight, and otherwise when the oldest one
//    finishes. An iteration is deleted (its values released) once its nodes and child frames
//    are done and the one before it is deleted, so a loop runs in memory bounded by
//    parallel_iterations, not by its iteration count. A deleted iteration's arrays are kept
//    for the frame's next one (per static frame, for the step), not freed and allocated again.
//  - Dead tensors: the output a Switch does not take is dead; a node with a dead input
//    (data or control) is dead: it does not run and all its outputs are dead. Merge runs
//    once all its control inputs arrived and one data input is live (it forwards that one;
//    its dead inputs are empty), and is dead when every data input is dead (or a dead
//    Enter feeds it: a loop on an untaken branch). ControlTrigger runs even when dead. A
//    dead NextIteration ends deadness at the iteration boundary; a dead Exit of the last
//    iteration is propagated when its frame instance is done. _Send runs on a dead input
//    and sends the deadness (OpKernelContext::is_input_dead); _Recv's dead value makes its
//    output dead, so deadness crosses partitions.
//  - Errors, cancellation and asynchronous kernels behave as in executor.h; a step whose
//    loop never ends stops at the next node once the step is cancelled (a session timeout).
//
// Scheduling: one mutex per step guards the frames, iterations, pending counts and input
// slots; kernels run outside it. The thread that makes nodes ready runs them; of the nodes
// measured expensive (kernel_costs.h, shared with executor.cc), the first stays and the
// others go to args.runner when their work pays for the hand-off and the device has a core
// for it. Enter, Exit, NextIteration, Switch, Merge, LoopCond and Identity are routed without a
// kernel call.
#ifndef SLUICE_RUNTIME_EXECUTOR_FRAME_EXECUTOR_H_
#define SLUICE_RUNTIME_EXECUTOR_FRAME_EXECUTOR_H_

#include <memory>

#include "absl/status/status.h"
#include "runtime/device/device.h"
#include "runtime/executor/executor.h"
#include "runtime/executor/executor_graph.h"

namespace sluice {

// Builds the control-flow executor over `layout`. INVALID_ARGUMENT (naming the node) for a
// graph whose frames are malformed (see control_flow_info.h).
absl::Status NewFrameExecutor(Device* device, std::unique_ptr<ExecutorGraph> layout,
                              std::unique_ptr<Executor>* executor);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_EXECUTOR_FRAME_EXECUTOR_H_
