// LowerFunctionalOps: replaces function calls and functional control flow by the graphs they
// stand for, so that one executor (the frame executor for loops and branches) runs them.
//
//  - PartitionedCall and StatefulPartitionedCall: the function's body is inlined.
//  - A node whose op is the name of a function of the graph's library (TF1's Defun, some TF2
//    exports): inlined as a PartitionedCall of that function whose attrs are the node's
//    (those not starting with '_').
//  - If and StatelessIf: the inputs go through Switch on the predicate (a non-bool predicate
//    is cast to bool, non-zero being true); each branch's body is inlined behind a pivot of
//    its side (so its nodes without inputs, constants, are dead on the untaken side); each
//    output is a Merge of the two branches.
//  - Case and StatelessCase: the same with _SwitchN on the branch index (an index out of
//    range takes the last branch, as TensorFlow's Case does).
//  - While and StatelessWhile: a v1 loop in a frame named after the node: Enter, Merge with
//    the NextIteration back edge, the inlined condition into LoopCond, Switch, Exit, and the
//    inlined body (parallel_iterations kept).
// The lowered node's name is kept by an IdentityN (a NoOp without outputs) of its outputs, so
// fetches and consumers of it still resolve; its control inputs and outputs are kept too.
// Bodies that call further functions are lowered in turn (at most kMaxDepth levels:
// recursion is INVALID_ARGUMENT).
//
// Why lower rather than run functions from kernels: TensorFlow's own runtime lowers these
// ops the same way before executing (its lowering pass), so the frame executor's semantics
// (deadness, parallel iterations, cancellation, rendezvous keys per iteration) cover both
// generations of control flow, and the passes after this one (pruning, folding, fusion,
// placement, partitioning) see one graph.
//
// Errors: NOT_FOUND for a function missing from the graph's library; those of
// InstantiateFunctionBody (graph/import/function_body.h) and of importing the body; each names the
// node. An error leaves the graph partly lowered.
#ifndef SLUICE_PASSES_LOWER_FUNCTIONAL_OPS_H_
#define SLUICE_PASSES_LOWER_FUNCTIONAL_OPS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/graph.h"

namespace sluice {

struct LowerFunctionalOpsOptions {
  static constexpr int kMaxDepth = 64;
  // A graph that grows past this while being lowered (functions calling themselves more
  // than once grow it exponentially) is INVALID_ARGUMENT rather than a memory exhaustion.
  static constexpr int kMaxNodes = 1 << 22;
};

absl::Status LowerFunctionalOps(const LowerFunctionalOpsOptions& options, Graph* graph,
                                bool* changed);

// Whether `node` is one of the ops LowerFunctionalOps replaces, or calls a function of its
// graph's library by name (they have no kernels: a session lowers them before it looks for
// kernels). The second form knows only the ops: a caller holding a GraphDef also asks
// whether the op names a function of its library.
bool IsLoweredFunctionalOp(const Node& node);
bool IsLoweredFunctionalOpType(absl::string_view op);

}  // namespace sluice

#endif  // SLUICE_PASSES_LOWER_FUNCTIONAL_OPS_H_
