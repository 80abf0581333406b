// op_kernel_fuzzer: random tensors into one op, as TensorFlow's per-op fuzzers do; built
// once per kernel family (fuzz/BUILD), so each binary links, and draws from, only that
// family's kernels.
//
// The bytes describe one node of an op with a CPU kernel in this binary, its attrs and its
// Const inputs (fuzz/op_graph_generator.h). The graph is imported with its shape functions
// run, and the node's kernel runs on the host through HostConstantEvaluator, as constant
// folding runs it, when constant folding would (the op is stateless, not control flow, and
// produces no handles); without the session or the executor, so a family's binary is small
// and quick to build.
//
// Properties: nothing crashes; a kernel that succeeds returns one tensor per output, of the
// dtype the op's signature gives it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fuzz/byte_source.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_logging.h"
#include "fuzz/op_graph_generator.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/op/op_registry.h"
#include "runtime/session/host_constant_evaluator.h"

namespace sluice {
namespace fuzz {
namespace {

const std::vector<KernelDef>& Kernels() {
  static const auto* kernels = new std::vector<KernelDef>(FuzzableCpuKernels());
  return *kernels;
}

// What constant folding would hand the evaluator (passes/constant_folding.cc).
bool Foldable(const Node& node) {
  if (node.IsStateful() || node.IsControlFlow()) return false;
  for (DataType t : node.output_types()) {
    if (t == DT_RESOURCE || t == DT_VARIANT) return false;
  }
  return true;
}

void RunOne(ByteSource* bytes) {
  OpGraph op_graph;
  OpGraphOptions generate;
  generate.allow_placeholders = false;
  const absl::Status generated = GenerateOpGraph(Kernels(), generate, bytes, &op_graph);
  const std::string what = absl::StrJoin(op_graph.ops, ",");
  if (!generated.ok()) return LogCase("generate", what, generated);
  LogGraph(op_graph.graph.DebugString());
  Graph graph(OpRegistry::Global());
  GraphConstructorOptions import_options;
  import_options.validate_shape = true;
  const absl::Status imported = ConvertGraphDefToGraph(import_options, op_graph.graph, &graph);
  if (!imported.ok()) return LogCase("import", what, imported);

  // The generated op is the last node, after its Const inputs.
  std::vector<const Node*> nodes;
  for (const Node* node : graph.op_nodes()) nodes.push_back(node);
  const Node* op = nodes.back();
  HostConstantEvaluator evaluator;
  if (!Foldable(*op) || !evaluator.CanEvaluate(*op)) {
    return LogCase("skip", what, errors::Unimplemented("not what constant folding runs"));
  }
  std::vector<std::pair<const Node*, int>> outputs;
  for (int i = 0; i < op->num_outputs(); ++i) outputs.emplace_back(op, i);
  std::vector<Tensor> values;
  const absl::Status evaluated = evaluator.Evaluate(nodes, outputs, &values);
  LogCase("evaluate", what, evaluated);
  if (!evaluated.ok()) return;
  FuzzCheck(values.size() == outputs.size(), "one value per output", op->DebugString());
  for (size_t i = 0; i < values.size(); ++i) {
    FuzzCheck(
        values[i].dtype() == op->output_type(static_cast<int>(i)),
        "an output has the signature's dtype",
        absl::StrCat(op->DebugString(), " output ", i, ": ", DataTypeString(values[i].dtype())));
  }
}

}  // namespace
}  // namespace fuzz
}  // namespace sluice

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  sluice::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sluice::fuzz::ByteSource bytes(data, size);
  sluice::fuzz::RunOne(&bytes);
  return 0;
}
