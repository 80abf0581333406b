// GraphDef -> Graph.
//
// Algorithm (Kahn's, in GraphDef order among ready nodes):
//  1. Index the target graph's names and '/'-prefixes; check prefix, input_map and
//     control_dependencies against it. Index the GraphDef's names, checking each name's
//     grammar and uniqueness and that control inputs come last.
//  2. Give each node a pending count: its number of inputs not satisfied by input_map, except
//     that a Merge fed by a NextIteration waits for its control inputs and one data input.
//     An input naming no GraphDef node is an error here.
//  3. Pop the lowest-indexed ready node; rewrite its inputs (input_map, control_dependencies,
//     prefix, uniquified names); check and add it; connect it to inputs already built
//     (inputs not yet built are loop back edges, allowed only into a Merge, connected at the
//     end); infer its shapes; release its consumers. Nodes never released lie on a cycle.
//  4. Add the back edges, merge versions, fill in the results and connect _SOURCE and _SINK.
//     The library is merged before step 3, since a node may call one of its functions by
//     name. Any error undoes every node added and the library's merge.
#include "graph/import/graph_constructor.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "graph/algorithm.h"
#include "graph/core/errors.h"
#include "graph/import/graph_constructor_internal.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/tensor_id.h"

namespace sluice {
namespace import_internal {

absl::Status GraphConstructor::TryImport() {
  RETURN_IF_ERROR(CheckGraphDefVersions(gdef_.versions()));
  if (opts_.importing) {
    RETURN_IF_ERROR(IndexExistingNodes());
    RETURN_IF_ERROR(ValidateInputMapAndControlDependencies());
  }
  RETURN_IF_ERROR(BuildNodeIndex());
  RETURN_IF_ERROR(InitFromEdges());
  // The library first: a node may call one of its functions by name (op_registry() resolves
  // them). Undo puts the graph's own library back.
  RETURN_IF_ERROR(AddLibrary());
  RETURN_IF_ERROR(Convert());
  RETURN_IF_ERROR(AddBackEdges());
  if (results_ != nullptr) {
    RETURN_IF_ERROR(PopulateReturnTensors());
    RETURN_IF_ERROR(PopulateReturnNodes());
    RETURN_IF_ERROR(PopulateMissingUnusedInputMapKeys());
  }
  // Nothing below can fail.
  UpdateVersions();
  UpdateUniquifiedColocationNames();
  FixupSourceAndSinkEdges(g_);
  return absl::OkStatus();
}

absl::Status GraphConstructor::AddLibrary() {
  if (gdef_.library().function_size() == 0 && gdef_.library().gradient_size() == 0) {
    return absl::OkStatus();
  }
  original_library_ = g_->library();
  RETURN_IF_ERROR(g_->AddFunctionLibrary(gdef_.library()));
  library_added_ = true;
  return absl::OkStatus();
}

absl::Status GraphConstructor::IndexExistingNodes() {
  for (const Node* n : g_->nodes()) AddPrefixes(n->name(), &existing_prefixes_);
  if (prefix_.empty()) {
    if (opts_.uniquify_names) return absl::OkStatus();
    for (const NodeDef& node_def : gdef_.node()) {
      if (NameExistsInGraph(node_def.name())) {
        return errors::InvalidArgument("Node name '", node_def.name(),
                                       "' already exists in the Graph");
      }
    }
    return absl::OkStatus();
  }
  absl::string_view bare = absl::string_view(prefix_).substr(0, prefix_.size() - 1);
  if (!IsValidNodeName(bare, false)) {
    return errors::InvalidArgument("Imported node name prefix '", prefix_,
                                   "' would lead to invalid node names");
  }
  if (opts_.uniquify_prefix && NameExistsInGraph(bare)) {
    prefix_ = absl::StrCat(FindUniqueName(bare), "/");
  }
  return absl::OkStatus();
}

absl::Status GraphConstructor::ValidateInputMapAndControlDependencies() {
  for (const auto& [src, dst] : opts_.input_map) {
    if (g_->FindNodeByName(dst.first) == nullptr) {
      return errors::InvalidArgument("node '", dst.first, "' in input_map does not exist in graph ",
                                     "(input_map entry: ", TensorIndexString(src), "->",
                                     TensorIndexString(dst), ")");
    }
    if ((src.second == kControlSlot) != (dst.second == kControlSlot)) {
      return errors::InvalidArgument("input_map entry ", TensorIndexString(src), "->",
                                     TensorIndexString(dst), " between ",
                                     "control edge and non-control edge");
    }
  }
  for (const std::string& name : opts_.control_dependencies) {
    if (g_->FindNodeByName(name) == nullptr) {
      return errors::InvalidArgument("node '", name,
                                     "' in control_dependencies does not exist in graph");
    }
  }
  return absl::OkStatus();
}

absl::Status GraphConstructor::BuildNodeIndex() {
  for (int i = 0; i < gdef_.node_size(); ++i) {
    const NodeDef& node_def = gdef_.node(i);
    const std::string& name = node_def.name();
    if (!IsValidNodeName(name, opts_.allow_internal_ops)) {
      return errors::InvalidArgument("Node '", name, "': Node name contains invalid characters");
    }
    if (!gdef_nodes_.emplace(name, NodeInfo{i}).second) {
      return errors::InvalidArgument("Node '", name, "' is not unique");
    }
    if (node_def.op().empty()) {
      return errors::InvalidArgument("Node '", name, "' does not specify an operation");
    }
    if (opts_.expect_device_spec && node_def.device().empty()) {
      return errors::InvalidArgument("Node '", name, "' is missing a device specification");
    }
    if (IsMergeOp(node_def)) merge_indices_.insert(i);
    bool in_control = false;
    for (const std::string& input : node_def.input()) {
      if (IsControlInput(input)) {
        in_control = true;
      } else if (in_control) {
        return errors::InvalidArgument(
            "Node '", name, "': Control dependencies must come after regular dependencies");
      }
    }
    // Only uniquifying names (ImportGraphDef) asks for the GraphDef's prefixes.
    if (opts_.importing) AddPrefixes(name, &gdef_prefixes_);
  }
  return absl::OkStatus();
}

absl::Status GraphConstructor::InitFromEdges() {
  const int n = gdef_.node_size();
  absl::flat_hash_set<absl::string_view> next_iterations;
  for (const NodeDef& node_def : gdef_.node()) {
    if (IsNextIterationOp(node_def)) next_iterations.insert(node_def.name());
  }
  pending_.resize(n);
  consumers_.resize(n);
  for (int i = 0; i < n; ++i) {
    const NodeDef& node_def = gdef_.node(i);
    int pending = node_def.input_size();
    if (IsMergeOp(node_def)) {
      // A Merge closing a while loop is ready once any one data input (the loop's entry) is.
      int controls = 0;
      bool loop_back = false;
      for (const std::string& input : node_def.input()) {
        if (IsControlInput(input)) {
          ++controls;
        } else if (next_iterations.contains(ParseTensorName(input).node)) {
          loop_back = true;
        }
      }
      if (loop_back) pending = controls + 1;
    }
    for (const std::string& input : node_def.input()) {
      const TensorId id = ParseTensorName(input);
      if (!opts_.input_map.empty() &&
          opts_.input_map.count(TensorIndex(std::string(id.node), id.index)) > 0) {
        --pending;  // fed by a node already in the graph
        continue;
      }
      auto it = gdef_nodes_.find(id.node);
      if (it == gdef_nodes_.end()) {
        return errors::InvalidArgument("Node '", node_def.name(), "': Unknown input node '", input,
                                       "'");
      }
      consumers_[it->second.gdef_index].push_back(i);
    }
    pending = std::max(pending, 0);
    pending_[i] = pending;
    if (pending == 0) ready_.push(i);
  }
  return absl::OkStatus();
}

absl::Status GraphConstructor::Convert() {
  int processed = 0;
  while (!ready_.empty()) {
    const int index = ready_.top();
    ready_.pop();
    ++processed;
    RETURN_IF_ERROR(ConvertNode(index));
  }
  if (processed < gdef_.node_size()) return CycleError();
  return absl::OkStatus();
}

absl::Status GraphConstructor::CycleError() const {
  std::vector<std::string> stuck;
  for (int i = 0; i < gdef_.node_size(); ++i) {
    if (pending_[i] != 0) stuck.push_back(absl::StrCat("'", gdef_.node(i).name(), "'"));
  }
  const size_t shown = std::min<size_t>(stuck.size(), 10);
  return errors::InvalidArgument(stuck.size(), " nodes in a cycle (nodes waiting on the cycle: ",
                                 absl::StrJoin(stuck.begin(), stuck.begin() + shown, ", "),
                                 stuck.size() > shown ? ", ..." : "", ")");
}

absl::Status GraphConstructor::ConvertNode(int index) {
  const bool is_next_iteration = IsNextIterationOp(gdef_.node(index));
  if (opts_.skip_mapped_nodes) {
    const OpDef* op_def = nullptr;
    RETURN_IF_ERROR(
        import_internal::LookUpOpForNode(*g_->op_registry(), gdef_.node(index), &op_def));
    bool all_mapped = op_def->output_arg_size() > 0;
    for (int o = 0; o < op_def->output_arg_size() && all_mapped; ++o) {
      all_mapped = opts_.input_map.count(TensorIndex(gdef_.node(index).name(), o)) > 0;
    }
    if (all_mapped) {
      ReleaseConsumers(index, is_next_iteration);
      return absl::OkStatus();
    }
  }
  NodeDef* node_def = ConsumeNodeDef(index);
  const std::string gdef_name = node_def->name();
  // existing[i]: input i names a node already in the graph rather than one being imported.
  std::vector<bool> existing(node_def->input_size(), false);
  if (opts_.importing) RewriteInputsForImport(node_def, &existing);
  RETURN_IF_ERROR(ValidateColocation(*node_def));
  std::vector<InputInfo> inputs;
  RETURN_IF_ERROR(ResolveInputs(*node_def, existing, &inputs));
  if (opts_.importing) {
    if (!prefix_.empty()) AddPrefix(existing, node_def);
    if (opts_.uniquify_names && (prefix_.empty() || !opts_.uniquify_prefix)) {
      UniquifyNames(existing, node_def);
    }
  }
  Node* node = nullptr;
  RETURN_IF_ERROR(MakeNode(node_def, &node));
  gdef_nodes_[gdef_name].node = node;
  RETURN_IF_ERROR(AddInputEdges(node, &inputs));
  if (opts_.validate_shape) RETURN_IF_ERROR(shapes_.Check(node));
  ReleaseConsumers(index, is_next_iteration);
  return absl::OkStatus();
}

void GraphConstructor::ReleaseConsumers(int index, bool is_next_iteration) {
  for (int consumer : consumers_[index]) {
    // NextIteration -> Merge edges were not counted as pending.
    if (is_next_iteration && merge_indices_.contains(consumer)) continue;
    if (--pending_[consumer] == 0) ready_.push(consumer);
  }
}

NodeDef* GraphConstructor::ConsumeNodeDef(int index) {
  if (movable_ != nullptr && movable_->GetArena() == g_->arena()) {
    borrowed_node_defs_ = true;
    return movable_->mutable_node(index);
  }
  if (movable_ != nullptr) return g_->AdoptNodeDef(std::move(*movable_->mutable_node(index)));
  NodeDef* copy = google::protobuf::Arena::CreateMessage<NodeDef>(g_->arena());
  copy->CopyFrom(gdef_.node(index));
  return copy;
}

void GraphConstructor::ReleaseBorrowedNodeDefs() {
  if (!borrowed_node_defs_) return;
  // On an arena, extracting without taking the elements only forgets them: the arena still
  // owns them, and the graph's nodes keep them.
  movable_->mutable_node()->UnsafeArenaExtractSubrange(0, movable_->node_size(), nullptr);
  borrowed_node_defs_ = false;
}

absl::Status GraphConstructor::ResolveInputs(const NodeDef& node_def,
                                             const std::vector<bool>& existing,
                                             std::vector<InputInfo>* inputs) const {
  bool has_back_edge = false;
  for (int i = 0; i < node_def.input_size(); ++i) {
    const TensorId id = ParseTensorName(node_def.input(i));
    Node* src = existing[i] ? g_->FindNodeByName(id.node) : gdef_nodes_.at(id.node).node;
    if (src == nullptr) has_back_edge = true;
    if (src != nullptr && id.index >= src->num_outputs()) {
      return errors::InvalidArgument("Node '", node_def.name(), "': Connecting to invalid output ",
                                     id.index, " of source node ", id.node, " which has ",
                                     src->num_outputs(), " outputs.");
    }
    inputs->push_back({std::string(id.node), src, id.index});
  }
  if (has_back_edge && !IsMergeOp(node_def)) {
    return errors::InvalidArgument("Node '", node_def.name(),
                                   "' had a back edge, but only Merge nodes can have back edges.");
  }
  return absl::OkStatus();
}

absl::Status GraphConstructor::MakeNode(NodeDef* node_def, Node** node) {
  const OpDef* op_def = nullptr;
  RETURN_IF_ERROR(import_internal::LookUpOpForNode(*g_->op_registry(), *node_def, &op_def));
  const bool add_defaults = opts_.importing || opts_.add_default_attributes;
  const bool validate = opts_.importing || opts_.validate_nodes;
  bool typed = false;
  DataTypeVector input_types, output_types;
  RETURN_IF_ERROR(import_internal::PrepareNodeDef(*op_def, add_defaults, validate, node_def, &typed,
                                                  &input_types, &output_types));
  RETURN_IF_ERROR(import_internal::CheckOpDeprecation(*op_def, gdef_.versions().producer()));
  if (g_->FindNodeByName(node_def->name()) != nullptr) {
    return errors::InvalidArgument("Node name '", node_def->name(),
                                   "' already exists in the Graph");
  }
  if (typed) {
    *node = g_->AddValidatedNode(node_def, op_def, std::move(input_types), std::move(output_types));
  } else {
    // Rare (validation off, defaults not added): AddNode computes the types, from a copy.
    ASSIGN_OR_RETURN(*node, g_->AddNode(*node_def));
  }
  created_.push_back(*node);
  if (opts_.expect_device_spec) (*node)->set_assigned_device_name((*node)->requested_device());
  return absl::OkStatus();
}

absl::Status GraphConstructor::AddInputEdges(Node* node, std::vector<InputInfo>* inputs) {
  // Duplicate control inputs collapse into one edge.
  auto first_control = std::find_if(inputs->begin(), inputs->end(),
                                    [](const InputInfo& in) { return in.index == kControlSlot; });
  auto by_name = [](const InputInfo& a, const InputInfo& b) { return a.name < b.name; };
  std::stable_sort(first_control, inputs->end(), by_name);
  inputs->erase(
      std::unique(first_control, inputs->end(),
                  [](const InputInfo& a, const InputInfo& b) { return a.name == b.name; }),
      inputs->end());
  for (size_t i = 0; i < inputs->size(); ++i) {
    const InputInfo& in = (*inputs)[i];
    if (in.node == nullptr) {
      back_edges_.push_back({in.name, in.index, node, static_cast<int>(i)});
    } else if (in.index == kControlSlot) {
      g_->AddControlEdge(in.node, node, /*allow_duplicates=*/true);
    } else {
      RETURN_IF_ERROR(MakeEdge(in.node, in.index, node, static_cast<int>(i)));
    }
  }
  return absl::OkStatus();
}

absl::Status GraphConstructor::MakeEdge(Node* src, int output, Node* dst, int input) {
  if (output >= src->num_outputs()) {
    return errors::InvalidArgument("Output ", output, " of node ", src->name(),
                                   " does not exist. Node only has ", src->num_outputs(),
                                   " outputs.");
  }
  if (input >= dst->num_inputs()) {
    return errors::InvalidArgument("Input ", input, " of node ", dst->name(),
                                   " does not exist. Node only has ", dst->num_inputs(),
                                   " inputs.");
  }
  const DataType produced = src->output_type(output);
  const DataType expected = dst->input_type(input);
  // A ref output may feed a plain input of its base type.
  if (expected != produced && expected != BaseType(produced)) {
    return errors::InvalidArgument("Input ", input, " of node ", dst->name(), " was passed ",
                                   DataTypeString(produced), " from ", src->name(), ":", output,
                                   " incompatible with expected ", DataTypeString(expected), ".");
  }
  g_->AddEdge(src, output, dst, input);
  return absl::OkStatus();
}

absl::Status GraphConstructor::AddBackEdges() {
  for (const BackEdge& e : back_edges_) {
    Node* src = gdef_nodes_.at(e.src_name).node;
    if (e.src_index == kControlSlot) {
      g_->AddControlEdge(src, e.dst, /*allow_duplicates=*/true);
    } else {
      RETURN_IF_ERROR(MakeEdge(src, e.src_index, e.dst, e.dst_index));
    }
  }
  return absl::OkStatus();
}

void GraphConstructor::Undo() {
  for (Node* node : created_) {
    shapes_.Forget(node);
    g_->RemoveNode(node);
  }
  created_.clear();
  g_->set_versions(original_versions_);
  if (library_added_) g_->RestoreFunctionLibrary(std::move(original_library_));
  library_added_ = false;
}

}  // namespace import_internal

using import_internal::GraphConstructor;
using import_internal::Options;

absl::Status ConvertGraphDefToGraph(const GraphConstructorOptions& opts, const GraphDef& gdef,
                                    Graph* g) {
  Options options(opts);
  return GraphConstructor(options, gdef, nullptr, g, nullptr, nullptr).Run();
}

absl::Status ConvertGraphDefToGraph(const GraphConstructorOptions& opts, GraphDef&& gdef,
                                    Graph* g) {
  return ConvertGraphDefToGraph(opts, std::move(gdef), g, nullptr);
}

absl::Status ConvertGraphDefToGraph(const GraphConstructorOptions& opts, GraphDef&& gdef, Graph* g,
                                    ShapeRefiner* refiner) {
  Options options(opts);
  return GraphConstructor(options, gdef, &gdef, g, refiner, nullptr).Run();
}

absl::Status ImportGraphDef(const ImportGraphDefOptions& opts, const GraphDef& gdef, Graph* g,
                            ShapeRefiner* refiner, ImportGraphDefResults* results) {
  if (results == nullptr && !opts.return_tensors.empty()) {
    return errors::InvalidArgument(
        "results argument to ImportGraphDef() must be non-null if opts.return_tensors is "
        "non-empty");
  }
  if (!opts.return_nodes.empty()) {
    if (opts.skip_mapped_nodes) {
      return errors::InvalidArgument(
          "Requesting return_nodes with skip_mapped_nodes set is not currently supported");
    }
    if (results == nullptr) {
      return errors::InvalidArgument(
          "results argument to ImportGraphDef() must be non-null if opts.return_nodes is "
          "non-empty");
    }
  }
  if (results != nullptr && (!results->return_tensors.empty() || !results->return_nodes.empty() ||
                             !results->missing_unused_input_map_keys.empty())) {
    return errors::InvalidArgument(
        "All fields in results argument to ImportGraphDef() must be empty.");
  }
  Options options(opts);
  absl::Status s = GraphConstructor(options, gdef, nullptr, g, refiner, results).Run();
  if (!s.ok() && results != nullptr) {
    results->return_tensors.clear();
    results->return_nodes.clear();
    results->missing_unused_input_map_keys.clear();
  }
  return s;
}

void CopyGraph(const Graph& src, Graph* dest) {
  dest->set_versions(src.versions());
  // src's library was accepted by a graph before, so it cannot conflict with an empty one.
  dest->AddFunctionLibrary(src.library()).IgnoreError();
  std::vector<Node*> copies(src.num_node_ids(), nullptr);
  copies[src.source_node()->id()] = dest->source_node();
  copies[src.sink_node()->id()] = dest->sink_node();
  for (const Node* n : src.op_nodes()) copies[n->id()] = dest->CopyNode(n);
  for (const Edge* e : src.edges()) {
    Node* from = copies[e->src()->id()];
    Node* to = copies[e->dst()->id()];
    // _SOURCE -> _SINK exists in every graph already.
    if (e->src()->IsSource() && e->dst()->IsSink()) continue;
    dest->AddEdge(from, e->src_output(), to, e->dst_input());
  }
}

}  // namespace sluice
