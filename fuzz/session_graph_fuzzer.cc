// session_graph_fuzzer: graphs of one to three registered ops, built from the bytes
// (fuzz/op_graph_generator.h), run in a DirectSession: Create (import, shape functions) and
// one Run (pruning, placement, constant folding of the Const inputs on the host, the
// executor and the CPU kernels of fed Placeholders).
//
// Input: the first decision picks the optimizer level (L1 folds Const inputs, so kernels run
// in the folder; L0 runs them in the executor), the rest the graph. Every link of the
// session is in this binary, so every CPU kernel can be drawn.
//
// Properties: nothing crashes or hangs (a step has a 5 s deadline; libFuzzer's -timeout
// catches what ignores it); a successful Run returns one tensor per fetch, of the dtype the
// op's signature gives it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fuzz/byte_source.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_logging.h"
#include "fuzz/op_graph_generator.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "proto/config.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace fuzz {
namespace {

constexpr int64_t kStepTimeoutMs = 5000;

const std::vector<KernelDef>& Kernels() {
  static const auto* kernels = new std::vector<KernelDef>(FuzzableCpuKernels());
  return *kernels;
}

void CheckOutputs(const OpGraph& op_graph, const std::vector<Tensor>& outputs) {
  FuzzCheck(outputs.size() == op_graph.fetches.size(), "Run returns one tensor per fetch",
            op_graph.graph.DebugString());
  for (size_t i = 0; i < outputs.size(); ++i) {
    FuzzCheck(
        outputs[i].dtype() == op_graph.fetch_types[i], "a fetch has its output's dtype",
        absl::StrCat(op_graph.fetches[i], ": ", DataTypeString(outputs[i].dtype()), " for ",
                     DataTypeString(op_graph.fetch_types[i]), "\n", op_graph.graph.DebugString()));
  }
}

void RunOne(ByteSource* bytes) {
  const bool fold = bytes->Bool();
  OpGraph op_graph;
  OpGraphOptions generate;
  generate.max_ops = 3;
  const absl::Status generated = GenerateOpGraph(Kernels(), generate, bytes, &op_graph);
  const std::string what = absl::StrJoin(op_graph.ops, ",");
  if (!generated.ok()) return LogCase("generate", what, generated);
  LogGraph(op_graph.graph.DebugString());

  SessionOptions options;
  // One thread per pool: sessions come and go with every input.
  options.config.set_intra_op_parallelism_threads(1);
  options.config.set_inter_op_parallelism_threads(1);
  options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      fold ? OptimizerOptions::L1 : OptimizerOptions::L0);
  std::unique_ptr<Session> session;
  if (!NewSession(options, &session).ok()) return;
  const absl::Status created = session->Create(op_graph.graph);
  if (!created.ok()) return LogCase("create", what, created);
  RunOptions run_options;
  run_options.set_timeout_in_ms(kStepTimeoutMs);
  std::vector<Tensor> outputs;
  const absl::Status status = session->Run(run_options, op_graph.feeds, op_graph.fetches,
                                           op_graph.targets, &outputs, nullptr);
  LogCase(fold ? "run-folded" : "run", what, status);
  if (status.ok()) CheckOutputs(op_graph, outputs);
  session->Close().IgnoreError();
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
