// GraphDef-wide checks and default-attr rewrites, one NodeDef at a time.
#include "graph/op/graph_def_util.h"

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace {

static_assert(kGraphDefVersionMinProducer <= kGraphDefVersion,
              "Sluice must read the graphs it writes");
static_assert(kGraphDefVersionMinConsumer <= kGraphDefVersion,
              "Sluice must be a consumer of the graphs it writes");

// Makes sure `status` names both the node and its op, adding what the message lacks, so
// that a user can find the culprit in a graph of thousands of nodes.
absl::Status NameNodeAndOp(const absl::Status& status, const NodeDef& node) {
  if (status.ok()) return status;
  absl::Status named = status;
  const absl::string_view message = named.message();
  if (!absl::StrContains(message, absl::StrCat("'", node.op(), "'")) &&
      !absl::StrContains(message, absl::StrCat("Op<name=", node.op(), ";")) &&
      !absl::StrContains(message, absl::StrCat("= ", node.op(), "["))) {
    named = errors::PrependToMessage(named, "Op '", node.op(), "': ");
  }
  if (!absl::StrContains(named.message(), absl::StrCat("{{node ", node.name(), "}}"))) {
    named = AttachDef(named, node);
  }
  return named;
}

// Looks up `node`'s OpDef. Calls of functions from the graph's own library are reported as
// such rather than as an unknown op, which would mislead.
absl::Status LookUpNodeOp(const NodeDef& node, const OpRegistryInterface& registry,
                          const absl::flat_hash_set<std::string>& library_functions,
                          const OpDef** op_def) {
  absl::Status status = registry.LookUpOpDef(node.op(), op_def);
  if (status.ok()) return status;
  if (library_functions.contains(node.op())) {
    return AttachDef(errors::Unimplemented("Node calls function '", node.op(),
                                           "' of the graph's library; Sluice does not run "
                                           "graph functions yet"),
                     node);
  }
  return NameNodeAndOp(status, node);
}

bool LacksADefault(const NodeDef& node, const OpDef& op_def) {
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (attr.has_default_value() && node.attr().count(attr.name()) == 0) return true;
  }
  return false;
}

absl::flat_hash_set<std::string> LibraryFunctionNames(const GraphDef& graph_def) {
  absl::flat_hash_set<std::string> names;
  for (const FunctionDef& function : graph_def.library().function()) {
    names.insert(function.signature().name());
  }
  return names;
}

}  // namespace

absl::Status CheckGraphDefVersions(const VersionDef& versions) {
  if (versions.producer() < kGraphDefVersionMinProducer) {
    return errors::InvalidArgument("GraphDef producer version ", versions.producer(),
                                   " below min producer ", kGraphDefVersionMinProducer,
                                   " supported by Sluice.  Please regenerate your graph.");
  }
  if (versions.min_consumer() > kGraphDefVersion) {
    return errors::InvalidArgument("GraphDef min consumer version ", versions.min_consumer(),
                                   " above current version ", kGraphDefVersion,
                                   " for Sluice.  Please upgrade Sluice.");
  }
  for (int bad_consumer : versions.bad_consumers()) {
    if (bad_consumer == kGraphDefVersion) {
      return errors::InvalidArgument("GraphDef disallows consumer version ", bad_consumer,
                                     ".  Please upgrade Sluice: this version is likely buggy.");
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateGraphDefAgainstOpRegistry(const GraphDef& graph_def,
                                               const OpRegistryInterface& registry) {
  const absl::flat_hash_set<std::string> functions = LibraryFunctionNames(graph_def);
  for (const NodeDef& node : graph_def.node()) {
    RETURN_IF_ERROR(NameNodeAndOp(ValidateExternalNodeDefSyntax(node), node));
    const OpDef* op_def = nullptr;
    RETURN_IF_ERROR(LookUpNodeOp(node, registry, functions, &op_def));
    absl::Status status;
    if (LacksADefault(node, *op_def)) {
      NodeDef with_defaults = node;
      AddDefaultsToNodeDef(*op_def, &with_defaults);
      status = ValidateNodeDef(with_defaults, *op_def);
    } else {
      status = ValidateNodeDef(node, *op_def);  // Spares copying a Const's weights.
    }
    RETURN_IF_ERROR(NameNodeAndOp(status, node));
  }
  return absl::OkStatus();
}

absl::Status AddDefaultAttrsToGraphDef(GraphDef* graph_def, const OpRegistryInterface& registry,
                                       int node_offset) {
  if (node_offset < 0 || node_offset > graph_def->node_size()) {
    return errors::InvalidArgument("Tried to add default attrs to GraphDef starting at offset ",
                                   node_offset,
                                   " with total nodes in graph: ", graph_def->node_size());
  }
  const absl::flat_hash_set<std::string> functions = LibraryFunctionNames(*graph_def);
  for (int i = node_offset; i < graph_def->node_size(); ++i) {
    NodeDef* node = graph_def->mutable_node(i);
    const OpDef* op_def = nullptr;
    RETURN_IF_ERROR(LookUpNodeOp(*node, registry, functions, &op_def));
    AddDefaultsToNodeDef(*op_def, node);
  }
  return absl::OkStatus();
}

void StripDefaultAttributes(const OpRegistryInterface& registry,
                            google::protobuf::RepeatedPtrField<NodeDef>* nodes) {
  for (NodeDef& node : *nodes) {
    const OpDef* op_def = nullptr;
    if (!registry.LookUpOpDef(node.op(), &op_def).ok()) continue;
    for (const OpDef::AttrDef& attr_def : op_def->attr()) {
      if (!attr_def.has_default_value()) continue;
      auto it = node.attr().find(attr_def.name());
      if (it != node.attr().end() && AreAttrValuesEqual(it->second, attr_def.default_value())) {
        node.mutable_attr()->erase(attr_def.name());
      }
    }
  }
}

}  // namespace sluice
