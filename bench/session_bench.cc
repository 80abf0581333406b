// Session runtime benchmark: the cost of Session::Run on graphs whose kernels do almost
// nothing, so that what is timed is the runtime (executor, session, call frame), not math.
//
//   session_bench --graph_dir=DIR [--reps=25] [--inter_op=2] [--intra_op=1] [--threads=8]
//                 [--only=chain|fanin|one_node|threads]
//
// DIR holds the GraphDefs bench/tf_session_bench.py writes (the same files TensorFlow runs):
//   chain.pb     Placeholder x (float scalar) and 1,000 AddV2s, each adding x to the previous
//                one; fetch "out:0".
//   fanin.pb     x, 1,000 scalar Consts c_i, 1,000 AddV2(x, c_i), one AddN of them; "out:0".
//   one_node.pb  a single scalar Const "out".
// Every graph with a node "x" is run with x fed (a scalar 1.0).
//
// Method: one session per graph (ConfigProto with the given inter/intra-op thread counts),
// 20 warm-up Runs (the first builds and caches the executors), then `reps` repetitions of a
// batch of Runs; a repetition's figure is its wall time divided by the batch size; the
// median and minimum over repetitions are printed. The concurrency case runs the one-node
// graph from `threads` threads at once (each a batch of Runs) and from one thread, and
// reports runs per second (median over repetitions) and their ratio. The last line is
// "JSON {...}" with every figure, for run_session_bench.sh. --only=CASE times that case alone
// (after loading all three graphs) and prints no JSON: for profilers such as callgrind.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/import/graph_def_io.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

struct Flags {
  std::string graph_dir;
  int reps = 25;
  int inter_op = 2;
  int intra_op = 1;
  int threads = 8;
  std::string only;  // empty: every case
};

absl::Status ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    const size_t eq = arg.find('=');
    if (!absl::StartsWith(arg, "--") || eq == absl::string_view::npos) {
      return errors::InvalidArgument("expected --name=value, got '", arg, "'");
    }
    const absl::string_view name = arg.substr(2, eq - 2);
    const absl::string_view value = arg.substr(eq + 1);
    if (name == "graph_dir" || name == "only") {
      (name == "only" ? flags->only : flags->graph_dir) = std::string(value);
      continue;
    }
    int* target = name == "reps"       ? &flags->reps
                  : name == "inter_op" ? &flags->inter_op
                  : name == "intra_op" ? &flags->intra_op
                  : name == "threads"  ? &flags->threads
                                       : nullptr;
    if (target == nullptr) return errors::InvalidArgument("unknown flag --", name);
    if (!absl::SimpleAtoi(value, target) || *target < 0) {
      return errors::InvalidArgument("--", name, " needs a non-negative integer, got '", value,
                                     "'");
    }
  }
  if (flags->graph_dir.empty()) return errors::InvalidArgument("--graph_dir is required");
  if (!flags->only.empty() && flags->only != "chain" && flags->only != "fanin" &&
      flags->only != "one_node" && flags->only != "threads") {
    return errors::InvalidArgument("--only must be chain, fanin, one_node or threads, got '",
                                   flags->only, "'");
  }
  if (flags->reps < 1 || flags->threads < 1) {
    return errors::InvalidArgument("--reps and --threads must be at least 1");
  }
  return absl::OkStatus();
}

// One loaded graph in its own session, ready to Run.
struct Bench {
  std::unique_ptr<Session> session;
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::string> fetches = {"out:0"};
  int num_nodes = 0;

  absl::Status RunOnce() const {
    std::vector<Tensor> outputs;
    return session->Run(feeds, fetches, {}, &outputs);
  }
  // Runs `n` steps; the first failure is returned.
  absl::Status RunBatch(int n) const {
    for (int i = 0; i < n; ++i) RETURN_IF_ERROR(RunOnce());
    return absl::OkStatus();
  }
};

absl::Status LoadBench(const Flags& flags, const std::string& name, Bench* bench) {
  GraphDef graph;
  RETURN_IF_ERROR(ReadGraphDefFile(absl::StrCat(flags.graph_dir, "/", name, ".pb"), &graph));
  bench->num_nodes = graph.node_size();
  for (const NodeDef& node : graph.node()) {
    if (node.name() == "x") bench->feeds.emplace_back("x:0", Tensor(1.0f));
  }
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(flags.inter_op);
  options.config.set_intra_op_parallelism_threads(flags.intra_op);
  RETURN_IF_ERROR(NewSession(options, &bench->session));
  RETURN_IF_ERROR(bench->session->Create(graph));
  return bench->RunBatch(20);  // warm-up; the first Run builds the executors
}

struct Summary {
  double median = 0;
  double min = 0;
};

Summary Summarize(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {values[values.size() / 2], values.front()};
}

// Median / min microseconds per Run over `reps` batches of `batch` Runs.
absl::Status TimeRuns(const Bench& bench, int reps, int batch, Summary* us_per_run) {
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    const absl::Time start = absl::Now();
    RETURN_IF_ERROR(bench.RunBatch(batch));
    samples.push_back(absl::ToDoubleMicroseconds(absl::Now() - start) / batch);
  }
  *us_per_run = Summarize(std::move(samples));
  return absl::OkStatus();
}

// Runs per second with `threads` threads each running `batch` Runs, median over reps.
absl::Status Throughput(const Bench& bench, int reps, int threads, int batch, Summary* runs_per_s) {
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    std::vector<absl::Status> statuses(threads);
    std::vector<std::thread> workers;
    const absl::Time start = absl::Now();
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&bench, &statuses, t, batch] { statuses[t] = bench.RunBatch(batch); });
    }
    for (std::thread& w : workers) w.join();
    const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
    for (const absl::Status& s : statuses) RETURN_IF_ERROR(s);
    samples.push_back(threads * batch / seconds);
  }
  // For throughput the best repetition is the largest: report it as `min`'s counterpart.
  Summary s = Summarize(samples);
  s.min = *std::max_element(samples.begin(), samples.end());
  *runs_per_s = s;
  return absl::OkStatus();
}

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "session_bench: %s\n", status.ToString().c_str());
  return 1;
}

int Main(int argc, char** argv) {
  Flags flags;
  absl::Status status = ParseFlags(argc, argv, &flags);
  if (!status.ok()) return Fail(status);

  Bench chain, fanin, one_node;
  for (auto [name, bench] :
       {std::pair{"chain", &chain}, std::pair{"fanin", &fanin}, std::pair{"one_node", &one_node}}) {
    status = LoadBench(flags, name, bench);
    if (!status.ok()) return Fail(status);
  }
  Summary chain_us, fanin_us, one_us, tp1, tpn;
  for (auto [name, bench, batch, out] :
       {std::tuple{"chain", &chain, 20, &chain_us}, std::tuple{"fanin", &fanin, 20, &fanin_us},
        std::tuple{"one_node", &one_node, 2000, &one_us}}) {
    if (!flags.only.empty() && flags.only != name) continue;
    status = TimeRuns(*bench, flags.reps, batch, out);
    if (!status.ok()) return Fail(status);
  }
  if (!flags.only.empty()) {
    if (flags.only == "threads") {
      status = Throughput(one_node, flags.reps, flags.threads, 4000, &tpn);
    }
    if (!status.ok()) return Fail(status);
    std::printf("%s done\n", flags.only.c_str());
    return 0;
  }
  status = Throughput(one_node, flags.reps, 1, 4000, &tp1);
  if (status.ok()) status = Throughput(one_node, flags.reps, flags.threads, 4000, &tpn);
  if (!status.ok()) return Fail(status);

  const double chain_ops = 1000;
  const double fanin_ops = 1001;  // the AddV2s and the AddN (Consts are counted apart)
  std::printf("Sluice session benchmark: inter_op=%d intra_op=%d reps=%d\n", flags.inter_op,
              flags.intra_op, flags.reps);
  std::printf("  chain     %5d nodes  step %9.1f us (min %9.1f)  %.3f us/AddV2\n", chain.num_nodes,
              chain_us.median, chain_us.min, chain_us.median / chain_ops);
  std::printf("  fanin     %5d nodes  step %9.1f us (min %9.1f)  %.3f us/op\n", fanin.num_nodes,
              fanin_us.median, fanin_us.min, fanin_us.median / fanin_ops);
  std::printf("  one_node  %5d nodes  Run  %9.2f us (min %9.2f)\n", one_node.num_nodes,
              one_us.median, one_us.min);
  std::printf("  one_node  1 thread %10.0f runs/s; %d threads %10.0f runs/s (x%.2f)\n", tp1.median,
              flags.threads, tpn.median, tpn.median / tp1.median);
  std::printf(
      "JSON {\"inter_op\": %d, \"intra_op\": %d, \"reps\": %d, "
      "\"chain_step_us\": %.3f, \"chain_step_min_us\": %.3f, \"chain_us_per_node\": %.4f, "
      "\"fanin_step_us\": %.3f, \"fanin_step_min_us\": %.3f, \"fanin_us_per_op\": %.4f, "
      "\"one_node_run_us\": %.3f, \"one_node_run_min_us\": %.3f, "
      "\"threads\": %d, \"runs_per_s_1\": %.1f, \"runs_per_s_n\": %.1f, "
      "\"runs_per_s_n_best\": %.1f}\n",
      flags.inter_op, flags.intra_op, flags.reps, chain_us.median, chain_us.min,
      chain_us.median / chain_ops, fanin_us.median, fanin_us.min, fanin_us.median / fanin_ops,
      one_us.median, one_us.min, flags.threads, tp1.median, tpn.median, tpn.min);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
