// SpliceFusedNode: the last step of every fusion pass — a set of nodes is replaced by one
// node that computes what they computed together.
//
// `members` are the nodes to replace; `last` (one of them) is the node whose value the fused
// node produces: the fused node takes over every out-edge of `last` (data edges from its
// output 0, and control edges), its assigned device and, through `def`, normally its name,
// so that fetches of it still resolve. The fused node's data inputs are `sources`, in order;
// its control inputs are the union of the members' control inputs from outside the set.
// Contract (the caller's matching ensures it): no member but `last` has an out-edge to a
// node outside `members`, and `def` is valid for the graph's registry.
//
// Errors: AddNode's (the fused node is then missing and the graph must be dropped).
#ifndef SLUICE_PASSES_FUSED_NODE_SPLICE_H_
#define SLUICE_PASSES_FUSED_NODE_SPLICE_H_

#include <utility>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graph/graph.h"
#include "proto/node_def.pb.h"

namespace sluice {

absl::StatusOr<Node*> SpliceFusedNode(Graph* g, absl::Span<Node* const> members, Node* last,
                                      NodeDef def, absl::Span<const std::pair<Node*, int>> sources);

}  // namespace sluice

#endif  // SLUICE_PASSES_FUSED_NODE_SPLICE_H_
