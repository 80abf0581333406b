// graph_pipeline_bench: times Sluice's GraphDef import and graph pipeline, stage by stage.
//
// Usage:
//   graph_pipeline_bench --graph=FILE.pb --fetches=x:0,y:0 [--feeds=a,b] [--reps=20] [--warmup=2]
//                        [--fusions]
//
// The file is read once; every repetition then starts from its bytes and times:
//   parse      ParseGraphDef onto the arena of the (new, empty) graph it is imported into
//   import     ConvertGraphDefToGraph with validate_shape (every node's shape function runs),
//              given the parsed GraphDef by rvalue so that the graph takes its NodeDefs,
//              and a ShapeRefiner that RunPipeline then takes (its first constant folding
//              re-infers only what prune changed)
//   pipeline   RunPipeline on one CPU device: prune (feeds become _Arg, fetches _Retval),
//              place (every op is taken to run on CPU: no DeviceSupport callback), rounds of
//              constant_folding (HostConstantEvaluator, with every CPU kernel linked, so
//              it folds what a Session's folding folds) / cse / simplify, partition.
// With --fusions the pipeline also asks the CPU kernel registry which fused nodes have kernels,
// as a Session does, so the remapper and elementwise fusion run too.
// Also reported: the sums parse+import, import+pipeline and total (all three), each summed
// within a repetition before the median is taken.
//
// Without --feeds the Placeholders stay in the graph, so folding sees their declared shapes;
// fed, they become _Arg nodes of unknown shape.
//
// The previous repetition's PipelineResult (the partitions, and the arena of the graph they
// were made from) is freed before the repetition's clock starts, and timed as "release".
//
// Per-pass times come from the pipeline's own PassStats; a pass that runs in several rounds
// is reported as the sum of its runs, with the op-node count before its first run and after
// its last. Printed: each stage's median and minimum over the repetitions, the pipeline's
// per-run table of the last repetition, the op histogram of the final partition, and one
// line "JSON {...}" for scripts. Errors go to stderr with exit status 1. A tool, never run
// by tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_def_io.h"
#include "graph/op/op_registry.h"
#include "graph/shape_refiner.h"
#include "passes/pipeline.h"
#include "proto/graph.pb.h"
#include "runtime/session/host_constant_evaluator.h"
#include "runtime/session/runtime_device_support.h"

namespace sluice {
namespace {

constexpr char kCpuDevice[] = "/job:localhost/replica:0/task:0/device:CPU:0";

// Stages in report order; the pass names are those RunPipeline records.
const char* const kStages[] = {
    "parse",    "import",    "parse+import", "prune",           "place", "constant_folding", "cse",
    "simplify", "partition", "pipeline",     "import+pipeline", "total", "release"};

struct Flags {
  std::string graph;
  std::vector<std::string> feeds;
  std::vector<std::string> fetches;
  int reps = 20;
  int warmup = 2;
  bool fusions = false;  // run the remapper and elementwise fusion, as a Session does
};

// Sets *value to what follows "--<name>=" when `arg` starts with that.
bool FlagValue(absl::string_view arg, absl::string_view name, std::string* value) {
  if (!absl::ConsumePrefix(&arg, absl::StrCat("--", name, "="))) return false;
  *value = std::string(arg);
  return true;
}

absl::Status ParseCount(absl::string_view arg, const std::string& value, int* count) {
  if (!absl::SimpleAtoi(value, count) || *count < 0) {
    return errors::InvalidArgument("Bad value in ", arg, ": want an integer >= 0");
  }
  return absl::OkStatus();
}

absl::Status ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    std::string value;
    if (FlagValue(arg, "graph", &value)) {
      flags->graph = value;
    } else if (FlagValue(arg, "feeds", &value)) {
      flags->feeds = absl::StrSplit(value, ',', absl::SkipEmpty());
    } else if (FlagValue(arg, "fetches", &value)) {
      flags->fetches = absl::StrSplit(value, ',', absl::SkipEmpty());
    } else if (FlagValue(arg, "reps", &value)) {
      RETURN_IF_ERROR(ParseCount(arg, value, &flags->reps));
    } else if (FlagValue(arg, "warmup", &value)) {
      RETURN_IF_ERROR(ParseCount(arg, value, &flags->warmup));
    } else if (arg == "--fusions") {
      flags->fusions = true;
    } else {
      return errors::InvalidArgument("Unknown argument ", arg);
    }
  }
  if (flags->graph.empty()) return errors::InvalidArgument("--graph is required");
  if (flags->fetches.empty()) return errors::InvalidArgument("--fetches is required");
  if (flags->reps < 1) return errors::InvalidArgument("--reps must be at least 1");
  return absl::OkStatus();
}

// One stage's timings over the repetitions and its op-node counts (the same every time).
struct StageSamples {
  std::vector<double> millis;
  int nodes_before = 0;
  int nodes_after = 0;
  int runs = 0;  // pass runs in the last repetition (optimisation rounds)
};

using Samples = std::map<std::string, StageSamples>;

void Record(Samples* samples, const std::string& stage, double millis, int before, int after,
            int runs = 1) {
  StageSamples& s = (*samples)[stage];
  s.millis.push_back(millis);
  s.nodes_before = before;
  s.nodes_after = after;
  s.runs = runs;
}

// Folds the pipeline's per-run stats into one sample per pass: the sum of its runs' times,
// the node count before its first run and after its last.
void RecordPasses(const std::vector<PassStats>& stats, Samples* samples) {
  std::map<std::string, StageSamples> passes;
  for (const PassStats& s : stats) {
    StageSamples& p = passes[s.pass];
    if (p.runs == 0) p.nodes_before = s.nodes_before;
    p.nodes_after = s.nodes_after;
    p.millis.push_back(s.millis);
    ++p.runs;
  }
  for (const auto& [name, p] : passes) {
    double sum = 0;
    for (double ms : p.millis) sum += ms;
    Record(samples, name, sum, p.nodes_before, p.nodes_after, p.runs);
  }
}

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

PipelineOptions MakePipelineOptions(const Flags& flags, ConstantSubgraphEvaluator* evaluator) {
  PipelineOptions opts;
  opts.prune.feeds = flags.feeds;
  opts.prune.fetches = flags.fetches;
  opts.placer.devices.push_back(PlacementDevice{kCpuDevice, "CPU"});
  opts.placer.default_device = kCpuDevice;
  opts.constant_evaluator = evaluator;
  if (flags.fusions) opts.kernel_exists = MakeKernelExists();
  return opts;
}

// One repetition: parse, import and optimise `bytes`; on success adds one sample per stage
// and leaves the pipeline's result in *result.
absl::Status RunOnce(const Flags& flags, const std::string& bytes,
                     ConstantSubgraphEvaluator* evaluator, Samples* samples,
                     PipelineResult* result) {
  // The previous repetition's partitions are freed first, outside every other stage: their
  // destruction belongs to whoever ran them (a session keeps them until it closes), so it is
  // reported on its own, as "release". They hold the arena of the graph they came from.
  const bool had_result = !result->stats.empty();
  const int released_nodes = had_result ? result->stats.back().nodes_after : 0;
  const auto release_start = std::chrono::steady_clock::now();
  *result = PipelineResult();
  const double release_ms = MillisSince(release_start);

  const auto start = std::chrono::steady_clock::now();
  // The file is parsed onto the arena of the graph it is imported into, so that its NodeDefs
  // become the graph's without a copy (as a session that parsed a file would do).
  auto graph = std::make_unique<Graph>(OpRegistry::Global());
  GraphDef* gdef = google::protobuf::Arena::CreateMessage<GraphDef>(graph->arena());
  RETURN_IF_ERROR(ParseGraphDef(bytes, gdef));
  const double parse_ms = MillisSince(start);

  const int gdef_nodes = gdef->node_size();
  const auto import_start = std::chrono::steady_clock::now();
  GraphConstructorOptions import_opts;
  import_opts.validate_shape = true;
  // The import's shapes go on to constant folding, as a session keeping them would do.
  auto shapes = std::make_unique<ShapeRefiner>(OpRegistry::Global());
  RETURN_IF_ERROR(ConvertGraphDefToGraph(import_opts, std::move(*gdef), graph.get(), shapes.get()));
  const double import_ms = MillisSince(import_start);
  const int imported = graph->num_op_nodes();

  const auto pipeline_start = std::chrono::steady_clock::now();
  RETURN_IF_ERROR(RunPipeline(MakePipelineOptions(flags, evaluator), std::move(graph),
                              std::move(shapes), result));
  const double pipeline_ms = MillisSince(pipeline_start);
  const double total_ms = MillisSince(start);

  const int final_nodes = result->stats.empty() ? imported : result->stats.back().nodes_after;
  Record(samples, "parse", parse_ms, 0, gdef_nodes);
  Record(samples, "import", import_ms, gdef_nodes, imported);
  Record(samples, "parse+import", parse_ms + import_ms, 0, imported);
  RecordPasses(result->stats, samples);
  Record(samples, "pipeline", pipeline_ms, imported, final_nodes);
  Record(samples, "import+pipeline", import_ms + pipeline_ms, gdef_nodes, final_nodes);
  Record(samples, "total", total_ms, 0, final_nodes);
  if (had_result) Record(samples, "release", release_ms, released_nodes, 0);
  return absl::OkStatus();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double Min(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

// "Const=12 MatMul=3 ..." over every partition, ops by name.
std::string OpHistogram(const PipelineResult& result) {
  std::map<std::string, int> counts;
  for (const auto& [device, gdef] : result.partitions.graphs()) {
    for (const NodeDef& node : gdef->node()) ++counts[node.op()];
  }
  return absl::StrJoin(counts, " ", absl::PairFormatter("="));
}

void PrintReport(const Flags& flags, const Samples& samples, const PipelineResult& result) {
  std::printf("Sluice graph pipeline: %s, %zu feeds, %zu fetches, %d reps (+%d warm-up)\n",
              flags.graph.c_str(), flags.feeds.size(), flags.fetches.size(), flags.reps,
              flags.warmup);
  std::printf("%-18s %10s %10s %8s %8s %5s\n", "stage", "median_ms", "min_ms", "before", "after",
              "runs");
  // The known stages in order, then any pass the pipeline gained since this list was written.
  std::vector<std::string> order(std::begin(kStages), std::end(kStages));
  for (const auto& [stage, s] : samples) {
    if (std::find(order.begin(), order.end(), stage) == order.end()) order.push_back(stage);
  }
  std::vector<std::string> json;
  for (const std::string& stage : order) {
    auto it = samples.find(stage);
    if (it == samples.end()) continue;
    const StageSamples& s = it->second;
    const double median = Median(s.millis);
    const double min = Min(s.millis);
    std::printf("%-18s %10.3f %10.3f %8d %8d %5d\n", stage.c_str(), median, min, s.nodes_before,
                s.nodes_after, s.runs);
    json.push_back(absl::StrFormat(
        "\"%s\":{\"median_ms\":%.4f,\"min_ms\":%.4f,\"nodes_before\":%d,\"nodes_after\":%d,"
        "\"runs\":%d}",
        stage, median, min, s.nodes_before, s.nodes_after, s.runs));
  }
  std::printf("\npass runs of the last repetition:\n%s", FormatPassStats(result.stats).c_str());
  std::printf("final partition ops: %s\n", OpHistogram(result).c_str());
  std::printf(
      "JSON {\"bench\":\"sluice_graph_pipeline\",\"feeds\":%zu,\"reps\":%d,\"stages\":{%s}}\n",
      flags.feeds.size(), flags.reps, absl::StrJoin(json, ",").c_str());
}

int Main(int argc, char** argv) {
  Flags flags;
  absl::Status status = ParseFlags(argc, argv, &flags);
  std::string bytes;
  if (status.ok()) status = ReadFileToString(flags.graph, &bytes);
  // One evaluator for all repetitions, as a session keeps one for its lifetime.
  HostConstantEvaluator evaluator;
  Samples samples;
  PipelineResult result;
  for (int i = 0; status.ok() && i < flags.warmup + flags.reps; ++i) {
    Samples* target = &samples;
    Samples discarded;
    if (i < flags.warmup) target = &discarded;
    status = RunOnce(flags, bytes, &evaluator, target, &result);
  }
  if (!status.ok()) {
    std::fprintf(stderr, "graph_pipeline_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  PrintReport(flags, samples, result);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
