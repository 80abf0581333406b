// The steps only ImportGraphDef takes: rewriting a node's inputs (input_map,
// control_dependencies, default device), prefixing and uniquifying names, checking and
// renaming colocation groups, merging versions, and filling in ImportGraphDefResults.
#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"
#include "graph/import/graph_constructor_internal.h"
#include "graph/op/node_def_util.h"
#include "graph/tensor_id.h"

namespace sluice {
namespace import_internal {

void GraphConstructor::RewriteInputsForImport(NodeDef* node_def, std::vector<bool>* existing) {
  if (!opts_.input_map.empty()) RemapInputs(node_def, existing);
  if (!opts_.control_dependencies.empty()) AddControlDependencies(node_def, existing);
  if (!opts_.default_device.empty() && node_def->device().empty()) {
    node_def->set_device(opts_.default_device);
  }
}

void GraphConstructor::RemapInputs(NodeDef* node_def, std::vector<bool>* existing) {
  std::set<TensorIndex> control_targets;
  NodeDef kept;  // the inputs that survive, with their `existing` flags
  std::vector<bool> kept_existing;
  for (int i = 0; i < node_def->input_size(); ++i) {
    const TensorId id = ParseTensorName(node_def->input(i));
    auto it = opts_.input_map.find(TensorIndex(std::string(id.node), id.index));
    if (it == opts_.input_map.end()) {
      kept.add_input()->swap(*node_def->mutable_input(i));
      kept_existing.push_back((*existing)[i]);
      continue;
    }
    used_input_map_keys_.insert(it->first);
    // Two control inputs mapped onto the same node collapse into one.
    if (it->second.second == kControlSlot && !control_targets.insert(it->second).second) {
      continue;
    }
    kept.add_input(TensorIndexString(it->second));
    kept_existing.push_back(true);
  }
  node_def->mutable_input()->Swap(kept.mutable_input());
  *existing = std::move(kept_existing);
}

void GraphConstructor::AddControlDependencies(NodeDef* node_def, std::vector<bool>* existing) {
  // A node with an imported, already built input inherits the dependencies through it.
  for (int i = 0; i < node_def->input_size(); ++i) {
    if ((*existing)[i]) continue;
    auto it = gdef_nodes_.find(ParseTensorName(node_def->input(i)).node);
    if (it != gdef_nodes_.end() && it->second.node != nullptr) return;
  }
  for (const std::string& dep : opts_.control_dependencies) {
    const std::string input = absl::StrCat("^", dep);
    if (std::find(node_def->input().begin(), node_def->input().end(), input) !=
        node_def->input().end()) {
      continue;
    }
    node_def->add_input(input);
    existing->push_back(true);
  }
}

void GraphConstructor::AddPrefix(const std::vector<bool>& existing, NodeDef* node_def) {
  node_def->set_name(absl::StrCat(prefix_, node_def->name()));
  for (int i = 0; i < node_def->input_size(); ++i) {
    if (existing[i]) continue;
    const std::string& input = node_def->input(i);
    node_def->set_input(i, IsControlInput(input)
                               ? absl::StrCat("^", prefix_, absl::string_view(input).substr(1))
                               : absl::StrCat(prefix_, input));
  }
  auto it = node_def->mutable_attr()->find(kColocationAttrName);
  if (it == node_def->mutable_attr()->end()) return;
  auto* groups = it->second.mutable_list()->mutable_s();
  for (std::string& group : *groups) {
    if (absl::StartsWith(group, kColocationGroupPrefix)) {
      group = absl::StrCat(kColocationGroupPrefix, prefix_,
                           absl::string_view(group).substr(sizeof(kColocationGroupPrefix) - 1));
    }
  }
}

void GraphConstructor::UniquifyNames(const std::vector<bool>& existing, NodeDef* node_def) {
  if (NameExistsInGraph(node_def->name())) {
    std::string unique = FindUniqueName(node_def->name());
    uniquified_names_[node_def->name()] = unique;
    node_def->set_name(std::move(unique));
  }
  // Producers come first in the conversion order, so their new names are already known.
  for (int i = 0; i < node_def->input_size(); ++i) {
    if (existing[i]) continue;
    TensorId id = ParseTensorName(node_def->input(i));
    auto it = uniquified_names_.find(id.node);
    if (it == uniquified_names_.end()) continue;
    id.node = it->second;
    node_def->set_input(i, TensorIdString(id));
  }
}

bool GraphConstructor::NameExistsInGraph(absl::string_view name) const {
  return g_->FindNodeByName(name) != nullptr || existing_prefixes_.contains(name);
}

bool GraphConstructor::NameExistsInGraphDef(absl::string_view name) const {
  return gdef_nodes_.contains(name) || gdef_prefixes_.contains(name);
}

std::string GraphConstructor::FindUniqueName(absl::string_view name) const {
  std::string unique(name);
  // Generated names must not collide with names the GraphDef itself will bring.
  for (int count = 1; NameExistsInGraph(unique) || (count > 1 && NameExistsInGraphDef(unique));
       ++count) {
    unique = absl::StrCat(name, "_", count);
  }
  return unique;
}

absl::Status GraphConstructor::ValidateColocation(const NodeDef& node_def) const {
  if (!opts_.importing || !opts_.validate_colocation_constraints) return absl::OkStatus();
  auto it = node_def.attr().find(kColocationAttrName);
  if (it == node_def.attr().end()) return absl::OkStatus();
  for (const std::string& group : it->second.list().s()) {
    absl::string_view target = group;
    if (absl::ConsumePrefix(&target, kColocationGroupPrefix) && !gdef_nodes_.contains(target)) {
      return errors::InvalidArgument("Node '", node_def.name(),
                                     "' expects to be colocated with unknown node '", target, "'");
    }
  }
  return absl::OkStatus();
}

void GraphConstructor::UpdateVersions() {
  if (!opts_.importing) {
    g_->set_versions(gdef_.versions());
    return;
  }
  VersionDef merged = g_->versions();
  merged.set_producer(std::min(merged.producer(), gdef_.versions().producer()));
  merged.set_min_consumer(std::max(merged.min_consumer(), gdef_.versions().min_consumer()));
  std::set<int> bad(merged.bad_consumers().begin(), merged.bad_consumers().end());
  bad.insert(gdef_.versions().bad_consumers().begin(), gdef_.versions().bad_consumers().end());
  merged.clear_bad_consumers();
  for (int v : bad) merged.add_bad_consumers(v);
  g_->set_versions(merged);
}

absl::Status GraphConstructor::PopulateReturnTensors() {
  for (const TensorIndex& id : opts_.return_tensors) {
    auto mapped = opts_.input_map.find(id);
    if (mapped != opts_.input_map.end()) {
      results_->return_tensors.emplace_back(g_->FindNodeByName(mapped->second.first),
                                            mapped->second.second);
      continue;
    }
    auto it = gdef_nodes_.find(id.first);
    if (it == gdef_nodes_.end() || it->second.node == nullptr) {
      return errors::InvalidArgument("Requested return tensor '", TensorIndexString(id),
                                     "' not found in graph def");
    }
    const int num_outputs = it->second.node->num_outputs();
    if ((id.second < 0 || id.second >= num_outputs) && id.second != kControlSlot) {
      return errors::InvalidArgument("Invalid return output ", id.second, " of node '", id.first,
                                     "', which has ", num_outputs, " output(s)");
    }
    results_->return_tensors.emplace_back(it->second.node, id.second);
  }
  return absl::OkStatus();
}

absl::Status GraphConstructor::PopulateReturnNodes() {
  for (const std::string& name : opts_.return_nodes) {
    auto it = gdef_nodes_.find(name);
    if (it == gdef_nodes_.end()) {
      return errors::InvalidArgument("Requested return node '", name, "' not found in graph def");
    }
    results_->return_nodes.push_back(it->second.node);
  }
  return absl::OkStatus();
}

absl::Status GraphConstructor::PopulateMissingUnusedInputMapKeys() {
  for (const auto& [key, value] : opts_.input_map) {
    if (used_input_map_keys_.count(key) > 0) continue;
    auto it = gdef_nodes_.find(key.first);
    if (it == gdef_nodes_.end()) {
      results_->missing_unused_input_map_keys.push_back(key);
      continue;
    }
    // The node may have been skipped (skip_mapped_nodes), so count outputs from its NodeDef.
    const NodeDef& node_def = gdef_.node(it->second.gdef_index);
    const OpDef* op_def = nullptr;
    RETURN_IF_ERROR(import_internal::LookUpOpForNode(*g_->op_registry(), node_def, &op_def));
    int num_outputs = 0;
    RETURN_IF_ERROR(NumOutputsForNode(node_def, *op_def, &num_outputs));
    if (key.second >= num_outputs) results_->missing_unused_input_map_keys.push_back(key);
  }
  return absl::OkStatus();
}

void GraphConstructor::UpdateUniquifiedColocationNames() {
  if (uniquified_names_.empty()) return;
  for (Node* node : created_) {
    std::vector<std::string> groups;
    if (!TryGetNodeAttr(node->attrs(), kColocationAttrName, &groups)) continue;
    bool updated = false;
    for (std::string& group : groups) {
      absl::string_view target = group;
      if (!absl::ConsumePrefix(&target, kColocationGroupPrefix)) continue;
      auto it = uniquified_names_.find(target);
      if (it == uniquified_names_.end()) continue;
      group = absl::StrCat(kColocationGroupPrefix, it->second);
      updated = true;
    }
    if (updated) node->AddAttr(kColocationAttrName, groups);
  }
}

}  // namespace import_internal
}  // namespace sluice
