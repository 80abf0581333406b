// NodeOutputObserver: sees the values nodes produce during a step, without the graph being
// changed and without the values being fetched. Capture (`sluice run --capture`),
// `--check-numerics` and TensorFlow's debug watches (RunOptions.debug_options) sit on it.
//
// Contract: an executor given an observer calls OnOutput once for every output of every
// node that runs in the step (Const and forwarding nodes included: the executors' shortcuts
// that skip a node's kernel are off while an observer is set), after the kernel succeeded
// and before any consumer reads the value. It is called on the thread that ran the node, so
// calls for different nodes may be concurrent and the observer must be thread-safe. Dead
// outputs (an untaken Switch branch) and outputs of failed nodes are not observed. `value`
// is valid only during the call; to keep it, copy the Tensor (which shares its buffer) and
// never write through it. A non-OK status ends the step with that status, attributed to
// the node, as a failing kernel would.
//
// Node names are those of the graph that runs: after pruning, constant folding and fusion,
// a folded node is not observed and a fused node is observed under its own name.
#ifndef SLUICE_RUNTIME_FRAMEWORK_NODE_OUTPUT_OBSERVER_H_
#define SLUICE_RUNTIME_FRAMEWORK_NODE_OUTPUT_OBSERVER_H_

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/graph.h"

namespace sluice {

class NodeOutputObserver {
 public:
  virtual ~NodeOutputObserver() = default;
  virtual absl::Status OnOutput(const Node& node, int output, const Tensor& value) = 0;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_NODE_OUTPUT_OBSERVER_H_
