// Traversals: one iterative DFS over a stack of (node, entering|leaving) items, run forward
// along out-edges or backward along in-edges. Entering a node marks it visited, calls enter,
// pushes its leave item, then pushes its unvisited neighbours (sorted by the comparator if
// any) so that the first neighbour is popped first. Revisits of a node already entered are
// skipped, which is what turns a loop's back edge into a no-op.
#include "graph/algorithm.h"

#include <algorithm>
#include <utility>

namespace sluice {
namespace {

struct Work {
  Node* node;
  bool leave;
};

// The neighbours of `n` in the direction of the search, in visiting order.
void Neighbours(const Node* n, bool reverse, const NodeComparator& comparator,
                const EdgeFilter& edge_filter, const std::vector<bool>& visited,
                std::vector<Node*>* out) {
  out->clear();
  const EdgeSet& edges = reverse ? n->in_edges() : n->out_edges();
  for (const Edge* e : edges) {
    if (edge_filter && !edge_filter(*e)) continue;
    Node* next = reverse ? e->src() : e->dst();
    if (!visited[next->id()]) out->push_back(next);
  }
  if (!comparator || out->size() < 2) return;
  // Most nodes have a few neighbours: a stable insertion sort spares std::stable_sort's
  // temporary buffer, an allocation per visited node.
  if (out->size() <= 16) {
    for (size_t i = 1; i < out->size(); ++i) {
      Node* item = (*out)[i];
      size_t j = i;
      for (; j > 0 && comparator(item, (*out)[j - 1]); --j) (*out)[j] = (*out)[j - 1];
      (*out)[j] = item;
    }
    return;
  }
  std::stable_sort(out->begin(), out->end(), comparator);
}

void Search(const Graph& g, absl::Span<Node* const> start, bool reverse,
            const std::function<void(Node*)>& enter, const std::function<void(Node*)>& leave,
            const NodeComparator& comparator, const EdgeFilter& edge_filter) {
  std::vector<bool> visited(g.num_node_ids(), false);
  std::vector<Work> stack;
  std::vector<Node*> next;
  for (Node* root : start) {
    if (visited[root->id()]) continue;
    stack.push_back({root, false});
    while (!stack.empty()) {
      Work w = stack.back();
      stack.pop_back();
      if (w.leave) {
        leave(w.node);
        continue;
      }
      if (visited[w.node->id()]) continue;
      visited[w.node->id()] = true;
      if (enter) enter(w.node);
      if (leave) stack.push_back({w.node, true});
      Neighbours(w.node, reverse, comparator, edge_filter, visited, &next);
      for (auto it = next.rbegin(); it != next.rend(); ++it) stack.push_back({*it, false});
    }
  }
}

// `terminal` first, then every op node without edges in the search direction.
std::vector<Node*> Roots(const Graph& g, bool reverse) {
  std::vector<Node*> roots = {reverse ? g.sink_node() : g.source_node()};
  for (Node* n : g.op_nodes()) {
    if ((reverse ? n->out_edges() : n->in_edges()).empty()) roots.push_back(n);
  }
  return roots;
}

}  // namespace

void DFS(const Graph& g, const std::function<void(Node*)>& enter,
         const std::function<void(Node*)>& leave, const NodeComparator& stable_comparator,
         const EdgeFilter& edge_filter) {
  Search(g, Roots(g, false), false, enter, leave, stable_comparator, edge_filter);
}

void DFSFrom(const Graph& g, absl::Span<Node* const> start, const std::function<void(Node*)>& enter,
             const std::function<void(Node*)>& leave, const NodeComparator& stable_comparator,
             const EdgeFilter& edge_filter) {
  Search(g, start, false, enter, leave, stable_comparator, edge_filter);
}

void ReverseDFS(const Graph& g, const std::function<void(Node*)>& enter,
                const std::function<void(Node*)>& leave, const NodeComparator& stable_comparator,
                const EdgeFilter& edge_filter) {
  Search(g, Roots(g, true), true, enter, leave, stable_comparator, edge_filter);
}

void ReverseDFSFrom(const Graph& g, absl::Span<Node* const> start,
                    const std::function<void(Node*)>& enter,
                    const std::function<void(Node*)>& leave,
                    const NodeComparator& stable_comparator, const EdgeFilter& edge_filter) {
  Search(g, start, true, enter, leave, stable_comparator, edge_filter);
}

void GetPostOrder(const Graph& g, std::vector<Node*>* order,
                  const NodeComparator& stable_comparator, const EdgeFilter& edge_filter) {
  order->clear();
  DFS(
      g, nullptr, [order](Node* n) { order->push_back(n); }, stable_comparator, edge_filter);
}

void GetReversePostOrder(const Graph& g, std::vector<Node*>* order,
                         const NodeComparator& stable_comparator, const EdgeFilter& edge_filter) {
  GetPostOrder(g, order, stable_comparator, edge_filter);
  std::reverse(order->begin(), order->end());
}

bool PruneForReverseReachability(Graph* g, std::unordered_set<const Node*> start) {
  std::vector<Node*> roots;
  roots.reserve(start.size());
  for (Node* n : g->nodes()) {
    if (start.count(n) > 0) roots.push_back(n);
  }
  std::vector<bool> keep(g->num_node_ids(), false);
  ReverseDFSFrom(
      *g, roots, [&keep](Node* n) { keep[n->id()] = true; }, nullptr);
  std::vector<Node*> doomed;
  for (Node* n : g->op_nodes()) {
    if (!keep[n->id()]) doomed.push_back(n);
  }
  for (Node* n : doomed) g->RemoveNode(n);
  return !doomed.empty();
}

bool FixupSourceAndSinkEdges(Graph* g) {
  bool changed = false;
  // A node without in-edges has none from _SOURCE, and one without out-edges none to _SINK,
  // so the edges are added without AddControlEdge's duplicate search: that search scans
  // _SINK's in-edges, which made fixing up a graph with many unread nodes quadratic.
  for (Node* n : g->op_nodes()) {
    if (n->in_edges().empty()) {
      g->AddControlEdge(g->source_node(), n, /*allow_duplicates=*/true);
      changed = true;
    }
    if (n->out_edges().empty()) {
      g->AddControlEdge(n, g->sink_node(), /*allow_duplicates=*/true);
      changed = true;
    }
  }
  return changed;
}

}  // namespace sluice
