// The GraphDef importer's internals, shared by its files: graph_constructor.cc (the
// conversion), graph_constructor_import.cc (the ImportGraphDef-only steps: input rewriting,
// naming, results), graph_constructor_validation.cc (checks on single NodeDefs) and
// graph_constructor_shapes.cc (the bridge to shape inference). Not a public API.
#ifndef SLUICE_GRAPH_IMPORT_GRAPH_CONSTRUCTOR_INTERNAL_H_
#define SLUICE_GRAPH_IMPORT_GRAPH_CONSTRUCTOR_INTERNAL_H_

#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/op/op_registry.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"

namespace sluice {

class ShapeRefiner;

namespace import_internal {

inline constexpr char kColocationAttrName[] = "_class";
inline constexpr char kColocationGroupPrefix[] = "loc:@";

// Registered op names close to `op` by edit distance (case-insensitive), best first, at most
// three; empty if `registry` cannot list its ops.
std::vector<std::string> SimilarOpNames(const OpRegistryInterface& registry, absl::string_view op);

// Looks up node_def's op, adding to a NOT_FOUND error the close registered names
// ("Did you mean 'Identity'?") and the node.
absl::Status LookUpOpForNode(const OpRegistryInterface& registry, const NodeDef& node_def,
                             const OpDef** op_def);

// UNIMPLEMENTED if the op was removed at or before GraphDef version `producer`.
absl::Status CheckOpDeprecation(const OpDef& op_def, int producer);

// Prepares a NodeDef for AddNode: adds default attrs (if asked), then, if `validate`, drops
// attrs the OpDef does not declare (TensorFlow ignores them, for graphs from newer
// producers; names starting with '_' are kept) and runs ValidateNodeDef. When it both added
// defaults and validated, sets *typed and leaves the node's flat types in *inputs and
// *outputs (what Graph::AddNode would compute again); otherwise *typed is false.
absl::Status PrepareNodeDef(const OpDef& op_def, bool add_defaults, bool validate,
                            NodeDef* node_def, bool* typed, DataTypeVector* inputs,
                            DataTypeVector* outputs);

// Runs the shape functions of imported nodes through a ShapeRefiner: the caller's, or a
// private one. Nodes must be checked in topological order (back edges aside).
class ImportShapes {
 public:
  ImportShapes(ShapeRefiner* refiner, const Graph& g);
  ~ImportShapes();
  ImportShapes(const ImportShapes&) = delete;
  ImportShapes& operator=(const ImportShapes&) = delete;

  // Infers node's output shapes; INVALID_ARGUMENT with the shape function's message and the
  // input shapes if it fails. A function call (PartitionedCall, StatefulPartitionedCall, or
  // a node whose op is a library function's name) also gets the shapes its body gives its
  // results for the call's input shapes, as TensorFlow's refiner infers them (best effort:
  // a body that cannot be imported leaves the call's own shapes; `_disable_call_shape_inference`
  // turns it off). A "_output_shapes" attr then overrides the inferred shapes (it must cover
  // every output and agree with them) and is removed from the node.
  absl::Status Check(Node* node);
  // Makes the refiner forget `node`, which the importer is about to delete.
  void Forget(const Node* node);

 private:
  // Merges into the call's outputs the shapes its body infers.
  void InferCallShapes(const Node& node);

  const Graph& graph_;
  std::unique_ptr<ShapeRefiner> own_;
  ShapeRefiner* refiner_;
};

bool IsMergeOp(const NodeDef& n);
bool IsNextIterationOp(const NodeDef& n);
// "a:0", "a:1" or "^a", as TensorFlow prints tensor ids in messages.
std::string TensorIndexString(const TensorIndex& t);
// Adds every proper '/'-prefix of `name` ("a/b/c" -> "a", "a/b").
void AddPrefixes(absl::string_view name, absl::flat_hash_set<std::string>* prefixes);

// GraphConstructorOptions and ImportGraphDefOptions, as one. `importing` selects the
// ImportGraphDef-only behaviour (always add defaults and validate, check colocation, rewrite
// names and inputs, merge versions).
struct Options {
  explicit Options(const GraphConstructorOptions& in)
      : importing(false),
        allow_internal_ops(in.allow_internal_ops),
        expect_device_spec(in.expect_device_spec),
        add_default_attributes(in.add_default_attributes),
        validate_nodes(in.validate_nodes),
        validate_shape(in.validate_shape),
        validate_colocation_constraints(false) {}
  explicit Options(const ImportGraphDefOptions& in)
      : importing(true),
        validate_shape(in.validate_shape),
        validate_colocation_constraints(in.validate_colocation_constraints),
        prefix(in.prefix.empty() || absl::EndsWith(in.prefix, "/") ? in.prefix : in.prefix + "/"),
        uniquify_names(in.uniquify_names),
        uniquify_prefix(in.uniquify_prefix),
        skip_mapped_nodes(in.skip_mapped_nodes),
        input_map(in.input_map),
        control_dependencies(in.control_dependencies),
        return_tensors(in.return_tensors),
        return_nodes(in.return_nodes),
        default_device(in.default_device) {}

  bool importing;
  bool allow_internal_ops = false;
  bool expect_device_spec = false;
  bool add_default_attributes = true;
  bool validate_nodes = true;
  bool validate_shape;
  bool validate_colocation_constraints;
  std::string prefix;  // empty or ending in '/'
  bool uniquify_names = false;
  bool uniquify_prefix = false;
  bool skip_mapped_nodes = false;
  std::map<TensorIndex, TensorIndex> input_map;
  std::vector<std::string> control_dependencies;
  std::vector<TensorIndex> return_tensors;
  std::vector<std::string> return_nodes;
  std::string default_device;
};

// Imports one GraphDef into a Graph; used once.
class GraphConstructor {
 public:
  // `movable`, if set, is `gdef` itself, whose NodeDefs may be moved out.
  GraphConstructor(const Options& opts, const GraphDef& gdef, GraphDef* movable, Graph* g,
                   ShapeRefiner* refiner, ImportGraphDefResults* results)
      : opts_(opts),
        gdef_(gdef),
        movable_(movable),
        g_(g),
        original_versions_(g->versions()),
        prefix_(opts.prefix),
        shapes_(refiner, *g),
        results_(results) {}

  absl::Status Run() {
    absl::Status s = TryImport();
    if (!s.ok()) Undo();
    ReleaseBorrowedNodeDefs();
    return s;
  }

 private:
  struct NodeInfo {
    int gdef_index;
    Node* node = nullptr;  // set once built
  };
  struct InputInfo {
    std::string name;
    Node* node;  // nullptr for a back edge
    int index;
  };
  struct BackEdge {
    std::string src_name;
    int src_index;
    Node* dst;
    int dst_index;
  };

  absl::Status TryImport();
  // Merges gdef_'s library into the graph's, remembering the graph's for Undo.
  absl::Status AddLibrary();
  absl::Status IndexExistingNodes();
  absl::Status ValidateInputMapAndControlDependencies();
  absl::Status BuildNodeIndex();
  absl::Status InitFromEdges();
  absl::Status Convert();
  absl::Status ConvertNode(int index);
  void RewriteInputsForImport(NodeDef* node_def, std::vector<bool>* existing);
  void RemapInputs(NodeDef* node_def, std::vector<bool>* existing);
  void AddControlDependencies(NodeDef* node_def, std::vector<bool>* existing);
  void AddPrefix(const std::vector<bool>& existing, NodeDef* node_def);
  void UniquifyNames(const std::vector<bool>& existing, NodeDef* node_def);
  absl::Status ValidateColocation(const NodeDef& node_def) const;
  absl::Status ResolveInputs(const NodeDef& node_def, const std::vector<bool>& existing,
                             std::vector<InputInfo>* inputs) const;
  // `node_def` is on the graph's arena or owned by it.
  absl::Status MakeNode(NodeDef* node_def, Node** node);
  absl::Status AddInputEdges(Node* node, std::vector<InputInfo>* inputs);
  absl::Status MakeEdge(Node* src, int output, Node* dst, int input);
  absl::Status CycleError() const;
  absl::Status AddBackEdges();
  void UpdateVersions();
  absl::Status PopulateReturnTensors();
  absl::Status PopulateReturnNodes();
  absl::Status PopulateMissingUnusedInputMapKeys();
  void UpdateUniquifiedColocationNames();
  void ReleaseConsumers(int index, bool is_next_iteration);
  bool NameExistsInGraph(absl::string_view name) const;
  bool NameExistsInGraphDef(absl::string_view name) const;
  std::string FindUniqueName(absl::string_view name) const;
  // The NodeDef for gdef_.node(index), living as long as the graph: movable_'s own when it is
  // on the graph's arena (it is then shared with movable_ until ReleaseBorrowedNodeDefs),
  // else moved or copied out of gdef_.
  NodeDef* ConsumeNodeDef(int index);
  // Takes the NodeDefs ConsumeNodeDef shared out of movable_, so that nothing but the graph
  // refers to them (movable_ is left without nodes).
  void ReleaseBorrowedNodeDefs();
  void Undo();

  const Options& opts_;
  const GraphDef& gdef_;
  GraphDef* movable_;
  Graph* g_;
  // Whether ConsumeNodeDef handed out NodeDefs that movable_ still lists.
  bool borrowed_node_defs_ = false;
  const VersionDef original_versions_;
  // The graph's library before AddLibrary merged gdef_'s into it.
  FunctionDefLibrary original_library_;
  bool library_added_ = false;
  std::string prefix_;  // opts_.prefix, possibly uniquified
  import_internal::ImportShapes shapes_;
  ImportGraphDefResults* results_;

  absl::flat_hash_set<std::string> existing_prefixes_;
  absl::flat_hash_map<std::string, NodeInfo> gdef_nodes_;
  absl::flat_hash_set<std::string> gdef_prefixes_;
  absl::flat_hash_set<int> merge_indices_;
  std::vector<int> pending_;
  std::vector<absl::InlinedVector<int, 4>> consumers_;
  // Ready GraphDef indices, lowest first. A node becomes ready once (its pending count only
  // falls), so a heap needs no duplicate check and, unlike a set, no allocation per node.
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready_;
  std::vector<Node*> created_;
  std::vector<BackEdge> back_edges_;
  std::set<TensorIndex> used_input_map_keys_;
  absl::flat_hash_map<std::string, std::string> uniquified_names_;
};

}  // namespace import_internal
}  // namespace sluice

#endif  // SLUICE_GRAPH_IMPORT_GRAPH_CONSTRUCTOR_INTERNAL_H_
