// Executor overhead per node: a chain of cheap nodes (each waits for the previous one) and
// a wide fan-in (many roots feeding one node), inline and with a thread-pool runner. The
// kernels do almost nothing, so the time is the executor's: the counter ns_per_node is
// the wall time of a step divided by its number of nodes.
//
//   bazel run -c opt //runtime:executor_benchmark
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "benchmark/benchmark.h"
#include "graph/core/allocator.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "runtime/device/device.h"
#include "runtime/executor/executor.h"
#include "runtime/executor/executor_test_ops.h"
#include "runtime/framework/create_op_kernel.h"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {
namespace {

constexpr int kNodes = 1000;

std::string ChainGraph(int n) {
  std::string text =
      "node { name: 'n0' op: 'ExecTestConst' attr { key: 'value' value { f: 0 } } }\n";
  for (int i = 1; i < n; ++i) {
    absl::StrAppend(&text, "node { name: 'n", i, "' op: 'ExecTestAddOne' input: 'n", i - 1,
                    "' }\n");
  }
  return text;
}

std::string FanInGraph(int n) {
  std::string text;
  std::string sum = "node { name: 'sum' op: 'ExecTestSum' ";
  for (int i = 0; i < n - 1; ++i) {
    absl::StrAppend(&text, "node { name: 'c", i,
                    "' op: 'ExecTestConst' attr { key: 'value' value { f: 1 } } }\n");
    absl::StrAppend(&sum, "input: 'c", i, "' ");
  }
  absl::StrAppend(&sum, "attr { key: 'N' value { i: ", n - 1, " } } }\n");
  return text + sum;
}

void RunGraph(benchmark::State& state, const std::string& text, bool use_runner) {
  std::unique_ptr<Device> device = test::NewExecutorTestDevice();
  auto graph = std::make_unique<Graph>(OpRegistry::Global());
  absl::Status s = GraphFromTextForTest(text, graph.get());
  if (!s.ok()) {
    state.SkipWithError(std::string(s.message()).c_str());
    return;
  }
  const int num_nodes = graph->num_op_nodes();
  LocalExecutorParams params;
  params.device = device.get();
  Device* d = device.get();
  params.create_kernel = [d](const Node& node, std::unique_ptr<OpKernel>* kernel) {
    return CreateOpKernel(DEVICE_CPU, d, DefaultCpuAllocator(), node.def(), kernel);
  };
  std::unique_ptr<Executor> executor;
  s = NewLocalExecutor(params, std::move(graph), &executor);
  if (!s.ok()) {
    state.SkipWithError(std::string(s.message()).c_str());
    return;
  }
  Eigen::ThreadPool pool(4);
  Executor::Args args;
  if (use_runner) {
    args.runner = [&pool](std::function<void()> fn) { pool.Schedule(std::move(fn)); };
  }
  const absl::Time start = absl::Now();
  for (auto _ : state) {
    s = executor->Run(args);
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
  }
  const double elapsed_ns = absl::ToDoubleNanoseconds(absl::Now() - start);
  state.counters["ns_per_node"] =
      elapsed_ns / (static_cast<double>(state.iterations()) * num_nodes);
}

void BM_Chain(benchmark::State& state) { RunGraph(state, ChainGraph(kNodes), state.range(0)); }
void BM_FanIn(benchmark::State& state) { RunGraph(state, FanInGraph(kNodes), state.range(0)); }

// Arg: 0 = inline on the calling thread, 1 = with a 4-thread runner.
BENCHMARK(BM_Chain)->Arg(0)->Arg(1)->UseRealTime();
BENCHMARK(BM_FanIn)->Arg(0)->Arg(1)->UseRealTime();

}  // namespace
}  // namespace sluice

BENCHMARK_MAIN();
