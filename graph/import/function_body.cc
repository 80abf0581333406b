#include "graph/import/function_body.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

// Replaces {placeholder: "X"} values (also inside func values) by attrs["X"].
absl::Status SubstitutePlaceholders(const std::string& function, const AttrValueMap& attrs,
                                    AttrValue* value) {
  if (!value->placeholder().empty()) {
    auto it = attrs.find(value->placeholder());
    if (it == attrs.end()) {
      return errors::InvalidArgument("Function '", function, "' uses attr placeholder '",
                                     value->placeholder(), "', which its call does not set");
    }
    *value = it->second;
    return absl::OkStatus();
  }
  if (value->has_func()) {
    for (auto& [name, inner] : *value->mutable_func()->mutable_attr()) {
      RETURN_IF_ERROR(SubstitutePlaceholders(function, attrs, &inner));
    }
  }
  if (value->has_list()) {
    for (NameAttrList& func : *value->mutable_list()->mutable_func()) {
      for (auto& [name, inner] : *func.mutable_attr()) {
        RETURN_IF_ERROR(SubstitutePlaceholders(function, attrs, &inner));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status SingleTensorArgType(const std::string& function, const OpDef::ArgDef& arg,
                                 const AttrValueMap& attrs, DataType* type) {
  if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) {
    return errors::Unimplemented("Function '", function, "' has list-valued argument '", arg.name(),
                                 "'");
  }
  if (arg.type() != DT_INVALID) {
    *type = arg.type();
    return absl::OkStatus();
  }
  auto it = attrs.find(arg.type_attr());
  if (it == attrs.end()) {
    return errors::InvalidArgument("Function '", function, "': the type of argument '", arg.name(),
                                   "' comes from attr '", arg.type_attr(), "', which is not set");
  }
  *type = it->second.type();
  return absl::OkStatus();
}

}  // namespace

const FunctionDef* FindFunction(const FunctionDefLibrary& library, const std::string& name) {
  for (const FunctionDef& f : library.function()) {
    if (f.signature().name() == name) return &f;
  }
  return nullptr;
}

absl::Status InstantiateFunctionBody(const FunctionDef& fdef, const AttrValueMap& attrs,
                                     const FunctionDefLibrary& library,
                                     const OpRegistryInterface& registry, FunctionBody* body) {
  const std::string& fname = fdef.signature().name();
  *body = FunctionBody();
  absl::flat_hash_set<std::string> args;
  for (int i = 0; i < fdef.signature().input_arg_size(); ++i) {
    const OpDef::ArgDef& arg = fdef.signature().input_arg(i);
    DataType type;
    RETURN_IF_ERROR(SingleTensorArgType(fname, arg, attrs, &type));
    NodeDef* node = body->graph.add_node();
    node->set_name(arg.name());
    node->set_op("_Arg");
    AddNodeAttr("T", type, node);
    AddNodeAttr("index", static_cast<int64_t>(i), node);
    args.insert(arg.name());
    body->arg_nodes.push_back(arg.name());
  }
  for (const OpDef::ArgDef& arg : fdef.signature().output_arg()) {
    DataType type;
    RETURN_IF_ERROR(SingleTensorArgType(fname, arg, attrs, &type));
  }

  // Each body node's output ranges by output arg name.
  absl::flat_hash_map<std::string, NameRangeMap> outputs;
  for (const NodeDef& original : fdef.node_def()) {
    NodeDef* node = body->graph.add_node();
    *node = original;
    for (auto& [name, value] : *node->mutable_attr()) {
      RETURN_IF_ERROR(SubstitutePlaceholders(fname, attrs, &value));
    }
    const OpDef* op_def = nullptr;
    if (const FunctionDef* nested = FindFunction(library, node->op())) {
      op_def = &nested->signature();
    } else if (absl::Status s = registry.LookUpOpDef(node->op(), &op_def); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("Function '", fname, "', node '", node->name(),
                                                 "': ", s.message()));
    }
    NameRangeMap ranges;
    const absl::Status s = NameRangesForNode(AttrSlice(*node), *op_def, nullptr, &ranges);
    if (!s.ok()) {
      return errors::InvalidArgument("Function '", fname, "', node '", node->name(),
                                     "': ", s.message());
    }
    outputs[node->name()] = std::move(ranges);
  }

  // "arg", "node:out_arg:i" or "^node" in function form to graph form.
  auto translate = [&](const std::string& name, std::string* out) -> absl::Status {
    if (!name.empty() && name[0] == '^') {
      *out = name;
      return absl::OkStatus();
    }
    std::vector<std::string> parts = absl::StrSplit(name, ':');
    if (parts.size() == 1) {
      if (!args.contains(parts[0]) && !outputs.contains(parts[0])) {
        return errors::InvalidArgument("Function '", fname, "' names '", name,
                                       "', which is neither an argument nor a node");
      }
      *out = parts[0];
      return absl::OkStatus();
    }
    int index = 0;
    if (parts.size() == 2 && absl::SimpleAtoi(parts[1], &index)) {
      *out = name;
      return absl::OkStatus();
    }
    auto node = outputs.find(parts[0]);
    if (parts.size() != 3 || node == outputs.end() || !absl::SimpleAtoi(parts[2], &index)) {
      return errors::InvalidArgument("Function '", fname, "' names '", name,
                                     "', which is not a tensor of its body");
    }
    auto range = node->second.find(parts[1]);
    if (range == node->second.end() || index < 0 ||
        index >= range->second.second - range->second.first) {
      return errors::InvalidArgument("Function '", fname, "' names '", name,
                                     "', which is not an output of node '", parts[0], "'");
    }
    *out = absl::StrCat(parts[0], ":", range->second.first + index);
    return absl::OkStatus();
  };

  for (int i = fdef.signature().input_arg_size(); i < body->graph.node_size(); ++i) {
    NodeDef* node = body->graph.mutable_node(i);
    for (std::string& input : *node->mutable_input()) {
      std::string translated;
      RETURN_IF_ERROR(translate(input, &translated));
      input = std::move(translated);
    }
  }
  for (const OpDef::ArgDef& arg : fdef.signature().output_arg()) {
    auto it = fdef.ret().find(arg.name());
    if (it == fdef.ret().end()) {
      return errors::InvalidArgument("Function '", fname, "' returns nothing for output '",
                                     arg.name(), "'");
    }
    std::string tensor;
    RETURN_IF_ERROR(translate(it->second, &tensor));
    if (tensor.find(':') == std::string::npos) tensor += ":0";
    body->rets.push_back(std::move(tensor));
  }
  for (const std::string& name : fdef.signature().control_output()) {
    auto it = fdef.control_ret().find(name);
    if (it != fdef.control_ret().end()) body->control_rets.push_back(it->second);
  }
  return absl::OkStatus();
}

}  // namespace sluice
