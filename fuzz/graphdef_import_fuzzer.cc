// graphdef_import_fuzzer: bytes -> GraphDef -> Graph -> the pass pipeline, the path every
// model takes before it runs (`sluice optimize` and Session::Create).
//
// Input: one mode byte, then the GraphDef. Mode bits: 0 set: the GraphDef is text format,
// else binary; 1 set: opt_level L0 (prune, place and partition only), else L1 (constant
// folding on the host CPU kernels, CSE, simplification, the fusions); 2 set: fetch output 0
// of every op node (protected nodes everywhere), else the graph's likely outputs (outputs
// nothing reads, as `sluice run` picks them).
//
// The graph is imported as TensorFlow's ImportGraphDef does (every node's shape function
// runs) and then goes through RunPipeline for one CPU device, as `sluice optimize` runs it.
// Property: nothing crashes, whatever the bytes; any step may fail with a Status.
//
// This binary links the plumbing, array and math kernel families only, so that its sanitizer
// build stays short enough for CI: constant folding evaluates what those kernels compute
// (shapes, sizes, index arithmetic: where folding meets hostile values). Placement and the
// remapper ask the kernel registry which kernels exist; an op none of whose kernels is
// linked here (a convolution) is taken to have a CPU kernel, as it has in the full build,
// so that such graphs still reach the fusion passes.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_logging.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_def_io.h"
#include "graph/op/op_registry.h"
#include "passes/pipeline.h"
#include "proto/graph.pb.h"
#include "proto/kernel_def.pb.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/session/host_constant_evaluator.h"
#include "runtime/session/runtime_device_support.h"

namespace sluice {
namespace fuzz {
namespace {

constexpr char kDevice[] = "/job:localhost/replica:0/task:0/device:CPU:0";
// More fetches only repeat the same paths; fewer keep every run short.
constexpr int kMaxFetches = 16;

enum ModeBits : uint8_t { kText = 1, kLevelZero = 2, kFetchAll = 4 };

// Outputs a user most likely wants, as `sluice run` chooses them: every output of op nodes
// whose data outputs nothing reads, but for Placeholders (fed, not fetched).
std::vector<std::string> Fetches(const Graph& graph, bool all_nodes) {
  std::vector<std::string> fetches;
  for (const Node* node : graph.op_nodes()) {
    if (node->num_outputs() == 0 || node->IsPlaceholder()) continue;
    if (all_nodes) {
      fetches.push_back(absl::StrCat(node->name(), ":0"));
    } else {
      bool read = false;
      for (const Edge* edge : node->out_edges()) read |= !edge->IsControlEdge();
      if (read) continue;
      for (int i = 0; i < node->num_outputs(); ++i) {
        fetches.push_back(absl::StrCat(node->name(), ":", i));
      }
    }
    if (static_cast<int>(fetches.size()) >= kMaxFetches) break;
  }
  return fetches;
}

bool KernelsLinkedFor(const std::string& op) {
  return GetRegisteredKernelsForOp(op).kernel_size() > 0;
}

// MakeDeviceSupport, with the CPU for ops whose kernels this binary does not link.
DeviceSupport CpuDeviceSupport() {
  DeviceSupport linked = MakeDeviceSupport({DeviceType(DEVICE_CPU)});
  DeviceSupport support;
  support.supported_device_types = [linked](const Node& node,
                                            std::vector<std::string>* types) -> absl::Status {
    if (KernelsLinkedFor(node.type_string())) {
      return linked.supported_device_types(node, types);
    }
    *types = {DEVICE_CPU};
    return absl::OkStatus();
  };
  return support;
}

// MakeKernelExists, true for ops whose kernels this binary does not link.
std::function<bool(const NodeDef&, const std::string&)> CpuKernelExists() {
  return [linked = MakeKernelExists()](const NodeDef& node, const std::string& device) {
    return !KernelsLinkedFor(node.op()) || linked(node, device);
  };
}

void RunOne(uint8_t mode, absl::string_view bytes) {
  GraphDef graph_def;
  const absl::Status parsed =
      (mode & kText) != 0 ? ParseTextProto(bytes, &graph_def) : ParseBinaryProto(bytes, &graph_def);
  if (!parsed.ok()) return LogCase("parse", "", parsed);
  const std::string what = absl::StrCat(graph_def.node_size(), " nodes");
  auto graph = std::make_unique<Graph>(OpRegistry::Global());
  GraphConstructorOptions import_options;
  import_options.allow_internal_ops = true;
  import_options.validate_shape = true;
  const absl::Status imported =
      ConvertGraphDefToGraph(import_options, std::move(graph_def), graph.get());
  if (!imported.ok()) return LogCase("import", what, imported);

  PipelineOptions opts;
  opts.prune.fetches = Fetches(*graph, (mode & kFetchAll) != 0);
  if (opts.prune.fetches.empty()) return;
  opts.prune.rewrite_feeds_and_fetches = false;
  opts.optimizer_options.set_opt_level((mode & kLevelZero) != 0 ? OptimizerOptions::L0
                                                                : OptimizerOptions::L1);
  opts.placer.devices.push_back({kDevice, DEVICE_CPU});
  opts.placer.device_support = CpuDeviceSupport();
  opts.placer.allow_soft_placement = true;
  opts.placer.default_device = kDevice;
  // One per input: its kernel cache would otherwise grow with every graph.
  HostConstantEvaluator evaluator;
  opts.constant_evaluator = &evaluator;
  opts.kernel_exists = CpuKernelExists();
  opts.partition.get_incarnation = [](const std::string&) -> uint64_t { return 1; };
  SetMemoryTypeCallbacks(&opts.partition);
  PipelineResult result;
  LogCase("pipeline", what, RunPipeline(opts, std::move(graph), &result));
}

}  // namespace
}  // namespace fuzz
}  // namespace sluice

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  sluice::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  sluice::fuzz::RunOne(data[0],
                       absl::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  return 0;
}
