// OptimizeCSE: common subexpression elimination over a Graph.
//
// Two op nodes are merged when they compute the same value: same op, equal attrs (tensor
// attrs compare by value, so differing Consts stay apart), same assigned and requested
// device, the same data inputs (as a multiset for ops whose OpDef is commutative, in order
// otherwise) and the same set of control inputs. The survivor is the node with the lower id,
// unless only the other one is protected; the loser's data and control consumers are rewired
// to the survivor and the loser is removed. Merges cascade: consumers of merged nodes can
// merge in turn within the same call.
//
// Never merged: stateful ops, ops with ref-typed inputs or outputs, Placeholder /
// PlaceholderV2 / PlaceholderWithDefault, _Send/_Recv/_HostSend/_HostRecv, nodes rejected by
// `consider_fn`, and two nodes that are both protected.
//
// A pass (passes/pass.h): `*changed` is set to whether any node was removed. Always returns
// OK. Not thread-safe with respect to `g`.
#ifndef SLUICE_PASSES_CSE_H_
#define SLUICE_PASSES_CSE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"

namespace sluice {

class Graph;
class Node;

struct CseOptions {
  // Names that must survive the pass (fetched, fed or targeted nodes): a protected node may
  // absorb an unprotected one, never the reverse.
  absl::flat_hash_set<std::string> protected_names;
  // Optional: a hash of each node's attrs, by node id (0: not yet computed), kept from one
  // call to the next so that unchanged nodes, Consts above all, are not hashed again. Valid
  // only while no pass changes the attrs of a node between the calls (adding and removing
  // nodes is fine: ids are never reused). The pipeline's optimisation rounds use one.
  std::vector<uint64_t>* attr_hash_cache = nullptr;
  // When set, only nodes it accepts are merged (TensorFlow's `consider_fn`).
  std::function<bool(const Node*)> consider_fn;
};

absl::Status OptimizeCSE(const CseOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_CSE_H_
