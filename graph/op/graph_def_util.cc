// GraphDef-wide checks and default-attr rewrites, one NodeDef at a time.
#include "graph/op/graph_def_util.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
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

// The functions of a GraphDef's library by name, for nodes that call them, each with the
// outcome of CheckFunctionSignature (computed when a node first calls it).
struct LibrarySignature {
  const OpDef* signature;
  std::optional<absl::Status> status;
};
using LibrarySignatures = absl::flat_hash_map<std::string, LibrarySignature>;

LibrarySignatures LibraryFunctions(const GraphDef& graph_def) {
  LibrarySignatures functions;
  for (const FunctionDef& function : graph_def.library().function()) {
    functions.try_emplace(function.signature().name(),
                          LibrarySignature{&function.signature(), std::nullopt});
  }
  return functions;
}

// Looks up `node`'s OpDef: in the registry, else among the library's functions (their
// signatures), as TensorFlow's FunctionLibraryDefinition does.
absl::Status LookUpNodeOp(const NodeDef& node, const OpRegistryInterface& registry,
                          LibrarySignatures& library_functions, const OpDef** op_def) {
  absl::Status status = registry.LookUpOpDef(node.op(), op_def);
  if (status.ok()) return status;
  auto function = library_functions.find(node.op());
  if (function == library_functions.end()) return NameNodeAndOp(status, node);
  LibrarySignature& found = function->second;
  if (!found.status.has_value()) found.status = CheckFunctionSignature(*found.signature);
  if (!found.status->ok()) return AttachDef(*found.status, node);
  *op_def = found.signature;
  return absl::OkStatus();
}

bool LacksADefault(const NodeDef& node, const OpDef& op_def) {
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (attr.has_default_value() && node.attr().count(attr.name()) == 0) return true;
  }
  return false;
}

}  // namespace

absl::Status CheckFunctionSignature(const OpDef& signature) {
  absl::flat_hash_map<absl::string_view, absl::string_view> attr_types;
  for (const OpDef::AttrDef& attr : signature.attr()) attr_types[attr.name()] = attr.type();
  auto malformed = [&](const OpDef::ArgDef& arg, absl::string_view what) {
    return errors::InvalidArgument("Function '", signature.name(),
                                   "' has a malformed signature: ", "argument '", arg.name(), "' ",
                                   what);
  };
  auto check_attr = [&](const OpDef::ArgDef& arg, const std::string& name,
                        absl::string_view type) -> absl::Status {
    auto it = attr_types.find(name);
    if (it == attr_types.end()) {
      return malformed(arg, absl::StrCat("names attr '", name, "', which is not declared"));
    }
    if (it->second != type) {
      return malformed(arg, absl::StrCat("names attr '", name, "' of type '", it->second,
                                         "' where one of type '", type, "' is needed"));
    }
    return absl::OkStatus();
  };
  for (const auto* args : {&signature.input_arg(), &signature.output_arg()}) {
    for (const OpDef::ArgDef& arg : *args) {
      const int sources =
          (arg.type() != DT_INVALID) + !arg.type_attr().empty() + !arg.type_list_attr().empty();
      if (sources != 1) {
        return malformed(arg, "needs exactly one of a type, a type attr and a type-list attr");
      }
      if (!arg.number_attr().empty()) {
        if (!arg.type_list_attr().empty()) {
          return malformed(arg, "has both a number attr and a type-list attr");
        }
        RETURN_IF_ERROR(check_attr(arg, arg.number_attr(), "int"));
      }
      if (!arg.type_attr().empty()) RETURN_IF_ERROR(check_attr(arg, arg.type_attr(), "type"));
      if (!arg.type_list_attr().empty()) {
        RETURN_IF_ERROR(check_attr(arg, arg.type_list_attr(), "list(type)"));
      }
    }
  }
  return absl::OkStatus();
}

LibraryOpRegistry::LibraryOpRegistry(const OpRegistryInterface* base,
                                     OpShapeInferenceFn function_shape_fn)
    : base_(base), function_shape_fn_(std::move(function_shape_fn)) {}

LibraryOpRegistry::~LibraryOpRegistry() = default;

void LibraryOpRegistry::AddFunctions(const FunctionDefLibrary& library) {
  for (const FunctionDef& function : library.function()) {
    const std::string& name = function.signature().name();
    if (functions_.contains(name)) continue;
    Function& added = functions_[name];
    added.data =
        std::make_unique<const OpRegistrationData>(function.signature(), function_shape_fn_);
    added.signature_status = CheckFunctionSignature(function.signature());
  }
}

void LibraryOpRegistry::RetainOnly(const FunctionDefLibrary& library) {
  absl::flat_hash_map<absl::string_view, bool> kept;
  for (const FunctionDef& function : library.function()) kept[function.signature().name()] = true;
  for (auto it = functions_.begin(); it != functions_.end();) {
    if (kept.contains(it->first)) {
      ++it;
      continue;
    }
    retired_.push_back(std::move(it->second.data));
    functions_.erase(it++);
  }
}

absl::Status LibraryOpRegistry::LookUp(const std::string& op_type_name,
                                       const OpRegistrationData** op_reg_data) const {
  absl::Status status = base_->LookUp(op_type_name, op_reg_data);
  if (status.ok() || functions_.empty()) return status;
  auto it = functions_.find(op_type_name);
  if (it == functions_.end()) return status;
  RETURN_IF_ERROR(it->second.signature_status);
  *op_reg_data = it->second.data.get();
  return absl::OkStatus();
}

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
  LibrarySignatures functions = LibraryFunctions(graph_def);
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
  LibrarySignatures functions = LibraryFunctions(*graph_def);
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
