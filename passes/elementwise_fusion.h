// FuseElementwise: chains of elementwise ops become one `_FusedElementwise` node
// (graph/ops/fused_elementwise_spec.h), whose kernel evaluates the chain tile by tile in
// cache instead of writing and reading every intermediate tensor. A transformer's Gelu
// (bias add, Mul, RealDiv, Erf, AddV2, Mul) and a layer normalisation's tail (Sub, Mul, Mul,
// AddV2) are the chains this is for. Sluice's own pass: TensorFlow fuses such chains only
// under XLA.
//
// A group grows from a root, upwards: a producer joins when it is an op the fused kernel
// evaluates (FusedElementwiseArity) with one output, of the root's dtype, on the root's
// assigned device, not in `protected_names`, without control consumers, and every consumer
// of its output is already in the group. Roots are taken consumers first, so each group is
// as large as these rules allow. A group is fused when, from the graph's inferred shapes
// (dims compared symbolically: passes/symbolic_shapes.h):
//   - the root's rank is known; call its shape S;
//   - at least one of the group's inputs has shape S (it becomes input 0, whose shape the
//     fused node's output takes);
//   - every other input broadcasts to S in a form the kernel takes: one element, S's
//     trailing dims (after ones), or S's leading dims followed by ones;
//   - the input of every unary op in the group has shape S (a unary op on a smaller value,
//     broadcast later, would round its last elements differently from its own kernel);
//   - it has at least two ops (and at most kMaxFusedElementwiseOps: a group stops growing
//     there), and `kernel_exists` says the fused node has a kernel there.
// The fused node takes the root's name, requested and assigned device, consumers and (as
// control inputs) the group's control inputs. Values do not change: the kernel applies each
// op's own functor. Shapes are inferred once, and only when some candidate feeds another.
//
// `*changed` is set to whether anything was fused. Errors: only internal ones (a graph that
// cannot take the new node). Not thread-safe with respect to `g`.
#ifndef SLUICE_PASSES_ELEMENTWISE_FUSION_H_
#define SLUICE_PASSES_ELEMENTWISE_FUSION_H_

#include <functional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "proto/node_def.pb.h"

namespace sluice {

class Graph;

struct ElementwiseFusionOptions {
  // Feeds and fetched intermediate values: never inside a group (a fetched node may be a
  // group's root, whose name the fused node keeps).
  absl::flat_hash_set<std::string> protected_names;
  // Whether a kernel for `node` exists on the device named `device`. Unset: nothing is fused.
  std::function<bool(const NodeDef& node, const std::string& device)> kernel_exists;
};

absl::Status FuseElementwise(const ElementwiseFusionOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_ELEMENTWISE_FUSION_H_
