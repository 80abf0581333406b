// What a graph needs, read from its GraphDef alone: the nodes and Placeholders that a set of
// fetches depends on, and the op types the op registry cannot resolve.
//
// FindFetchNeeds walks backwards from the fetch nodes over data and control edges, as the
// session's pruning does (passes/prune.h), so the CLI asks for exactly the inputs a step
// needs. Frozen TensorFlow graphs hold Placeholders nothing on the path to the outputs reads
// (a lowered Keras LSTM has dozens of `unused_control_flow_input*`, some of unknown rank);
// TensorFlow's session ignores them, and so do the session and the C API of Sluice. The walk
// never goes past a fed tensor: a data edge from a fed tensor is not followed, nor a control
// edge from a fed Placeholder (pruning moves a Placeholder's control consumers onto its feed).
// Names that do not parse and nodes the graph lacks are skipped: resolving names is the
// caller's business (model.h), and reports them.
//
// FindUnregisteredOps lists the op types of a graph's nodes that the registry lacks, for
// describing a graph that cannot run in this build (`sluice inspect`) and for saying so when
// asked to run it. It looks into the bodies of the graph's function library too (a While's
// body, a StatefulPartitionedCall's function). A node that calls a function of the library
// by name, in the graph or in a body, is not a missing op.
//
// All functions are pure and thread-compatible (the registry they read is thread-safe).
#ifndef SLUICE_TOOLS_CLI_GRAPH_NEEDS_H_
#define SLUICE_TOOLS_CLI_GRAPH_NEEDS_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "graph/op/op_registry.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace cli {

struct FetchNeeds {
  // The nodes that run: the fetch nodes and what they need. A fed tensor's producer is in
  // the set only if something else needs it (or it is fetched). Views of the GraphDef's node
  // names (a big graph's names are not copied): valid while the GraphDef is unchanged.
  absl::flat_hash_set<absl::string_view> nodes;
  // The fed tensors those nodes read, as "node:index" (a feed the fetches do not need is
  // absent).
  std::set<std::string> fed_tensors;
  // The Placeholders (and PlaceholderWithDefaults) among `nodes`, in graph order: the inputs
  // the fetches need that no feed provides.
  std::vector<std::string> placeholders;
};

// `fetches` and `feeds` are tensor names ("probs", "probs:0", "split:1"); a fetch may also
// be a target node. A fetch that is also fed needs only its feed, as in TensorFlow.
FetchNeeds FindFetchNeeds(const GraphDef& graph_def, const std::vector<std::string>& fetches,
                          const std::vector<std::string>& feeds);
// FetchNeeds::nodes would outlive a temporary GraphDef's names.
FetchNeeds FindFetchNeeds(GraphDef&& graph_def, const std::vector<std::string>& fetches,
                          const std::vector<std::string>& feeds) = delete;

// "x:0" for "x", "x:1" for "x:1": the key FetchNeeds::fed_tensors uses.
std::string FedTensorKey(const std::string& tensor_name);

// An op type that the registry does not know, and the nodes of that type.
struct UnregisteredOp {
  std::string op;
  // The graph's nodes in graph order, then the library functions' nodes, each named
  // "<function>/<node>", in library and body order.
  std::vector<std::string> nodes;
};

// Every op type of `graph_def`'s nodes, and of its library functions' nodes, that `registry`
// lacks and that names no library function (a node whose op is a function's name calls it;
// the session inlines such calls), sorted by op name. Empty when every node's op is
// registered or a function of the library.
std::vector<UnregisteredOp> FindUnregisteredOps(const GraphDef& graph_def,
                                                const OpRegistryInterface& registry);

// "a", "a, b, c", "a, b, c and 7 more": at most `max_names` names (at least one), then how
// many are left out.
std::string FirstNames(const std::vector<std::string>& names, size_t max_names);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_GRAPH_NEEDS_H_
