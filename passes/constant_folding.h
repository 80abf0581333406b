// Constant folding: replaces the outputs of subgraphs that compute the same value every step
// by Const nodes holding that value, computed once on the host.
//
// What folds, as in TensorFlow's constant_folding.cc:
//  - Const nodes are the seeds.
//  - Shape, ShapeN, Size and Rank whose input shapes are known well enough (fully defined;
//    for Rank, of known rank) fold from shape inference alone, even when their input does
//    not fold. The new Const keeps a control edge from that input's producer, so the old
//    ordering constraint survives.
//  - Any other node folds when every data input comes from a folding node and the node is
//    side-effect free and evaluable: not stateful (OpDef is_stateful), not a random or
//    session-handle op, not Placeholder/_Arg/_Retval/_Send/_Recv or a control-flow op, no
//    ref/resource/variant outputs, no output that shape inference already shows is larger
//    than max_constant_size_in_bytes, accepted by consider_fn (when set), and
//    opts.evaluator->CanEvaluate(node).
//  - Nodes named in excluded_nodes never fold (not even Consts): their value is fed.
// Control inputs from non-folding nodes do not stop a node from folding; they are carried,
// transitively, onto the Consts that replace its outputs (from _SOURCE when there are none).
//
// What is replaced: each output of a folding non-Const node read by a non-folding node gets
// a new Const named "<node>/_K__cf__N" on the node's requested and assigned device, which
// takes over every consumer of that output. A folding node in protected_names (a fetched
// node, whose name must survive) with one output is instead replaced in place by a Const of
// the same name that keeps all its out-edges. Results above max_constant_size_in_bytes, and
// of dtypes a Const cannot hold, are left unfolded. Folding nodes left without consumers are
// then removed (never those in protected_names).
//
// Errors: the evaluator's (a kernel failure, naming the node), and failures to add a Const
// (e.g. a registry without "Const"). On error the graph is unchanged and *changed is
// false, so a caller may treat an error as "nothing folded", as TensorFlow's optimizer does.
//
// Thread safety: mutates `graph`, which no one else may touch meanwhile; the evaluator is
// used from the calling thread only.
#ifndef SLUICE_PASSES_CONSTANT_FOLDING_H_
#define SLUICE_PASSES_CONSTANT_FOLDING_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "graph/graph.h"
#include "passes/constant_evaluator.h"

namespace sluice {

class ShapeRefiner;

struct ConstantFoldingOptions {
  // Computes the folded values on the host; not owned, required.
  ConstantSubgraphEvaluator* evaluator = nullptr;
  // Results larger than this are not folded (TensorFlow's default, 10 MiB), so folding
  // cannot blow up the graph's size.
  int64_t max_constant_size_in_bytes = 10 << 20;
  // Nodes never treated as constant, e.g. the fed ones.
  absl::flat_hash_set<std::string> excluded_nodes;
  // Nodes whose names must survive (fetches, targets): never removed, and replaced in place
  // when they fold.
  absl::flat_hash_set<std::string> protected_names;
  // When set, a node other than a Const or a shape-foldable Shape/ShapeN/Size/Rank folds only
  // if this returns true (as TensorFlow's `consider`).
  std::function<bool(const Node*)> consider_fn;
  // Not owned; may be null. A refiner that inferred this graph's shapes earlier (the
  // importer's): folding then re-infers only what changed since (ShapeRefiner::RefreshNode)
  // instead of the whole graph, and gets the same shapes as a new refiner would, provided
  // the passes since have removed, added or rewired nodes but changed no node's attrs, and
  // the refiner has no node folder. It is left holding the shapes of the graph before
  // folding, with require_shape_inference_fns off: use it for one ConstantFold only. A
  // graph with loops (NextIteration) gets a private refiner anyway.
  ShapeRefiner* shapes = nullptr;
};

// Folds what can be folded in `graph` (see above) using opts.evaluator to compute values; a
// pass (passes/pass.h). INVALID_ARGUMENT when opts.evaluator is null.
absl::Status ConstantFold(const ConstantFoldingOptions& opts, Graph* graph, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_CONSTANT_FOLDING_H_
