// Traversals and whole-graph fix-ups over a Graph.
//
// Depth-first searches are iterative (no recursion, so deep chains cannot overflow the
// stack) and visit each node at most once. Without a comparator, neighbours are visited in
// the order of the node's edge sets, which is deterministic for a given history of graph
// edits; with one, the neighbours of each node are sorted by it first, which makes the order
// independent of that history (NodeComparatorName gives the same order for the same
// GraphDef however it was built).
//
// Roots: DFS starts at _SOURCE and then at every op node without in-edges (in id order), so
// graphs whose source edges were never fixed up are still covered; ReverseDFS likewise
// starts at _SINK and then at every op node without out-edges.
//
// Orders: GetReversePostOrder is a topological order for an acyclic graph. In a while loop
// the NextIteration -> Merge edges are the only cycles; the search reaches each Merge
// through its Enter first, so the back edge finds the Merge already visited and the order
// is topological over every other edge.
//
// An edge_filter, when set, hides the edges for which it returns false.
//
// Thread safety: the traversals only read the graph; the fix-ups mutate it.
#ifndef SLUICE_GRAPH_ALGORITHM_H_
#define SLUICE_GRAPH_ALGORITHM_H_

#include <functional>
#include <unordered_set>
#include <vector>

#include "absl/types/span.h"
#include "graph/graph.h"

namespace sluice {

using NodeComparator = std::function<bool(const Node*, const Node*)>;
using EdgeFilter = std::function<bool(const Edge&)>;

struct NodeComparatorID {
  bool operator()(const Node* a, const Node* b) const { return a->id() < b->id(); }
};

struct NodeComparatorName {
  bool operator()(const Node* a, const Node* b) const { return a->name() < b->name(); }
};

// Calls enter(n) before the nodes reachable from n along out-edges, and leave(n) after them.
// Either callback may be empty.
void DFS(const Graph& g, const std::function<void(Node*)>& enter,
         const std::function<void(Node*)>& leave, const NodeComparator& stable_comparator = {},
         const EdgeFilter& edge_filter = {});
// The same from the given start nodes only (visited in the order given).
void DFSFrom(const Graph& g, absl::Span<Node* const> start, const std::function<void(Node*)>& enter,
             const std::function<void(Node*)>& leave, const NodeComparator& stable_comparator = {},
             const EdgeFilter& edge_filter = {});

// DFS along in-edges: enter(n) before n's producers, leave(n) after them.
void ReverseDFS(const Graph& g, const std::function<void(Node*)>& enter,
                const std::function<void(Node*)>& leave,
                const NodeComparator& stable_comparator = {}, const EdgeFilter& edge_filter = {});
void ReverseDFSFrom(const Graph& g, absl::Span<Node* const> start,
                    const std::function<void(Node*)>& enter,
                    const std::function<void(Node*)>& leave,
                    const NodeComparator& stable_comparator = {},
                    const EdgeFilter& edge_filter = {});

// Replaces *order with every node DFS reaches, in post order (consumers before producers).
void GetPostOrder(const Graph& g, std::vector<Node*>* order,
                  const NodeComparator& stable_comparator = {}, const EdgeFilter& edge_filter = {});
// Replaces *order with the reverse of GetPostOrder: producers before consumers, _SOURCE
// first. This is the topological order executors and passes use.
void GetReversePostOrder(const Graph& g, std::vector<Node*>* order,
                         const NodeComparator& stable_comparator = {},
                         const EdgeFilter& edge_filter = {});

// Removes every op node that is neither in `start` nor an ancestor of one (along data and
// control edges). Source and sink edges are not fixed up. Returns true if a node was removed.
bool PruneForReverseReachability(Graph* g, std::unordered_set<const Node*> start);

// Adds a control edge from _SOURCE to each op node without in-edges, and from each op node
// without out-edges to _SINK. Returns true if an edge was added.
bool FixupSourceAndSinkEdges(Graph* g);

}  // namespace sluice

#endif  // SLUICE_GRAPH_ALGORITHM_H_
