// RootsConsumersFirst: the order in which the fusion passes (elementwise_fusion.h,
// mlir_clustering.h) take the roots of their groups — `g`'s node ids in post order, so that
// consumers come before their producers and each group is as large as the pass allows — and,
// in *position, each id's index in that order (the nodes a pass adds later have none, which
// tells them apart from the nodes shape inference saw).
#ifndef SLUICE_PASSES_FUSION_ROOTS_H_
#define SLUICE_PASSES_FUSION_ROOTS_H_

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "graph/graph.h"

namespace sluice {

std::vector<int> RootsConsumersFirst(const Graph& g, absl::flat_hash_map<int, int>* position);

}  // namespace sluice

#endif  // SLUICE_PASSES_FUSION_ROOTS_H_
