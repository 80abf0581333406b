#include "tools/op_gen/api_names.h"

#include <map>
#include <set>
#include <utility>

namespace sluice {
namespace op_gen {
namespace {

const std::map<std::string, std::string>& Endpoints() {
  static const auto* endpoints = new std::map<std::string, std::string>{
      {"ConcatV2", "Concat"}, {"Pack", "Stack"},        {"Unpack", "Unstack"},
      {"TopKV2", "TopK"},     {"ReverseV2", "Reverse"}, {"VariableV2", "Variable"},
  };
  return *endpoints;
}

const std::map<std::string, std::string>& ReduceAliases() {
  static const auto* aliases = new std::map<std::string, std::string>{
      {"Sum", "ReduceSum"},   {"Mean", "ReduceMean"}, {"Max", "ReduceMax"}, {"Min", "ReduceMin"},
      {"Prod", "ReduceProd"}, {"All", "ReduceAll"},   {"Any", "ReduceAny"},
  };
  return *aliases;
}

// (op, arg) -> C++ name.
const std::map<std::pair<std::string, std::string>, std::string>& ArgRenames() {
  static const auto* renames = [] {
    auto* m = new std::map<std::pair<std::string, std::string>, std::string>;
    for (const auto& [op, alias] : ReduceAliases()) (*m)[{op, "reduction_indices"}] = "axis";
    (*m)[{"Split", "split_dim"}] = "axis";
    (*m)[{"SplitV", "split_dim"}] = "axis";
    (*m)[{"ExpandDims", "dim"}] = "axis";
    return m;
  }();
  return *renames;
}

}  // namespace

ApiNames ApiNamesForOp(const std::string& op_name) {
  ApiNames names;
  // Concat (V1) is hidden from TensorFlow's C++ API: ops::Concat is ConcatV2.
  names.visible = op_name != "Concat";
  auto endpoint = Endpoints().find(op_name);
  names.class_name = endpoint == Endpoints().end() ? op_name : endpoint->second;
  auto alias = ReduceAliases().find(op_name);
  if (alias != ReduceAliases().end()) names.aliases.push_back(alias->second);
  return names;
}

std::string ApiArgName(const std::string& op_name, const std::string& arg_name) {
  auto it = ArgRenames().find({op_name, arg_name});
  return it == ArgRenames().end() ? arg_name : it->second;
}

}  // namespace op_gen
}  // namespace sluice
