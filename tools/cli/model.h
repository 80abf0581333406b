// Model: a frozen GraphDef loaded for the command line, and what the subcommands ask of it:
// its inputs (Placeholders), its likely outputs, and user-given tensor names resolved
// against it with errors that list the valid names.
//
// Loading reads a binary or text GraphDef (graph/import/graph_def_io.h, which recognises
// TensorFlow Lite and ONNX files and says so) or the MetaGraphDef tagged "serve" of a SavedModel
// directory (saved_model/reader.h), checks its versions, fills in
// default attrs and validates every node against the op registry. Relative paths are taken
// from the directory `bazel run` was started in (BUILD_WORKING_DIRECTORY) when set. A graph
// with ops this build does not register cannot run (TensorFlow's session refuses it as a
// whole too): LoadModel says which op types and which nodes; LoadModelForInspection loads
// the rest of it, to be described.
//
// Name resolution accepts TensorFlow's tensor form ("probs:0") and bare node names ("probs"
// means output 0). Unknown names are NOT_FOUND; an output index the node lacks is
// OUT_OF_RANGE; a malformed name is INVALID_ARGUMENT.
#ifndef SLUICE_TOOLS_CLI_MODEL_H_
#define SLUICE_TOOLS_CLI_MODEL_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "tools/cli/graph_needs.h"

namespace sluice {
namespace cli {

// The SavedModel a Model was read from: what a session made from the graph must restore and
// run before any step (saved_model/loader.h's RestoreSession), and the signature whose
// outputs are the model's default outputs.
struct SavedModelSource {
  std::string export_dir;
  MetaGraphDef meta_graph;    // without its graph_def, which Model::graph_def holds
  std::string signature_key;  // the one selected, or "serving_default" when it exists, or ""
};

// Which MetaGraphDef and signature of a SavedModel directory to use.
struct SavedModelSelection {
  std::vector<std::string> tags = {"serve"};
  // "" picks "serving_default" when the model has it (else no signature).
  std::string signature_key;
};

struct Model {
  std::string path;    // as resolved
  GraphDef graph_def;  // validated, default attrs filled in
  // Set when `path` is a SavedModel directory.
  std::optional<SavedModelSource> saved_model;
};

// `path` as the user meant it (see above).
std::string UserPath(const std::string& path);

// Loads and validates; errors name the file. A file
// with no nodes (empty, or not a GraphDef) is INVALID_ARGUMENT, as is a Const whose value's dtype
// is not its dtype attr (which the Const kernel would reject when the graph runs). Ops the registry
// lacks are NOT_FOUND, naming each such op type and its first nodes ("Op type not registered
// 'HashTableV2' in binary running on this host (nodes a, b, c and 2 more)..."). A node whose op
// names a function of the graph's own library calls it, and is checked against its signature.
// A SavedModel directory gives the graph of its MetaGraphDef tagged exactly `selection.tags`
// (NOT_FOUND, listing the tag sets, when it has none) and the signature
// `selection.signature_key` (NOT_FOUND, listing the signatures, when named and absent).
absl::Status LoadModel(const std::string& path, Model* model,
                       const SavedModelSelection& selection = SavedModelSelection());

// LoadModel for a graph that may not run here: the nodes of unregistered op types are kept
// as read, without default attrs or validation, and listed in `unregistered`
// (FindUnregisteredOps' order); every other node is loaded as LoadModel does. Errors as
// LoadModel's, but for unregistered ops. The graph's structure (its edges) is not checked:
// CheckGraphStructure does that.
absl::Status LoadModelForInspection(const std::string& path, Model* model,
                                    std::vector<UnregisteredOp>* unregistered);

// The graph as a session imports it (graph/import's ConvertGraphDefToGraph, internal ops
// allowed as in a session): INVALID_ARGUMENT for what `run` would reject before any step, such
// as a cycle, an input naming a node the graph lacks or an output it does not have, two nodes
// of one name, or an input whose dtype is not the one its consumer expects. For a graph
// LoadModel (or LoadModelForInspection, with no unregistered ops) accepted.
absl::Status CheckGraphStructure(const GraphDef& graph_def);

// A Placeholder (or PlaceholderWithDefault) of the graph.
struct ModelInput {
  std::string name;
  DataType dtype = DT_INVALID;
  PartialTensorShape shape;  // unknown rank when the node has no shape attr
  bool has_default = false;
};

std::vector<ModelInput> ModelInputs(const GraphDef& graph_def);

// The tensors a user most likely wants: every output of each node whose outputs no other
// node reads (control edges do not count), leaving out Placeholders and ops that produce
// nothing or exist for their effect (NoOp, Assign*, Save*) and nodes inside loop frames
// (whose values exist per iteration). "node" for a single-output node,
// "node:i" otherwise. Such nodes whose outputs cannot be resolved (their op is not
// registered) are left out, and their names go to `unresolved` when it is given.
std::vector<std::string> LikelyOutputs(const GraphDef& graph_def,
                                       std::vector<std::string>* unresolved = nullptr);

// The outputs a user most likely wants from `model`: its SavedModel signature's output
// tensors (in the order of their keys) when it has one, else LikelyOutputs.
std::vector<std::string> DefaultOutputs(const Model& model);

// The dtypes of the outputs of `node`, a node of `graph_def`: its op is resolved in the
// registry, else among the functions of graph_def's library (a call's outputs are its
// function's); "?" strings are the caller's business.
absl::Status NodeOutputTypes(const GraphDef& graph_def, const NodeDef& node, DataTypeVector* types);

// "float [?,8,8,1]"; "float <unknown shape>".
std::string DescribeInput(const ModelInput& input);

// A tensor the user names for an output: its canonical name ("node" or "node:i") and dtype.
absl::Status ResolveOutput(const GraphDef& graph_def, const std::string& name, std::string* tensor,
                           DataType* dtype);

// A tensor the user names for an input. Placeholders come with their declared shape; other
// nodes' outputs may be fed too (as TensorFlow allows), with an unknown shape.
absl::Status ResolveInput(const GraphDef& graph_def, const std::string& name, std::string* tensor,
                          ModelInput* input);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_MODEL_H_
