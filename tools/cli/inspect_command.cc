// sluice inspect: what a model holds — inputs, likely outputs, op histogram, parameters,
// kernel coverage per device, versions — as text or JSON.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/types.h"
#include "tools/cli/args.h"
#include "tools/cli/commands.h"
#include "tools/cli/json_writer.h"
#include "tools/cli/kernel_info.h"
#include "tools/cli/model.h"
#include "tools/cli/report.h"

namespace sluice {
namespace cli {
namespace {

struct Inspection {
  std::vector<ModelInput> inputs;
  std::vector<std::pair<std::string, std::string>> outputs;  // tensor, dtype
  std::vector<std::pair<std::string, int>> histogram;        // most frequent first
  int64_t consts = 0;
  int64_t parameters = 0;  // elements held in Consts
  int64_t const_bytes = 0;
  std::vector<std::pair<std::string, std::vector<std::string>>> missing;  // device, ops
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

Inspection Inspect(const GraphDef& graph_def) {
  Inspection result;
  result.inputs = ModelInputs(graph_def);
  for (const std::string& output : LikelyOutputs(graph_def)) {
    std::string tensor;
    DataType dtype = DT_INVALID;
    ResolveOutput(graph_def, output, &tensor, &dtype).IgnoreError();
    result.outputs.emplace_back(output, DataTypeString(dtype));
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

void PrintText(const Model& model, const Inspection& info) {
  const GraphDef& graph_def = model.graph_def;
  std::printf("Model: %s\n", model.path.c_str());
  std::printf("GraphDef versions: producer %d, min_consumer %d\n", graph_def.versions().producer(),
              graph_def.versions().min_consumer());
  std::printf("Nodes: %d\n", graph_def.node_size());
  std::printf("Inputs (%zu):\n", info.inputs.size());
  for (const ModelInput& input : info.inputs) {
    std::printf("  %s: %s\n", input.name.c_str(), DescribeInput(input).c_str());
  }
  std::printf("Likely outputs (%zu):\n", info.outputs.size());
  for (const auto& [name, dtype] : info.outputs) {
    std::printf("  %s: %s\n", name.c_str(), dtype.c_str());
  }
  std::printf("Op types (%zu):\n", info.histogram.size());
  for (const auto& [op, count] : info.histogram) std::printf("  %-28s %d\n", op.c_str(), count);
  std::printf("Parameters: %lld values in %lld Consts, %lld bytes\n",
              static_cast<long long>(info.parameters), static_cast<long long>(info.consts),
              static_cast<long long>(info.const_bytes));
  std::printf("Kernels:\n");
  for (const auto& [device, ops] : info.missing) {
    if (ops.empty()) {
      std::printf("  %s: every op has a kernel\n", device.c_str());
    } else {
      std::printf("  %s: no kernel for %zu op(s): %s\n", device.c_str(), ops.size(),
                  absl::StrJoin(ops, ", ").c_str());
    }
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
  for (const ModelInput& input : info.inputs) {
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
    json.Key("has_default").Bool(input.has_default).EndObject();
  }
  json.EndArray().Key("outputs").BeginArray();
  for (const auto& [name, dtype] : info.outputs) {
    json.BeginObject().Key("name").String(name).Key("dtype").String(dtype).EndObject();
  }
  json.EndArray().Key("op_types").BeginObject();
  for (const auto& [op, count] : info.histogram) json.Key(op).Int(count);
  json.EndObject();
  json.Key("consts").Int(info.consts).Key("parameters").Int(info.parameters);
  json.Key("const_bytes").Int(info.const_bytes);
  json.Key("ops_without_kernel").BeginObject();
  for (const auto& [device, ops] : info.missing) json.Key(device).StringArray(ops);
  json.EndObject().EndObject();
  std::fputs(json.str().c_str(), stdout);
}

}  // namespace

int InspectCommand(const Args& args) {
  std::string path;
  bool json = false;
  ArgParser parser("inspect MODEL [--json]",
                   "Describes a frozen GraphDef: its inputs (Placeholders), likely outputs, op\n"
                   "types, parameters held in Consts, ops without a kernel on each device, and\n"
                   "the GraphDef versions.");
  parser.AddPositional("MODEL", "a .pb or .pbtxt GraphDef", &path);
  parser.AddBool("json", "print one JSON object instead of text", &json);
  const int parsed = HandleParseResult("inspect", parser, parser.Parse(args));
  if (parsed >= 0) return parsed;
  Model model;
  absl::Status status = LoadModel(path, &model);
  if (!status.ok()) return ReportError("inspect", status);
  const Inspection info = Inspect(model.graph_def);
  json ? PrintJson(model, info) : PrintText(model, info);
  return 0;
}

}  // namespace cli
}  // namespace sluice
