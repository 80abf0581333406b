// Session runtime benchmark, TensorFlow side from C++: the same graphs and method as
// session_bench.cc, run through TensorFlow's C API (TF_SessionRun), so that the per-call
// figure compares C++ with C++ and carries no Python.
//
//   tf_capi_session_bench --graph_dir=DIR [--reps=25] [--threads=8]
//
// DIR holds what `tf_session_bench.py --write=DIR` wrote: chain.pb, fanin.pb, one_node.pb
// and config.pb (the ConfigProto both TensorFlow sides use: the inter/intra-op thread counts
// and Grappler off). Each graph gets its own TF_Session; "x:0" is fed (a float scalar 1.0)
// where the graph has a node "x"; "out:0" is fetched. The last line is "JSON {...}" with the
// keys session_bench.cc prints.
//
// Not built by Bazel: run_session_bench.sh compiles it with g++ against the headers and
// libtensorflow_cc.so.2 / libtensorflow_framework.so.2 of the installed pip wheel.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tensorflow/c/c_api.h"

namespace {

struct Flags {
  std::string graph_dir;
  int reps = 25;
  int threads = 8;
};

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "tf_capi_session_bench: %s\n", what.c_str());
  std::exit(1);
}

void CheckOk(TF_Status* status, const std::string& what) {
  if (TF_GetCode(status) != TF_OK) Die(what + ": " + TF_Message(status));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot read " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// One graph in its own session, with its feed and fetch resolved once.
struct Bench {
  TF_Graph* graph = nullptr;
  TF_Session* session = nullptr;
  std::vector<TF_Output> inputs;
  std::vector<TF_Tensor*> input_values;
  TF_Output output{};
  int num_nodes = 0;

  void RunOnce() const {
    TF_Status* status = TF_NewStatus();
    TF_Tensor* result = nullptr;
    TF_SessionRun(session, nullptr, inputs.data(), input_values.data(),
                  static_cast<int>(inputs.size()), &output, &result, 1, nullptr, 0, nullptr,
                  status);
    CheckOk(status, "TF_SessionRun");
    TF_DeleteTensor(result);
    TF_DeleteStatus(status);
  }
  void RunBatch(int n) const {
    for (int i = 0; i < n; ++i) RunOnce();
  }
};

void LoadBench(const Flags& flags, const std::string& name, const std::string& config,
               Bench* bench) {
  const std::string graph_def = ReadFile(flags.graph_dir + "/" + name + ".pb");
  TF_Status* status = TF_NewStatus();
  bench->graph = TF_NewGraph();
  TF_Buffer* buffer = TF_NewBufferFromString(graph_def.data(), graph_def.size());
  TF_ImportGraphDefOptions* import_options = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(bench->graph, buffer, import_options, status);
  CheckOk(status, "importing " + name);
  TF_DeleteImportGraphDefOptions(import_options);
  TF_DeleteBuffer(buffer);
  size_t pos = 0;
  while (TF_GraphNextOperation(bench->graph, &pos) != nullptr) ++bench->num_nodes;

  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_SetConfig(options, config.data(), config.size(), status);
  CheckOk(status, "TF_SetConfig");
  bench->session = TF_NewSession(bench->graph, options, status);
  CheckOk(status, "TF_NewSession");
  TF_DeleteSessionOptions(options);

  if (TF_Operation* x = TF_GraphOperationByName(bench->graph, "x"); x != nullptr) {
    bench->inputs.push_back({x, 0});
    TF_Tensor* value = TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float));
    *static_cast<float*>(TF_TensorData(value)) = 1.0f;
    bench->input_values.push_back(value);
  }
  TF_Operation* out = TF_GraphOperationByName(bench->graph, "out");
  if (out == nullptr) Die(name + " has no node 'out'");
  bench->output = {out, 0};
  TF_DeleteStatus(status);
  bench->RunBatch(20);  // warm-up; the first Run builds the executors
}

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Summary {
  double median = 0;
  double best = 0;  // smallest time, or largest throughput
};

Summary TimeRuns(const Bench& bench, int reps, int batch) {
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    const Clock::time_point start = Clock::now();
    bench.RunBatch(batch);
    samples.push_back(Seconds(start) * 1e6 / batch);
  }
  std::sort(samples.begin(), samples.end());
  return {samples[samples.size() / 2], samples.front()};
}

Summary Throughput(const Bench& bench, int reps, int threads, int batch) {
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    std::vector<std::thread> workers;
    const Clock::time_point start = Clock::now();
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&bench, batch] { bench.RunBatch(batch); });
    }
    for (std::thread& w : workers) w.join();
    samples.push_back(threads * batch / Seconds(start));
  }
  std::sort(samples.begin(), samples.end());
  return {samples[samples.size() / 2], samples.back()};
}

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) Die("expected --name=value: " + arg);
    const std::string name = arg.substr(2, eq - 2);
    const std::string value = arg.substr(eq + 1);
    if (name == "graph_dir") {
      flags.graph_dir = value;
    } else if (name == "reps" || name == "threads") {
      const int n = std::atoi(value.c_str());
      if (n < 1) Die("--" + name + " must be a positive integer");
      (name == "reps" ? flags.reps : flags.threads) = n;
    } else if (name != "inter_op" && name != "intra_op") {
      // The thread counts are in config.pb; the flags are accepted for symmetry.
      Die("unknown flag --" + name);
    }
  }
  if (flags.graph_dir.empty()) Die("--graph_dir is required");
  return flags;
}

}  // namespace

int main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  const std::string config = ReadFile(flags.graph_dir + "/config.pb");
  Bench chain, fanin, one_node;
  LoadBench(flags, "chain", config, &chain);
  LoadBench(flags, "fanin", config, &fanin);
  LoadBench(flags, "one_node", config, &one_node);

  const Summary chain_us = TimeRuns(chain, flags.reps, 20);
  const Summary fanin_us = TimeRuns(fanin, flags.reps, 20);
  const Summary one_us = TimeRuns(one_node, flags.reps, 2000);
  const Summary tp1 = Throughput(one_node, flags.reps, 1, 4000);
  const Summary tpn = Throughput(one_node, flags.reps, flags.threads, 4000);

  std::printf("TensorFlow %s session benchmark (C API, TF_SessionRun): reps=%d\n", TF_Version(),
              flags.reps);
  std::printf("  chain     %5d nodes  step %9.1f us (min %9.1f)  %.3f us/AddV2\n", chain.num_nodes,
              chain_us.median, chain_us.best, chain_us.median / 1000);
  std::printf("  fanin     %5d nodes  step %9.1f us (min %9.1f)  %.3f us/op\n", fanin.num_nodes,
              fanin_us.median, fanin_us.best, fanin_us.median / 1001);
  std::printf("  one_node  %5d nodes  Run  %9.2f us (min %9.2f)\n", one_node.num_nodes,
              one_us.median, one_us.best);
  std::printf("  one_node  1 thread %10.0f runs/s; %d threads %10.0f runs/s (x%.2f)\n", tp1.median,
              flags.threads, tpn.median, tpn.median / tp1.median);
  std::printf(
      "JSON {\"reps\": %d, \"chain_step_us\": %.3f, \"chain_step_min_us\": %.3f, "
      "\"chain_us_per_node\": %.4f, \"fanin_step_us\": %.3f, \"fanin_step_min_us\": %.3f, "
      "\"fanin_us_per_op\": %.4f, \"one_node_run_us\": %.3f, \"one_node_run_min_us\": %.3f, "
      "\"threads\": %d, \"runs_per_s_1\": %.1f, \"runs_per_s_n\": %.1f, "
      "\"runs_per_s_n_best\": %.1f}\n",
      flags.reps, chain_us.median, chain_us.best, chain_us.median / 1000, fanin_us.median,
      fanin_us.best, fanin_us.median / 1001, one_us.median, one_us.best, flags.threads, tp1.median,
      tpn.median, tpn.best);
  for (Bench* b : {&chain, &fanin, &one_node}) {
    TF_Status* status = TF_NewStatus();
    TF_CloseSession(b->session, status);
    TF_DeleteSession(b->session, status);
    TF_DeleteStatus(status);
    for (TF_Tensor* t : b->input_values) TF_DeleteTensor(t);
    TF_DeleteGraph(b->graph);
  }
  return 0;
}
