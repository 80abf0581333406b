#include "passes/fused_node_splice.h"

#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "graph/core/errors.h"

namespace sluice {

absl::StatusOr<Node*> SpliceFusedNode(Graph* g, absl::Span<Node* const> members, Node* last,
                                      NodeDef def,
                                      absl::Span<const std::pair<Node*, int>> sources) {
  const auto is_member = [&](const Node* n) { return absl::c_linear_search(members, n); };
  std::vector<Node*> control_sources;
  for (Node* n : members) {
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge() && !is_member(e->src())) control_sources.push_back(e->src());
    }
  }
  std::vector<std::pair<Node*, int>> consumers;
  for (const Edge* e : last->out_edges()) consumers.emplace_back(e->dst(), e->dst_input());
  const std::string assigned = last->assigned_device_name();
  for (Node* n : members) g->RemoveNode(n);
  ASSIGN_OR_RETURN(Node * fused, g->AddNode(std::move(def)));
  fused->set_assigned_device_name(assigned);
  for (int i = 0; i < static_cast<int>(sources.size()); ++i) {
    g->AddEdge(sources[i].first, sources[i].second, fused, i);
  }
  for (Node* src : control_sources) g->AddControlEdge(src, fused);
  for (const auto& [dst, input] : consumers) {
    if (input == Graph::kControlSlot) {
      g->AddControlEdge(fused, dst);
    } else {
      g->AddEdge(fused, 0, dst, input);
    }
  }
  return fused;
}

}  // namespace sluice
