// Import: building a Graph from a GraphDef, checked as TensorFlow's importer checks it.
//
// Each node is resolved in the graph's op registry, given its default attrs, validated
// against its OpDef, and connected to its inputs ("node", "node:k", "^node"; control inputs
// after data inputs). The importer rejects duplicate names, inputs naming a missing node or
// output, producer/consumer dtype mismatches, cycles other than while loops (a Merge fed by
// a NextIteration waits for only one data input), unknown ops (NOT_FOUND, with close
// registered names suggested), node names outside TensorFlow's grammar (including
// internal names starting with '_', unless allowed), ops removed at the GraphDef's producer
// version, colocation constraints ("_class" = ["loc:@x"]) naming absent nodes (import only),
// unsupported GraphDef versions, and shape function failures (run through a ShapeRefiner in
// topological order: always by ImportGraphDef unless validate_shape is off, by
// ConvertGraphDefToGraph only when asked). Messages follow TensorFlow's wording and name
// the node.
//
// On any error the target graph is left as it was: nodes and edges added so far are
// removed, a ShapeRefiner passed in forgets them, and the graph's versions are restored.
//
// Thread safety: these functions mutate the target graph and refiner, which the caller must
// not touch concurrently; the GraphDef is only read.
#ifndef SLUICE_GRAPH_IMPORT_GRAPH_CONSTRUCTOR_H_
#define SLUICE_GRAPH_IMPORT_GRAPH_CONSTRUCTOR_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "graph/graph.h"
#include "proto/graph.pb.h"

namespace sluice {

class ShapeRefiner;

struct GraphConstructorOptions {
  // Accept node names starting with '_' (TensorFlow's internal names). Internal ops such as
  // _Send and _Recv are accepted either way, as in TensorFlow.
  bool allow_internal_ops = false;
  // Require every node to name a device ("Node 'a' is missing a device specification") and
  // take it as the node's assigned device too, for graphs that were already placed.
  bool expect_device_spec = false;
  // Add the OpDef's default attrs that a node lacks before validating it.
  bool add_default_attributes = true;
  // Check each node against its OpDef (ValidateNodeDef, which accepts attrs missing where
  // the OpDef has a default). Attrs the OpDef does not declare (and whose names do not start
  // with '_') are dropped with a warning first, as TensorFlow ignores them in graphs from
  // newer producers.
  bool validate_nodes = true;
  // Run every node's shape function (TensorFlow's ConvertGraphDefToGraph does not; its
  // ImportGraphDef does, see ImportGraphDefOptions::validate_shape).
  bool validate_shape = false;
};

// Builds `*g`, which should hold no op nodes yet (inputs can only name nodes of gdef), from
// `gdef`. The graph takes gdef's versions (after CheckGraphDefVersions) and library. The
// rvalue overload moves NodeDefs out of gdef, leaving it unspecified.
absl::Status ConvertGraphDefToGraph(const GraphConstructorOptions& opts, const GraphDef& gdef,
                                    Graph* g);
absl::Status ConvertGraphDefToGraph(const GraphConstructorOptions& opts, GraphDef&& gdef, Graph* g);
// As above, with validate_shape's shape functions run through `refiner` (null: a private
// one), which then holds the shapes of g's nodes; it must start empty and not outlive g's
// use. Callers keep it to hand those shapes on (e.g. to RunPipeline).
absl::Status ConvertGraphDefToGraph(const GraphConstructorOptions& opts, GraphDef&& gdef, Graph* g,
                                    ShapeRefiner* refiner);

// A tensor named by (node name, output index); index -1 (kControlSlot) names the node itself
// as a control input.
using TensorIndex = std::pair<std::string, int>;

struct ImportGraphDefOptions {
  // Prepended, with a '/', to every imported node name (and to "loc:@" colocation groups).
  // INVALID_ARGUMENT if that gives invalid names. Without uniquify_prefix, a prefix already
  // in use is kept, and an imported name that then collides is an error.
  std::string prefix;
  // Without a prefix, an imported name equal to a node name or '/'-prefix of the graph is
  // an error ("Node name 'a' already exists in the Graph"), unless this is set: then the
  // node is renamed "a_1" (or "a_2", ... avoiding the GraphDef's own names), and its
  // consumers and colocation groups follow. With a prefix, it applies only when
  // uniquify_prefix is off.
  bool uniquify_names = false;
  // Rename a prefix that is a node name or '/'-prefix of the graph ("p" -> "p_1").
  bool uniquify_prefix = false;
  // Do not import nodes all of whose outputs input_map replaces (their consumers read the
  // mapped tensors instead). A node without outputs (a NoOp) has none replaced and is
  // imported. return_nodes must then be empty.
  bool skip_mapped_nodes = false;
  // Maps tensors of gdef (names without prefix) to tensors already in g. A consumer in gdef
  // of a key reads the value instead; a control key (index -1) maps control inputs and its
  // value must be a control index too.
  std::map<TensorIndex, TensorIndex> input_map;
  // Nodes already in g that every imported node depends on. Only imported nodes that do not
  // inherit the dependency through an imported input get the control edges.
  std::vector<std::string> control_dependencies;
  // Tensors of gdef (names without prefix) to return, after input_map is applied.
  std::vector<TensorIndex> return_tensors;
  // Nodes of gdef (names without prefix) to return.
  std::vector<std::string> return_nodes;
  // Check that every "loc:@x" in a "_class" attr names a node of gdef.
  bool validate_colocation_constraints = true;
  // Device given to imported nodes that request none.
  std::string default_device;
  // Run shape inference on imported nodes and fail on a shape function error.
  bool validate_shape = true;
};

struct ImportGraphDefResults {
  // One per ImportGraphDefOptions::return_tensors, in order.
  std::vector<std::pair<Node*, int>> return_tensors;
  // One per ImportGraphDefOptions::return_nodes, in order.
  std::vector<Node*> return_nodes;
  // input_map keys that name no node of gdef and fed no input: likely typos. Sorted.
  std::vector<TensorIndex> missing_unused_input_map_keys;
};

// Adds the nodes of `gdef` to `*g`, which may already hold nodes. `refiner` may be null (a
// private one is used); pass the refiner that holds g's existing nodes when input_map refers
// to them, so that imported consumers see their shapes. `results` may be null unless
// return_tensors or return_nodes is non-empty; its vectors must be empty. The graph's
// versions become the intersection of its own and gdef's (lowest producer, highest
// min_consumer, union of bad_consumers), and gdef's library is added.
absl::Status ImportGraphDef(const ImportGraphDefOptions& opts, const GraphDef& gdef, Graph* g,
                            ShapeRefiner* refiner, ImportGraphDefResults* results = nullptr);

// Makes `*dest` a copy of `src`: the same nodes (with the same names, ids in the same
// relative order), edges, versions and library. REQUIRES: dest holds no op nodes and uses a
// registry that knows src's ops.
void CopyGraph(const Graph& src, Graph* dest);

}  // namespace sluice

#endif  // SLUICE_GRAPH_IMPORT_GRAPH_CONSTRUCTOR_H_
