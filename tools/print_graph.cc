// print_graph: loads a TensorFlow GraphDef (.pb or .pbtxt), checks it against Sluice's op
// registry with default attrs filled in, and prints a summary: versions, node count, an
// op-type histogram, the inputs (Placeholders), the outputs (nodes nothing reads), and every
// node with its inputs and output dtypes.
//
//   print_graph MODEL.pb|MODEL.pbtxt
//   bazel run //tools:print_graph -- tests/fixtures/cnn.pb
//
// Exit status: 0 on success, 1 if the file cannot be loaded or the graph is invalid (the
// reason goes to stderr), 2 on a usage error.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/import/graph_def_io.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/tensor_id.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

// "[?,8,8,1]", "[]" for a scalar, "<unknown rank>".
std::string ShapeString(const TensorShapeProto& shape) {
  if (shape.unknown_rank()) return "<unknown rank>";
  std::vector<std::string> dims;
  for (const TensorShapeProto::Dim& dim : shape.dim()) {
    dims.push_back(dim.size() < 0 ? "?" : absl::StrCat(dim.size()));
  }
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// "float", or "(float, float, float)" for several outputs, "()" for none.
std::string OutputTypesString(const NodeDef& node) {
  const OpDef* op_def = nullptr;
  DataTypeVector inputs, outputs;
  if (!OpRegistry::Global()->LookUpOpDef(node.op(), &op_def).ok() ||
      !InOutTypesForNode(node, *op_def, &inputs, &outputs).ok()) {
    return "?";
  }
  std::vector<std::string> names;
  for (DataType dtype : outputs) names.push_back(DataTypeString(dtype));
  if (names.size() == 1) return names[0];
  return absl::StrCat("(", absl::StrJoin(names, ", "), ")");
}

void PrintHistogram(const GraphDef& graph_def) {
  std::map<std::string, int> counts;
  for (const NodeDef& node : graph_def.node()) ++counts[node.op()];
  std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::printf("Op types (%zu):\n", sorted.size());
  for (const auto& [op, count] : sorted) std::printf("  %-24s %d\n", op.c_str(), count);
}

void PrintInputs(const GraphDef& graph_def) {
  std::vector<std::string> lines;
  for (const NodeDef& node : graph_def.node()) {
    if (node.op() != "Placeholder" && node.op() != "PlaceholderWithDefault") continue;
    std::string line = absl::StrCat(node.name(), ": ", OutputTypesString(node));
    auto shape = node.attr().find("shape");
    if (shape != node.attr().end() && shape->second.has_shape()) {
      absl::StrAppend(&line, " ", ShapeString(shape->second.shape()));
    }
    if (node.op() == "PlaceholderWithDefault") absl::StrAppend(&line, " (has a default)");
    lines.push_back(std::move(line));
  }
  std::printf("Inputs (%zu):\n", lines.size());
  for (const std::string& line : lines) std::printf("  %s\n", line.c_str());
}

// Outputs are the nodes no other node reads, data or control: what a user would fetch.
void PrintOutputs(const GraphDef& graph_def) {
  std::set<std::string> read;
  for (const NodeDef& node : graph_def.node()) {
    for (const std::string& input : node.input()) {
      read.insert(std::string(ParseTensorName(input).node));
    }
  }
  std::vector<std::string> lines;
  for (const NodeDef& node : graph_def.node()) {
    if (read.count(node.name()) == 0) {
      lines.push_back(absl::StrCat(node.name(), ": ", OutputTypesString(node)));
    }
  }
  std::printf("Outputs (%zu):\n", lines.size());
  for (const std::string& line : lines) std::printf("  %s\n", line.c_str());
}

// Each node as "name = Op(inputs) -> output types", with a Const's shape appended.
void PrintNodes(const GraphDef& graph_def) {
  std::printf("Nodes:\n");
  for (const NodeDef& node : graph_def.node()) {
    std::string outputs = OutputTypesString(node);
    auto value = node.attr().find("value");
    if (node.op() == "Const" && value != node.attr().end() && value->second.has_tensor()) {
      absl::StrAppend(&outputs, " ", ShapeString(value->second.tensor().tensor_shape()));
    }
    std::printf("  %s = %s(%s) -> %s\n", node.name().c_str(), node.op().c_str(),
                absl::StrJoin(node.input(), ", ").c_str(), outputs.c_str());
  }
}

absl::Status Run(const std::string& path) {
  GraphDef graph_def;
  RETURN_IF_ERROR(ReadGraphDefFile(path, &graph_def));
  RETURN_IF_ERROR(CheckGraphDefVersions(graph_def.versions()));
  RETURN_IF_ERROR(AddDefaultAttrsToGraphDef(&graph_def, *OpRegistry::Global()));
  RETURN_IF_ERROR(ValidateGraphDefAgainstOpRegistry(graph_def, *OpRegistry::Global()));

  std::printf("GraphDef: %s\n", path.c_str());
  std::printf("Versions: producer %d, min_consumer %d\n", graph_def.versions().producer(),
              graph_def.versions().min_consumer());
  std::printf("Nodes: %d\n", graph_def.node_size());
  if (graph_def.library().function_size() > 0) {
    std::printf("Functions: %d\n", graph_def.library().function_size());
  }
  PrintHistogram(graph_def);
  PrintInputs(graph_def);
  PrintOutputs(graph_def);
  PrintNodes(graph_def);
  return absl::OkStatus();
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) {
  if (argc != 2 || argv[1][0] == '\0') {
    std::fprintf(stderr, "usage: %s MODEL.pb|MODEL.pbtxt\n", argc > 0 ? argv[0] : "print_graph");
    return 2;
  }
  // Under `bazel run` the working directory is the runfiles tree; resolve relative paths
  // against the directory the user ran bazel from.
  std::string path = argv[1];
  const char* user_dir = std::getenv("BUILD_WORKING_DIRECTORY");
  if (user_dir != nullptr && path[0] != '/') path = absl::StrCat(user_dir, "/", path);
  absl::Status status = sluice::Run(path);
  if (!status.ok()) {
    std::fprintf(stderr, "print_graph: error: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
