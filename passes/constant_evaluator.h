// ConstantSubgraphEvaluator: how passes/ runs kernels without depending on them.
//
// Constant folding must compute the values of foldable subgraphs, which takes CPU kernels;
// passes/ may not use kernels/ or runtime/ (//:layers.bzl), and runtime/session uses passes/.
// So the pass takes this interface and the session layer implements it
// (runtime/session/host_constant_evaluator.h). Tests may implement it directly.
//
// (graph/eval_const_tensor.h already declares a sluice::ConstantEvaluator, the best-effort
// value lookup that shape inference uses; this interface is a different, kernel-backed
// contract, hence the different name.)
//
// Contract for implementations:
//  - CanEvaluate is a cheap, side-effect-free query the pass asks for every candidate node.
//  - Evaluate runs each node of `nodes` once, in the order given, and fills `values` with one
//    tensor per entry of `outputs`, in order. Failures (a kernel error, a node whose input
//    comes from outside `nodes`) are returned with the node named; `values` is then
//    unspecified.
//  - The evaluated nodes' Graph is only read.
// Thread safety: as documented by each implementation.
#ifndef SLUICE_PASSES_CONSTANT_EVALUATOR_H_
#define SLUICE_PASSES_CONSTANT_EVALUATOR_H_

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/tensor.h"

namespace sluice {

class Node;

class ConstantSubgraphEvaluator {
 public:
  virtual ~ConstantSubgraphEvaluator() = default;

  // True if `node` can be evaluated on the host: it is a Const, or a CPU kernel exists for
  // it with its attrs.
  virtual bool CanEvaluate(const Node& node) const = 0;

  // Evaluates `nodes`, a closed subgraph (every data input of a node in `nodes` is produced
  // by a node in `nodes`) given in topological order, and sets *values to the values of
  // `outputs` (node, output index). Control edges are ignored: the nodes are side-effect
  // free, so only data dependencies order them.
  virtual absl::Status Evaluate(absl::Span<const Node* const> nodes,
                                absl::Span<const std::pair<const Node*, int>> outputs,
                                std::vector<Tensor>* values) = 0;
};

}  // namespace sluice

#endif  // SLUICE_PASSES_CONSTANT_EVALUATOR_H_
