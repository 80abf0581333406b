// Model loading and name resolution for the command line.
#include "tools/cli/model.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_def_io.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/tensor_id.h"
#include "saved_model/constants.h"
#include "saved_model/loader.h"
#include "saved_model/reader.h"

namespace sluice {
namespace cli {
namespace {

const NodeDef* FindNode(const GraphDef& graph_def, absl::string_view name) {
  for (const NodeDef& node : graph_def.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

// Ops run for their effect on state, which a user does not fetch.
bool IsEffectOnly(const std::string& op) {
  return absl::StartsWith(op, "Assign") || absl::StartsWith(op, "Save") ||
         absl::StartsWith(op, "Restore") || op == "NoOp" || absl::StartsWith(op, "Scatter");
}

// The nodes inside v1 loop frames: reached from an Enter through consumers before the
// frame's Exit. They produce a value per iteration, which TensorFlow does not let a step
// fetch (a lowered loop leaves several such nodes that nothing reads).
absl::flat_hash_set<std::string> NodesInsideLoops(const GraphDef& graph_def) {
  // Most graphs have no loop: then no consumer map (a big graph's costs a second).
  if (std::none_of(graph_def.node().begin(), graph_def.node().end(), [](const NodeDef& node) {
        return node.op() == "Enter" || node.op() == "RefEnter";
      })) {
    return {};
  }
  absl::flat_hash_map<absl::string_view, std::vector<int>> consumers;
  std::vector<std::pair<int, int>> stack;  // node index, frame depth below the start
  for (int i = 0; i < graph_def.node_size(); ++i) {
    const NodeDef& node = graph_def.node(i);
    for (const std::string& input : node.input()) {
      consumers[ParseTensorName(input).node].push_back(i);
    }
    if (node.op() == "Enter" || node.op() == "RefEnter") stack.push_back({i, 0});
  }
  absl::flat_hash_set<std::pair<int, int>> seen(stack.begin(), stack.end());
  absl::flat_hash_set<std::string> inside;
  while (!stack.empty()) {
    auto [index, depth] = stack.back();
    stack.pop_back();
    const NodeDef& node = graph_def.node(index);
    inside.insert(node.name());
    if (node.op() == "Exit" || node.op() == "RefExit") {
      if (depth == 0) continue;  // its consumers are outside the frame
      --depth;
    }
    auto it = consumers.find(node.name());
    if (it == consumers.end()) continue;
    for (int consumer : it->second) {
      const std::string& op = graph_def.node(consumer).op();
      const int next = op == "Enter" || op == "RefEnter" ? depth + 1 : depth;
      if (seen.insert({consumer, next}).second) stack.push_back({consumer, next});
    }
  }
  return inside;
}

std::string ShapeText(const PartialTensorShape& shape) {
  if (shape.unknown_rank()) return "<unknown shape>";
  std::vector<std::string> dims;
  for (int64_t dim : shape.dim_sizes()) dims.push_back(dim < 0 ? "?" : absl::StrCat(dim));
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// How many node names an unregistered op's error names before "and N more".
constexpr size_t kNodesNamed = 5;

// NOT_FOUND naming every op type the registry lacks, with its first nodes; OK when there is
// none. Calls of the graph's own functions are not unregistered ops (the session inlines
// them).
absl::Status CheckOpsRegistered(const GraphDef& graph_def) {
  std::vector<std::string> ops;
  for (const UnregisteredOp& op : FindUnregisteredOps(graph_def, *OpRegistry::Global())) {
    ops.push_back(absl::StrCat("'", op.op, "' (", op.nodes.size() == 1 ? "node " : "nodes ",
                               FirstNames(op.nodes, kNodesNamed), ")"));
  }
  if (ops.empty()) return absl::OkStatus();
  const char* const kAdvice =
      "; Sluice cannot run this graph ('sluice inspect' describes the rest of it, 'sluice ops' "
      "lists the registered ops)";
  if (ops.size() == 1) {
    return errors::NotFound("Op type not registered ", ops[0], " in binary running on this host",
                            kAdvice);
  }
  return errors::NotFound(ops.size(), " op types not registered in binary running on this host: ",
                          absl::StrJoin(ops, ", "), kAdvice);
}

// Every Const's value has the dtype its dtype attr declares. The Const kernel checks this
// when a session builds it (so `run` fails there, with this message), but nothing does before:
// the import accepts such a node and `optimize` would write it out unchanged.
absl::Status CheckConstTypes(const GraphDef& graph_def) {
  for (const NodeDef& node : graph_def.node()) {
    if (node.op() != "Const") continue;
    auto dtype = node.attr().find("dtype");
    auto value = node.attr().find("value");
    if (dtype == node.attr().end() || value == node.attr().end() || !value->second.has_tensor()) {
      continue;  // the registry check names a missing attr
    }
    const DataType declared = dtype->second.type();
    const DataType held = value->second.tensor().dtype();
    if (declared != held) {
      return errors::InvalidArgument(
          "node '", node.name(), "' (Const): Type mismatch between value (", DataTypeString(held),
          ") and dtype (", DataTypeString(declared), ")");
    }
  }
  return absl::OkStatus();
}

// Default attrs, then every node against the registry, then what the kernels would reject
// of the nodes' attrs.
absl::Status CheckNodes(GraphDef* graph_def) {
  RETURN_IF_ERROR(AddDefaultAttrsToGraphDef(graph_def, *OpRegistry::Global()));
  RETURN_IF_ERROR(ValidateGraphDefAgainstOpRegistry(*graph_def, *OpRegistry::Global()));
  return CheckConstTypes(*graph_def);
}

// A file that parses to no nodes at all (an empty file, or one that is not a GraphDef but
// happens to parse as an empty one, such as a /proc file that reads as 0 bytes) is no model.
absl::Status CheckHasNodes(const GraphDef& graph_def) {
  if (graph_def.node_size() > 0) return absl::OkStatus();
  return errors::InvalidArgument(
      "holds no nodes: the file is empty or is not a GraphDef (a binary .pb or text .pbtxt)");
}

// CheckNodes for the nodes whose op is not in `unresolved_ops`: they are moved (not copied)
// into a GraphDef of their own for the checks and back into place after.
absl::Status CheckResolvedNodes(const absl::flat_hash_set<std::string>& unresolved_ops,
                                GraphDef* graph_def) {
  GraphDef resolved;
  *resolved.mutable_versions() = graph_def->versions();
  resolved.mutable_library()->Swap(graph_def->mutable_library());
  std::vector<bool> moved(graph_def->node_size(), false);
  for (int i = 0; i < graph_def->node_size(); ++i) {
    if (unresolved_ops.contains(graph_def->node(i).op())) continue;
    resolved.add_node()->Swap(graph_def->mutable_node(i));
    moved[i] = true;
  }
  absl::Status status = CheckNodes(&resolved);
  int next = 0;
  for (int i = 0; i < graph_def->node_size(); ++i) {
    if (moved[i]) graph_def->mutable_node(i)->Swap(resolved.mutable_node(next++));
  }
  graph_def->mutable_library()->Swap(resolved.mutable_library());
  return status;
}

absl::Status ParseUserTensorName(const std::string& name, TensorId* id) {
  RETURN_IF_ERROR(ParseTensorNameStrict(name, id));
  if (id->index == kControlSlot) {
    return errors::InvalidArgument("'", name, "' names a control dependency, not a tensor");
  }
  return absl::OkStatus();
}

}  // namespace

std::string UserPath(const std::string& path) {
  const char* user_dir = std::getenv("BUILD_WORKING_DIRECTORY");
  if (user_dir == nullptr || path.empty() || path[0] == '/') return path;
  return absl::StrCat(user_dir, "/", path);
}

// Reads the selected MetaGraphDef of the SavedModel at model->path into the model.
absl::Status ReadSavedModelGraph(const SavedModelSelection& selection, Model* model) {
  SavedModelSource source;
  source.export_dir = model->path;
  const std::unordered_set<std::string> tags(selection.tags.begin(), selection.tags.end());
  RETURN_IF_ERROR(errors::PrependToMessage(
      ReadMetaGraphDefFromSavedModel(model->path, tags, &source.meta_graph), model->path, ": "));
  model->graph_def = std::move(*source.meta_graph.mutable_graph_def());
  source.meta_graph.clear_graph_def();
  const auto& signatures = source.meta_graph.signature_def();
  if (!selection.signature_key.empty()) {
    if (signatures.count(selection.signature_key) == 0) {
      std::vector<std::string> keys;
      for (const auto& [key, unused] : signatures) {
        // The loader's own (__saved_model_init_op) are not signatures a user runs.
        if (!absl::StartsWith(key, "__saved_model")) keys.push_back(key);
      }
      std::sort(keys.begin(), keys.end());
      return errors::NotFound(
          model->path, ": the SavedModel has no signature '", selection.signature_key,
          "' (it has: ", keys.empty() ? "none" : absl::StrJoin(keys, ", "), ")");
    }
    source.signature_key = selection.signature_key;
  } else if (signatures.count(kDefaultServingSignatureDefKey) > 0) {
    source.signature_key = kDefaultServingSignatureDefKey;
  }
  model->saved_model = std::move(source);
  return absl::OkStatus();
}

absl::Status LoadModel(const std::string& path, Model* model,
                       const SavedModelSelection& selection) {
  model->path = UserPath(path);
  model->saved_model.reset();
  GraphDef& graph_def = model->graph_def;
  if (MaybeSavedModelDirectory(model->path)) {
    RETURN_IF_ERROR(ReadSavedModelGraph(selection, model));
  } else {
    RETURN_IF_ERROR(ReadGraphDefFile(model->path, &graph_def));
  }
  absl::Status status = CheckHasNodes(graph_def);
  if (status.ok()) status = CheckGraphDefVersions(graph_def.versions());
  if (status.ok()) status = CheckOpsRegistered(graph_def);
  if (status.ok()) status = CheckNodes(&graph_def);
  return errors::PrependToMessage(status, model->path, ": ");
}

absl::Status LoadModelForInspection(const std::string& path, Model* model,
                                    std::vector<UnregisteredOp>* unregistered) {
  model->path = UserPath(path);
  model->saved_model.reset();
  GraphDef& graph_def = model->graph_def;
  unregistered->clear();
  if (MaybeSavedModelDirectory(model->path)) {
    RETURN_IF_ERROR(ReadSavedModelGraph(SavedModelSelection(), model));
  } else {
    RETURN_IF_ERROR(ReadGraphDefFile(model->path, &graph_def));
  }
  absl::Status status = CheckHasNodes(graph_def);
  if (status.ok()) status = CheckGraphDefVersions(graph_def.versions());
  if (status.ok()) {
    *unregistered = FindUnregisteredOps(graph_def, *OpRegistry::Global());
    absl::flat_hash_set<std::string> unresolved_ops;
    for (const UnregisteredOp& op : *unregistered) unresolved_ops.insert(op.op);
    status = unresolved_ops.empty() ? CheckNodes(&graph_def)
                                    : CheckResolvedNodes(unresolved_ops, &graph_def);
  }
  return errors::PrependToMessage(status, model->path, ": ");
}

absl::Status CheckGraphStructure(const GraphDef& graph_def) {
  Graph graph(OpRegistry::Global());
  GraphConstructorOptions options;
  options.allow_internal_ops = true;
  return ConvertGraphDefToGraph(options, graph_def, &graph);
}

std::vector<ModelInput> ModelInputs(const GraphDef& graph_def) {
  std::vector<ModelInput> inputs;
  for (const NodeDef& node : graph_def.node()) {
    if (node.op() != "Placeholder" && node.op() != "PlaceholderWithDefault") continue;
    ModelInput input;
    input.name = node.name();
    input.has_default = node.op() == "PlaceholderWithDefault";
    GetNodeAttr(AttrSlice(node), "dtype", &input.dtype).IgnoreError();
    auto shape = node.attr().find("shape");
    if (shape != node.attr().end() && shape->second.has_shape()) {
      PartialTensorShape::BuildFromProto(shape->second.shape(), &input.shape).IgnoreError();
    } else {
      input.shape = PartialTensorShape();
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::vector<std::string> LikelyOutputs(const GraphDef& graph_def,
                                       std::vector<std::string>* unresolved) {
  // Views into graph_def's input strings.
  absl::flat_hash_set<absl::string_view> read;
  for (const NodeDef& node : graph_def.node()) {
    for (const std::string& input : node.input()) {
      if (!IsControlInput(input)) read.insert(ParseTensorName(input).node);
    }
  }
  const absl::flat_hash_set<std::string> in_loops = NodesInsideLoops(graph_def);
  std::vector<std::string> outputs;
  for (const NodeDef& node : graph_def.node()) {
    if (read.contains(node.name()) || IsEffectOnly(node.op()) || node.op() == "Placeholder" ||
        node.op() == "PlaceholderWithDefault" || in_loops.contains(node.name())) {
      continue;
    }
    DataTypeVector types;
    if (!NodeOutputTypes(graph_def, node, &types).ok()) {
      if (unresolved != nullptr) unresolved->push_back(node.name());
      continue;
    }
    for (size_t i = 0; i < types.size(); ++i) {
      outputs.push_back(types.size() == 1 ? node.name() : absl::StrCat(node.name(), ":", i));
    }
  }
  return outputs;
}

absl::Status NodeOutputTypes(const GraphDef& graph_def, const NodeDef& node,
                             DataTypeVector* types) {
  const OpDef* op_def = nullptr;
  absl::Status status = OpRegistry::Global()->LookUpOpDef(node.op(), &op_def);
  if (!status.ok()) {
    for (const FunctionDef& function : graph_def.library().function()) {
      if (function.signature().name() == node.op()) op_def = &function.signature();
    }
    if (op_def == nullptr) return status;
  }
  return OutputTypesForNode(node, *op_def, types);
}

std::string DescribeInput(const ModelInput& input) {
  return absl::StrCat(DataTypeString(input.dtype), " ", ShapeText(input.shape),
                      input.has_default ? " (has a default)" : "");
}

absl::Status ResolveOutput(const GraphDef& graph_def, const std::string& name, std::string* tensor,
                           DataType* dtype) {
  TensorId id;
  RETURN_IF_ERROR(ParseUserTensorName(name, &id));
  const NodeDef* node = FindNode(graph_def, id.node);
  if (node == nullptr) {
    return errors::NotFound("unknown output '", name, "'; the model's likely outputs are: ",
                            absl::StrJoin(LikelyOutputs(graph_def), ", "),
                            " (any node name, or node:index, may be fetched)");
  }
  DataTypeVector types;
  RETURN_IF_ERROR(NodeOutputTypes(graph_def, *node, &types));
  if (id.index >= static_cast<int>(types.size())) {
    return errors::OutOfRange("output '", name, "': node '", node->name(), "' (", node->op(),
                              ") has ", types.size(), " output(s)");
  }
  *tensor = TensorIdString(id);
  *dtype = types[id.index];
  return absl::OkStatus();
}

absl::Status ResolveInput(const GraphDef& graph_def, const std::string& name, std::string* tensor,
                          ModelInput* input) {
  TensorId id;
  RETURN_IF_ERROR(ParseUserTensorName(name, &id));
  const NodeDef* node = FindNode(graph_def, id.node);
  if (node == nullptr) {
    std::vector<std::string> valid;
    for (const ModelInput& candidate : ModelInputs(graph_def)) {
      valid.push_back(absl::StrCat(candidate.name, " (", DescribeInput(candidate), ")"));
    }
    return errors::NotFound("unknown input '", name, "'; the model's inputs are: ",
                            valid.empty() ? "none (no Placeholders)" : absl::StrJoin(valid, ", "));
  }
  DataType dtype = DT_INVALID;
  RETURN_IF_ERROR(ResolveOutput(graph_def, name, tensor, &dtype));
  for (ModelInput& candidate : ModelInputs(graph_def)) {
    if (candidate.name == node->name()) {
      *input = std::move(candidate);
      return absl::OkStatus();
    }
  }
  input->name = *tensor;
  input->dtype = dtype;
  input->shape = PartialTensorShape();
  input->has_default = false;
  return absl::OkStatus();
}

std::vector<std::string> DefaultOutputs(const Model& model) {
  if (model.saved_model.has_value() && !model.saved_model->signature_key.empty()) {
    const SignatureDef& signature =
        model.saved_model->meta_graph.signature_def().at(model.saved_model->signature_key);
    std::vector<std::string> keys;
    for (const auto& [key, unused] : signature.outputs()) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    std::vector<std::string> outputs;
    for (const std::string& key : keys) {
      // Sparse and composite outputs have no single tensor name: leave them out.
      if (!signature.outputs().at(key).name().empty()) {
        outputs.push_back(signature.outputs().at(key).name());
      }
    }
    if (!outputs.empty()) return outputs;
  }
  return LikelyOutputs(model.graph_def);
}

}  // namespace cli
}  // namespace sluice
