#include "graph/graph_to_function_def.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/function_def_hash.h"
#include "proto/attr_value.pb.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"

namespace sluice {
namespace {

// The names a function uses so far (args and body nodes), and the body name each graph node
// got. Each base name keeps a counter, so that a name taken again tries "<base>_<k>" from
// where the last attempt stopped, as TensorFlow's NodeNameMapping does.
class FunctionNames {
 public:
  // A name for an output arg of a node named `node_name`.
  std::string OutputArg(const std::string& node_name) {
    return Unique(NormalizeArgName(node_name));
  }
  // A name for an input arg of the node; control inputs from the node then name the arg.
  std::string InputArg(const std::string& node_name) {
    std::string name = Unique(NormalizeArgName(node_name));
    body_names_[node_name] = name;
    return name;
  }
  // A name for a body node.
  std::string BodyNode(const std::string& node_name) {
    std::string name = Unique(node_name);
    body_names_[node_name] = name;
    return name;
  }
  // Takes a caller's output arg name as it is.
  absl::Status TakeOutputName(const std::string& name) {
    if (!used_.emplace(name, 0).second) {
      return errors::InvalidArgument("Cannot have duplicate output names. Name '", name,
                                     "' appears more than once in 'output_names' array.");
    }
    return absl::OkStatus();
  }
  // The body (or input arg) name of a graph node; empty if it has none.
  std::string Lookup(const std::string& node_name) const {
    auto it = body_names_.find(node_name);
    return it == body_names_.end() ? std::string() : it->second;
  }

 private:
  std::string Unique(const std::string& base) {
    auto [it, inserted] = used_.emplace(base, 0);
    if (inserted) return base;
    while (true) {
      std::string candidate = absl::StrCat(base, "_", it->second++);
      if (used_.emplace(candidate, 0).second) return candidate;
      // emplace may rehash: find the base's counter again.
      it = used_.find(base);
    }
  }

  absl::flat_hash_map<std::string, uint64_t> used_;
  absl::flat_hash_map<std::string, std::string> body_names_;
};

std::string TensorName(const Node* node, int index) {
  return absl::StrCat(node->name(), ":", index);
}

// arg_attr of an input arg from its node (see the header), and the node's
// _resource_arg_unique_id (-1 if none).
FunctionDef::ArgAttrs InputArgAttrs(const Node* node, DataType type, int64_t* resource_id) {
  FunctionDef::ArgAttrs arg_attrs;
  auto* attrs = arg_attrs.mutable_attr();
  *resource_id = -1;
  // By name, so that a node's own "_output_shapes" comes before (and wins over) its shape.
  const std::map<std::string, const AttrValue*> sorted = [&] {
    std::map<std::string, const AttrValue*> m;
    for (const auto& [name, value] : node->def().attr()) m[name] = &value;
    return m;
  }();
  for (const auto& [name, value] : sorted) {
    if (!name.empty() && name[0] == '_') {
      attrs->insert({name, *value});
    } else if (name == "shape" && type != DT_RESOURCE) {
      AttrValue shapes;
      *shapes.mutable_list()->add_shape() = value->shape();
      attrs->insert({"_output_shapes", shapes});
    } else if (name == "value" && node->type_string() == "Const") {
      AttrValue shapes;
      *shapes.mutable_list()->add_shape() = value->tensor().tensor_shape();
      attrs->insert({"_output_shapes", shapes});
    }
    if (name == "_resource_arg_unique_id") *resource_id = value->i();
  }
  return arg_attrs;
}

absl::Status CheckOutputIndex(const GraphOutput& output) {
  if (output.node == nullptr) return errors::InvalidArgument("Node is null");
  if (output.index < 0 || output.index >= output.node->num_outputs()) {
    return errors::OutOfRange(
        "Node '", output.node->name(), "' (type: '", output.node->type_string(),
        "', num of outputs: ", output.node->num_outputs(), ") does not have output ", output.index);
  }
  return absl::OkStatus();
}

// Sorts the original node and function names of a NodeDef's debug info and drops repeats,
// as TensorFlow's MergeDebugInfo of a NodeDef with itself does.
void SortDebugNames(NodeDef* def) {
  if (!def->has_experimental_debug_info()) return;
  auto sort_unique = [](google::protobuf::RepeatedPtrField<std::string>* names) {
    if (names->empty()) return;
    const std::set<std::string> sorted(names->begin(), names->end());
    names->Clear();
    for (const std::string& name : sorted) names->Add()->assign(name);
  };
  sort_unique(def->mutable_experimental_debug_info()->mutable_original_node_names());
  sort_unique(def->mutable_experimental_debug_info()->mutable_original_func_names());
}

// Adds the body's NodeDefs with their inputs in function form.
absl::Status FillBody(const GraphToFunctionDefSpec& spec, const FunctionNames& names,
                      const absl::flat_hash_map<std::string, std::string>& renamed,
                      FunctionDef* fdef) {
  absl::flat_hash_set<std::string> signature_attrs;
  for (const OpDef::AttrDef& attr : fdef->signature().attr()) signature_attrs.insert(attr.name());
  for (const Node* node : spec.body) {
    NodeDef* def = fdef->add_node_def();
    *def = node->def();
    def->clear_input();
    SortDebugNames(def);
    if (node->has_assigned_device_name()) def->set_device(node->assigned_device_name());
    def->set_name(names.Lookup(node->name()));

    std::vector<const Edge*> data_edges(node->num_inputs(), nullptr);
    std::vector<const Edge*> control_edges;
    for (const Edge* edge : node->in_edges()) {
      if (edge->src()->IsSource()) continue;
      if (edge->IsControlEdge()) {
        control_edges.push_back(edge);
      } else if (edge->dst_input() >= 0 && edge->dst_input() < node->num_inputs()) {
        data_edges[edge->dst_input()] = edge;
      }
    }
    std::sort(control_edges.begin(), control_edges.end(),
              [](const Edge* a, const Edge* b) { return a->src()->name() < b->src()->name(); });

    for (int i = 0; i < node->num_inputs(); ++i) {
      const Edge* edge = data_edges[i];
      if (edge == nullptr) {
        return errors::InvalidArgument(
            "Graph to be converted to function appears to be malformed. Node ", node->name(),
            " is missing input edge ", i);
      }
      const std::string source = TensorName(edge->src(), edge->src_output());
      auto it = renamed.find(source);
      if (it == renamed.end()) {
        return errors::InvalidArgument("Input ", i, ", '", source, "', of node '", node->name(),
                                       "' in function '", spec.name,
                                       "' is not available. You might need to include it in "
                                       "inputs or include its source node in the body");
      }
      def->add_input(it->second);
    }
    for (const Edge* edge : control_edges) {
      const std::string source = names.Lookup(edge->src()->name());
      if (source.empty()) {
        return errors::InvalidArgument("The source of control edge ", edge->DebugString(),
                                       " is not in the body. Encountered while creating "
                                       "function '",
                                       spec.name, "'");
      }
      def->add_input(absl::StrCat("^", source));
    }

    if (node->op_def().is_stateful()) fdef->mutable_signature()->set_is_stateful(true);

    // Attrs whose value is a placeholder become attrs of the function (by name, so that the
    // signature is the same from run to run).
    std::map<std::string, const AttrValue*> placeholders;
    for (const auto& [name, value] : def->attr()) {
      if (!value.placeholder().empty()) placeholders[name] = &value;
    }
    for (const auto& [name, value] : placeholders) {
      const std::string& function_attr = value->placeholder();
      if (signature_attrs.contains(function_attr)) continue;
      const OpDef::AttrDef* attr_def = nullptr;
      for (const OpDef::AttrDef& a : node->op_def().attr()) {
        if (a.name() == name) attr_def = &a;
      }
      if (attr_def == nullptr) {
        return errors::Unimplemented(
            "Placeholder value is not supported for attributes not in OpDef. Attribute: ", name,
            ", OpDef: ", node->op_def().DebugString());
      }
      OpDef::AttrDef* added = fdef->mutable_signature()->add_attr();
      added->set_name(function_attr);
      added->set_type(attr_def->type());
      signature_attrs.insert(function_attr);
    }
  }
  return absl::OkStatus();
}

// "<name>_<hash>" as TensorFlow spells it.
std::string NameWithHash(const std::string& name, const FunctionDef& fdef) {
  const uint64_t hash = tf_hash::FunctionDefHash(fdef);
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((hash >> (8 * i)) & 0xff);
  std::string encoded;
  absl::WebSafeBase64Escape(absl::string_view(bytes, sizeof(bytes)), &encoded);
  std::replace(encoded.begin(), encoded.end(), '-', 'a');
  std::replace(encoded.begin(), encoded.end(), '_', 'A');
  return absl::StrCat(name, "_", encoded);
}

absl::Status AddControlOutputs(const GraphToFunctionDefSpec& spec, const FunctionNames& names,
                               FunctionDef* fdef) {
  if (!spec.control_output_names.empty() &&
      spec.control_output_names.size() != spec.control_outputs.size()) {
    return errors::InvalidArgument("Expected number of control outputs (",
                                   spec.control_outputs.size(),
                                   ") and the number of control output names (",
                                   spec.control_output_names.size(), ") to match but they do not.");
  }
  std::set<std::string> taken;
  for (size_t i = 0; i < spec.control_outputs.size(); ++i) {
    const Node* node = spec.control_outputs[i];
    if (node == nullptr) return errors::InvalidArgument("Control output ", i, " is null");
    const std::string& name =
        spec.control_output_names.empty() ? node->name() : spec.control_output_names[i];
    if (name.empty()) return errors::InvalidArgument("Control output name must be not empty");
    if (!taken.insert(name).second) {
      return errors::InvalidArgument("Repeated control output name: ", name);
    }
    const std::string body_name = names.Lookup(node->name());
    if (body_name.empty()) {
      return errors::InvalidArgument("Control output node name must be not empty");
    }
    (*fdef->mutable_control_ret())[name] = body_name;
  }
  for (const std::string& name : taken) fdef->mutable_signature()->add_control_output(name);
  return absl::OkStatus();
}

}  // namespace

std::string NormalizeArgName(const std::string& name) {
  std::string out = name;
  for (char& c : out) {
    const unsigned char u = static_cast<unsigned char>(c);
    c = std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
  }
  const size_t first_letter =
      std::find_if(out.begin(), out.end(),
                   [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }) -
      out.begin();
  if (first_letter == out.size()) return "unknown";
  return out.substr(first_letter);
}

absl::Status GraphToFunctionDef(const GraphToFunctionDefSpec& spec, FunctionDef* fdef) {
  fdef->Clear();
  if (!spec.output_names.empty() && spec.output_names.size() != spec.outputs.size()) {
    return errors::InvalidArgument("Got ", spec.output_names.size(), " output names for ",
                                   spec.outputs.size(), " outputs");
  }
  OpDef* signature = fdef->mutable_signature();
  if (spec.description.has_value()) signature->set_description(*spec.description);

  FunctionNames names;
  // Graph tensor ("node:k") -> its name in the function.
  absl::flat_hash_map<std::string, std::string> renamed;

  // Output args first, so that names the caller gives collide with nothing but each other.
  for (size_t i = 0; i < spec.outputs.size(); ++i) {
    const GraphOutput& output = spec.outputs[i];
    OpDef::ArgDef* arg = signature->add_output_arg();
    if (output.node != nullptr && output.node->IsRetval()) {
      // A _Retval node (which has no outputs) gives the type of its input.
      if (output.index < 0 || output.index >= output.node->num_inputs()) {
        return errors::OutOfRange("_Retval node '", output.node->name(), "' has no input ",
                                  output.index);
      }
      arg->set_type(output.node->input_type(output.index));
    } else {
      RETURN_IF_ERROR(CheckOutputIndex(output));
      arg->set_type(output.node->output_type(output.index));
    }
    if (!spec.output_names.empty()) {
      RETURN_IF_ERROR(names.TakeOutputName(spec.output_names[i]));
      arg->set_name(spec.output_names[i]);
    } else {
      arg->set_name(names.OutputArg(output.node->name()));
    }
  }

  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    const GraphOutput& input = spec.inputs[i];
    RETURN_IF_ERROR(CheckOutputIndex(input));
    OpDef::ArgDef* arg = signature->add_input_arg();
    arg->set_type(input.node->output_type(input.index));
    const std::string name = names.InputArg(input.node->name());
    arg->set_name(name);
    int64_t resource_id;
    FunctionDef::ArgAttrs arg_attrs = InputArgAttrs(input.node, arg->type(), &resource_id);
    if (arg_attrs.attr_size() > 0) {
      (*fdef->mutable_arg_attr())[static_cast<uint32_t>(i)] = std::move(arg_attrs);
    }
    if (resource_id >= 0) {
      (*fdef->mutable_resource_arg_unique_id())[static_cast<uint32_t>(input.index)] =
          static_cast<uint32_t>(resource_id);
    }
    renamed[TensorName(input.node, input.index)] = name;
  }

  // Every output of every body node, in function form (an input keeps its arg's name).
  for (const Node* node : spec.body) {
    if (node == nullptr) return errors::InvalidArgument("A body node is null");
    const std::string body_name = names.BodyNode(node->name());
    NameRangeMap ranges;
    RETURN_IF_ERROR(NameRangesForNode(node->attrs(), node->op_def(), nullptr, &ranges));
    for (const auto& [arg_name, range] : ranges) {
      for (int k = range.first; k < range.second; ++k) {
        renamed.emplace(TensorName(node, k),
                        absl::StrCat(body_name, ":", arg_name, ":", k - range.first));
      }
    }
  }

  RETURN_IF_ERROR(FillBody(spec, names, renamed, fdef));

  for (int r = 0; r < signature->output_arg_size(); ++r) {
    const GraphOutput& output = spec.outputs[r];
    std::string tensor = TensorName(output.node, output.index);
    if (output.node->IsRetval()) {
      const Edge* edge = nullptr;
      RETURN_IF_ERROR(output.node->input_edge(0, &edge));
      tensor = TensorName(edge->src(), edge->src_output());
    }
    auto it = renamed.find(tensor);
    if (it == renamed.end()) {
      return errors::InvalidArgument("TF_Output ", tensor,
                                     " is neither in the function body nor among function "
                                     "inputs. Encountered while creating function '",
                                     spec.name, "'");
    }
    (*fdef->mutable_ret())[signature->output_arg(r).name()] = it->second;
  }

  signature->set_name(spec.append_hash_to_name ? NameWithHash(spec.name, *fdef) : spec.name);
  return AddControlOutputs(spec, names, fdef);
}

}  // namespace sluice
