#include "passes/fusion_roots.h"

#include <vector>

#include "graph/algorithm.h"

namespace sluice {

std::vector<int> RootsConsumersFirst(const Graph& g, absl::flat_hash_map<int, int>* position) {
  std::vector<Node*> post_order;
  GetPostOrder(g, &post_order);
  std::vector<int> roots;
  roots.reserve(post_order.size());
  for (const Node* n : post_order) {
    (*position)[n->id()] = static_cast<int>(roots.size());
    roots.push_back(n->id());
  }
  return roots;
}

}  // namespace sluice
