// ConstantEvaluator: the value of a node's output when it is already known while a graph is
// being built, so that shape functions can read it (Reshape's `shape`, Fill's `dims`, ...).
//
// Evaluate(node, port) tries, in order:
//  1. the cache of values found earlier;
//  2. a Const node's `value`;
//  3. what the shapes known to the ShapeRefiner imply: Shape and Size of a fully defined
//     input, Rank of an input of known rank, and `shape[i]` / `unstack(shape)[i]` (a
//     StridedSlice or Unpack of a Shape) when dim i is known;
//  4. folding the constant subgraph that ends at the node, node by node: built-in folds for
//     the integer plumbing shape tensors are made of (the Identity family, Pack, Concat,
//     ConcatV2, Cast between int32 and int64), and for other ops the NodeFolder, when one is
//     set (the runtime can plug in its CPU kernels there).
// TensorFlow runs step 4 as a subgraph on a GraphRunner; graph/ has no kernels, hence the
// folds and the hook. Nodes that are never constant stop the search: ops without inputs
// other than Const (placeholders, _Arg), PlaceholderWithDefault, stateful ops, Enter, Exit
// and Merge (loops may be half built), and nodes with function attrs. Folding is best effort:
// a fold that does not apply, or a search past kMaxNodesPerEvaluation nodes, just leaves the
// value unknown.
//
// Errors: only what TensorFlow reports too: a Const whose `value` does not parse, and a
// Shape or Size with out_type int32 whose value does not fit ("Value is out of int32
// range: ...").
//
// Ownership and thread safety: owned by a ShapeRefiner (which must outlive it), used by one
// thread at a time. Values up to kMaxCachedBytes are cached per (node, port); Forget(node)
// drops a node's values, which the refiner calls whenever a node is (re-)added.
#ifndef SLUICE_GRAPH_EVAL_CONST_TENSOR_H_
#define SLUICE_GRAPH_EVAL_CONST_TENSOR_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "graph/core/tensor.h"
#include "graph/graph.h"

namespace sluice {

class ShapeRefiner;

// Computes output `port` of `node` from the values of all its data inputs (by input index);
// nullopt when it cannot. Must not fail in any other way: folding is best effort.
using NodeFolder = std::function<std::optional<Tensor>(const Node& node, int port,
                                                       const std::vector<Tensor>& inputs)>;

class ConstantEvaluator {
 public:
  // TensorFlow's ShapeRefiner caches values of at most this size.
  static constexpr size_t kMaxCachedBytes = 1024 * 1024;
  // Bounds the work of one Evaluate (and so of shape inference on hostile graphs).
  static constexpr int kMaxNodesPerEvaluation = 4096;

  // `refiner` gives the shapes of added nodes (step 3 above).
  explicit ConstantEvaluator(const ShapeRefiner* refiner) : refiner_(refiner) {}
  ConstantEvaluator(const ConstantEvaluator&) = delete;
  ConstantEvaluator& operator=(const ConstantEvaluator&) = delete;

  // The value of output `port` of `node`, or nullopt when it is not known.
  absl::StatusOr<std::optional<Tensor>> Evaluate(const Node& node, int port);

  void set_node_folder(NodeFolder folder) { folder_ = std::move(folder); }
  void Forget(const Node* node);

 private:
  using NodeOutput = std::pair<const Node*, int>;

  // Steps 1-3: a value found without folding anything.
  absl::StatusOr<std::optional<Tensor>> KnownValue(const Node& node, int port) const;
  // Step 4 for one node whose data inputs all have values in `values`.
  std::optional<Tensor> Fold(const Node& node, int port,
                             const absl::flat_hash_map<NodeOutput, Tensor>& values) const;
  bool CanFold(const Node& node) const;
  void Remember(const Node& node, int port, const Tensor& value);

  const ShapeRefiner* const refiner_;
  NodeFolder folder_;
  absl::flat_hash_map<NodeOutput, Tensor> cache_;
};

}  // namespace sluice

#endif  // SLUICE_GRAPH_EVAL_CONST_TENSOR_H_
