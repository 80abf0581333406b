// sluice inspect: what a model holds — inputs, likely outputs, op histogram, parameters,
// kernel coverage per device, versions — as text or JSON. A graph whose ops are not all
// registered in this build is described as far as the registry allows: its unregistered op
// types are listed with their nodes, and the exit status (kCannotRunExitCode) and the JSON's
// "can_run" say that it cannot run here. A graph whose ops are all registered is also imported
// as `run` imports it (CheckGraphStructure); what that rejects (a cycle, an input naming a
// missing node or output, duplicate names, mismatched dtypes) is described and then reported
// as invalid: an "Invalid graph" line, "valid": false and "invalid" in the JSON, and exit
// status 1.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "tools/cli/args.h"
#include "tools/cli/commands.h"
#include "tools/cli/graph_needs.h"
#include "tools/cli/json_writer.h"
#include "tools/cli/kernel_info.h"
#include "tools/cli/model.h"
#include "tools/cli/report.h"

namespace sluice {
namespace cli {
namespace {

// Node names shown per unregistered op type in the text output before "and N more".
constexpr size_t kNodesShown = 5;

struct Output {
  std::string name;   // tensor name, or node name when unresolved
  std::string dtype;  // "unknown" when unresolved
  bool resolved = true;
};

struct Inspection {
  std::vector<ModelInput> inputs;
  std::vector<bool> needed;  // per input: some likely output needs it
  std::vector<Output> outputs;
  std::vector<std::pair<std::string, int>> histogram;  // most frequent first
  int64_t consts = 0;
  int64_t parameters = 0;  // elements held in Consts
  int64_t const_bytes = 0;
  std::vector<std::pair<std::string, std::vector<std::string>>> missing;  // device, ops
  std::vector<UnregisteredOp> unregistered;
  std::set<std::string> unregistered_ops;
  absl::Status structure;  // CheckGraphStructure's verdict (OK when not checked)
};

void CountConst(const NodeDef& node, Inspection* result) {
  auto value = node.attr().find("value");
  if (value == node.attr().end() || !value->second.has_tensor()) return;
  const TensorProto& tensor = value->second.tensor();
  int64_t elements = 1;
  for (const TensorShapeProto::Dim& dim : tensor.tensor_shape().dim()) {
    elements = dim.size() < 0 ? 0 : elements * dim.size();
  }
  ++result->consts;
  result->parameters += elements;
  if (tensor.dtype() == DT_STRING) {
    for (const std::string& s : tensor.string_val()) result->const_bytes += s.size();
  } else {
    result->const_bytes += elements * DataTypeSize(tensor.dtype());
  }
}

Inspection Inspect(const GraphDef& graph_def, std::vector<UnregisteredOp> unregistered) {
  Inspection result;
  result.unregistered = std::move(unregistered);
  for (const UnregisteredOp& op : result.unregistered) result.unregistered_ops.insert(op.op);
  result.inputs = ModelInputs(graph_def);
  std::vector<std::string> unresolved;
  std::vector<std::string> fetches;
  for (const std::string& output : LikelyOutputs(graph_def, &unresolved)) {
    std::string tensor;
    DataType dtype = DT_INVALID;
    ResolveOutput(graph_def, output, &tensor, &dtype).IgnoreError();
    result.outputs.push_back({output, DataTypeString(dtype)});
    fetches.push_back(output);
  }
  for (const std::string& node : unresolved) {
    result.outputs.push_back({node, "unknown", false});
    fetches.push_back(node);
  }
  const FetchNeeds needs = FindFetchNeeds(graph_def, fetches, {});
  const std::set<std::string> needed(needs.placeholders.begin(), needs.placeholders.end());
  for (const ModelInput& input : result.inputs) {
    result.needed.push_back(needed.count(input.name) > 0);
  }
  std::map<std::string, int> counts;
  for (const NodeDef& node : graph_def.node()) {
    ++counts[node.op()];
    if (node.op() == "Const") CountConst(node, &result);
  }
  result.histogram.assign(counts.begin(), counts.end());
  std::stable_sort(result.histogram.begin(), result.histogram.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const std::string& device : KnownDeviceTypes()) {
    result.missing.emplace_back(device, OpsWithoutKernel(graph_def, device));
  }
  return result;
}

size_t UnregisteredNodes(const Inspection& info) {
  size_t nodes = 0;
  for (const UnregisteredOp& op : info.unregistered) nodes += op.nodes.size();
  return nodes;
}

void PrintText(const Model& model, const Inspection& info) {
  const GraphDef& graph_def = model.graph_def;
  std::printf("Model: %s\n", Printable(model.path).c_str());
  std::printf("GraphDef versions: producer %d, min_consumer %d\n", graph_def.versions().producer(),
              graph_def.versions().min_consumer());
  std::printf("Nodes: %d\n", graph_def.node_size());
  std::printf("Inputs (%zu):\n", info.inputs.size());
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    const ModelInput& input = info.inputs[i];
    std::printf("  %s: %s%s\n", Printable(input.name).c_str(), DescribeInput(input).c_str(),
                info.needed[i] ? "" : " (no likely output needs it)");
  }
  std::printf("Likely outputs (%zu):\n", info.outputs.size());
  for (const Output& output : info.outputs) {
    std::printf("  %s: %s%s\n", Printable(output.name).c_str(), output.dtype.c_str(),
                output.resolved ? "" : " (its op is not registered)");
  }
  std::printf("Op types (%zu):\n", info.histogram.size());
  for (const auto& [op, count] : info.histogram) {
    std::printf("  %-28s %d%s\n", Printable(op).c_str(), count,
                info.unregistered_ops.count(op) > 0 ? "  (not registered)" : "");
  }
  if (!info.unregistered.empty()) {
    std::printf(
        "Unregistered ops (%zu type(s), %zu node(s)); this graph cannot run in this build:\n",
        info.unregistered.size(), UnregisteredNodes(info));
    for (const UnregisteredOp& op : info.unregistered) {
      std::printf("  %s (%zu node%s): %s\n", Printable(op.op).c_str(), op.nodes.size(),
                  op.nodes.size() == 1 ? "" : "s",
                  Printable(FirstNames(op.nodes, kNodesShown)).c_str());
    }
  }
  std::printf("Parameters: %lld values in %lld Consts, %lld bytes\n",
              static_cast<long long>(info.parameters), static_cast<long long>(info.consts),
              static_cast<long long>(info.const_bytes));
  std::printf("Kernels:\n");
  for (const auto& [device, ops] : info.missing) {
    if (ops.empty()) {
      std::printf("  %s: every op has a kernel\n", device.c_str());
    } else {
      std::printf("  %s: no kernel for %zu op(s): %s\n", device.c_str(), ops.size(),
                  Printable(absl::StrJoin(ops, ", ")).c_str());
    }
  }
  if (!info.structure.ok()) {
    std::printf("Invalid graph (run would reject it): %s\n",
                Printable(CapLength(info.structure.message())).c_str());
  }
}

void PrintJson(const Model& model, const Inspection& info) {
  JsonWriter json;
  json.BeginObject().Key("model").String(model.path);
  json.Key("versions").BeginObject();
  json.Key("producer").Int(model.graph_def.versions().producer());
  json.Key("min_consumer").Int(model.graph_def.versions().min_consumer());
  json.EndObject();
  json.Key("nodes").Int(model.graph_def.node_size());
  json.Key("inputs").BeginArray();
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    const ModelInput& input = info.inputs[i];
    json.BeginObject().Key("name").String(input.name);
    json.Key("dtype").String(DataTypeString(input.dtype));
    json.Key("shape");
    if (input.shape.unknown_rank()) {
      json.String("unknown");
    } else {
      json.BeginArray();
      for (int64_t dim : input.shape.dim_sizes()) json.Int(dim);
      json.EndArray();
    }
    json.Key("has_default").Bool(input.has_default);
    json.Key("needed").Bool(info.needed[i]).EndObject();
  }
  json.EndArray().Key("outputs").BeginArray();
  for (const Output& output : info.outputs) {
    json.BeginObject().Key("name").String(output.name).Key("dtype").String(output.dtype);
    json.EndObject();
  }
  json.EndArray().Key("op_types").BeginObject();
  for (const auto& [op, count] : info.histogram) json.Key(op).Int(count);
  json.EndObject();
  json.Key("consts").Int(info.consts).Key("parameters").Int(info.parameters);
  json.Key("const_bytes").Int(info.const_bytes);
  json.Key("ops_without_kernel").BeginObject();
  for (const auto& [device, ops] : info.missing) json.Key(device).StringArray(ops);
  json.EndObject();
  json.Key("valid").Bool(info.structure.ok());
  if (!info.structure.ok()) json.Key("invalid").String(CapLength(info.structure.message()));
  json.Key("can_run").Bool(info.unregistered.empty() && info.structure.ok());
  json.Key("unregistered_ops").BeginArray();
  for (const UnregisteredOp& op : info.unregistered) {
    json.BeginObject().Key("op").String(op.op);
    json.Key("node_count").Int(static_cast<int64_t>(op.nodes.size()));
    json.Key("nodes").StringArray(op.nodes).EndObject();
  }
  json.EndArray().EndObject();
  std::fputs(json.str().c_str(), stdout);
}

}  // namespace

int InspectCommand(const Args& args) {
  std::string path;
  bool json = false;
  ArgParser parser("inspect MODEL [--json]",
                   "Describes a frozen GraphDef: its inputs (Placeholders), likely outputs, op\n"
                   "types, parameters held in Consts, ops without a kernel on each device, and\n"
                   "the GraphDef versions. A graph with ops this build does not register is\n"
                   "described as far as possible, with those ops and their nodes listed; the\n"
                   "exit status is then 3 (and the JSON's \"can_run\" false): it cannot run here.\n"
                   "A graph that run would reject (a cycle, an input naming a missing node or\n"
                   "output, duplicate names, mismatched dtypes) is described, then reported as\n"
                   "invalid with exit status 1. A file with no nodes is an error.");
  parser.AddPositional("MODEL", "a .pb or .pbtxt GraphDef", &path);
  parser.AddBool("json", "print one JSON object instead of text", &json);
  const int parsed = HandleParseResult("inspect", parser, parser.Parse(args));
  if (parsed >= 0) return parsed;
  Model model;
  std::vector<UnregisteredOp> unregistered;
  absl::Status status = LoadModelForInspection(path, &model, &unregistered);
  if (!status.ok()) return ReportError("inspect", status);
  Inspection info = Inspect(model.graph_def, std::move(unregistered));
  if (info.unregistered.empty()) info.structure = CheckGraphStructure(model.graph_def);
  json ? PrintJson(model, info) : PrintText(model, info);
  if (!info.structure.ok()) {
    return ReportError(
        "inspect",
        errors::PrependToMessage(info.structure, "the graph is invalid (run would reject it): "));
  }
  if (info.unregistered.empty()) return 0;
  std::vector<std::string> ops;
  for (const UnregisteredOp& op : info.unregistered) ops.push_back(op.op);
  std::fflush(stdout);
  std::fprintf(stderr, "sluice inspect: this graph cannot run in this build: %s %s\n",
               ops.size() == 1 ? "op type not registered:" : "op types not registered:",
               Printable(absl::StrJoin(ops, ", ")).c_str());
  return kCannotRunExitCode;
}

}  // namespace cli
}  // namespace sluice
