// sluice benchmark: times steps of a model after a warmup and reports latency percentiles,
// throughput and peak memory; --profile adds per-op-type and per-node tables from traced
// steps run after the timed ones (tracing costs time, so it never skews the latencies);
// --contend N runs N busy processes beside the timed steps (busy_neighbours.h); --steps-file
// keeps every timed step, to line slow steps up with a scheduler trace.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"
#include "graph/import/graph_def_io.h"
#include "kernels/cpu/compiled/compiled_cluster_cache.h"
#include "tools/cli/args.h"
#include "tools/cli/benchmark_stats.h"
#include "tools/cli/busy_neighbours.h"
#include "tools/cli/commands.h"
#include "tools/cli/feeds.h"
#include "tools/cli/json_writer.h"
#include "tools/cli/model.h"
#include "tools/cli/page_policy.h"
#include "tools/cli/report.h"
#include "tools/cli/runner.h"

namespace sluice {
namespace cli {
namespace {

constexpr int kProfileNodes = 25;

// The largest values the step counts and --seconds accept (--help states them): beyond them a
// benchmark would run for days or hold its latencies in gigabytes.
constexpr int64_t kMaxRuns = 10'000'000;
constexpr int64_t kMaxWarmup = 1'000'000;
constexpr int64_t kMaxProfileRuns = 100'000;
constexpr double kMaxSeconds = 86'400;
constexpr double kMinSeconds = 0.001;
constexpr int64_t kMaxContend = 1024;

struct BenchmarkFlags {
  std::string model;
  std::string tags = "serve";
  SavedModelSelection saved_model;
  std::vector<std::string> outputs;
  std::string steps_file;
  FeedOptions feeds;
  RunnerOptions runner;
  int64_t warmup = 5;
  int64_t runs = 50;
  double seconds = 0;      // 0: time --runs steps instead
  double min_seconds = 0;  // with --runs: keep timing until this much time has passed
  int64_t profile_runs = 20;
  int64_t contend = 0;
  bool profile = false;
  bool json = false;
};

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One line per timed step: its start on the monotonic clock in nanoseconds (steady_clock is
// CLOCK_MONOTONIC on Linux, so `perf record -k CLOCK_MONOTONIC` traces share its time base)
// and its latency in milliseconds.
absl::Status WriteSteps(const std::string& path, const std::vector<Clock::time_point>& starts,
                        const std::vector<double>& latencies) {
  std::string text = "start_ns latency_ms\n";
  for (size_t i = 0; i < latencies.size(); ++i) {
    const int64_t ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(starts[i].time_since_epoch()).count();
    absl::StrAppend(&text, ns, " ", absl::StrFormat("%.6f", latencies[i]), "\n");
  }
  return errors::PrependToMessage(WriteStringToFile(path, text), "--steps-file: ");
}

// The process's peak resident memory: VmHWM from /proc/self/status, which belongs to this
// program's address space. (getrusage's ru_maxrss survives exec, so a child of a large parent
// would report the parent's peak.) Falls back to ru_maxrss where /proc is missing.
double PeakRssMb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
  }
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return usage.ru_maxrss / 1024.0;  // kilobytes on Linux
}

// A one-line bar on stderr, redrawn in place when its percentage changes (so fast models do
// not pay for a write per step); only on a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}
  void Update(double fraction, int64_t steps) {
    const int percent = static_cast<int>(100 * std::min(fraction, 1.0));
    if (!enabled_ || percent == drawn_percent_) return;
    drawn_percent_ = percent;
    const int filled = percent * kWidth / 100;
    std::fprintf(stderr, "\r[%s%s] %3d%% %lld steps", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, ' ').c_str(), percent, static_cast<long long>(steps));
  }
  void Done() {
    if (enabled_) std::fprintf(stderr, "\r%*s\r", kWidth + 24, "");
  }

 private:
  static constexpr int kWidth = 40;
  const bool enabled_;
  int drawn_percent_ = -1;
};

void PrintText(const BenchmarkFlags& flags, const LatencyStats& stats, double total_ms,
               const std::string& device, double first_step_ms) {
  std::printf("Benchmark of %s on %s (batch %lld, %lld warmup step(s)",
              Printable(flags.model).c_str(), device.c_str(),
              static_cast<long long>(flags.feeds.batch), static_cast<long long>(flags.warmup));
  if (flags.contend > 0) {
    std::printf(", %lld busy neighbour process(es)", static_cast<long long>(flags.contend));
  }
  std::printf(")\n");
  std::printf("Steps: %lld in %.3f s\n", static_cast<long long>(stats.count), total_ms / 1e3);
  std::printf(
      "Latency ms: p50 %.4f  p90 %.4f  p99 %.4f  p99.9 %.4f  (min %.4f, max %.4f, mean %.4f, "
      "std %.4f)\n",
      stats.p50_ms, stats.p90_ms, stats.p99_ms, stats.p999_ms, stats.min_ms, stats.max_ms,
      stats.mean_ms, stats.stddev_ms);
  const double steps_per_s = total_ms > 0 ? stats.count * 1e3 / total_ms : 0;
  std::printf("Throughput: %.2f steps/s, %.2f items/s\n", steps_per_s,
              steps_per_s * flags.feeds.batch);
  std::printf("Peak memory (RSS): %.1f MiB\n", PeakRssMb());
  const ClusterCompileStats clusters = GetClusterCompileStats();
  std::printf("First step: %.3f ms", first_step_ms);
  if (clusters.compiled + clusters.failed > 0) {
    std::printf(", with %lld compiled cluster(s) in %.1f ms",
                static_cast<long long>(clusters.compiled), clusters.seconds * 1e3);
    if (clusters.from_cache > 0) {
      std::printf(" (%lld loaded from SLUICE_MLIR_CACHE_DIR)",
                  static_cast<long long>(clusters.from_cache));
    }
    if (clusters.failed > 0) {
      std::printf(" (%lld did not compile and ran unfused)",
                  static_cast<long long>(clusters.failed));
    }
  }
  std::printf("\n");
}

void PrintJson(const BenchmarkFlags& flags, const LatencyStats& stats, double total_ms,
               const std::string& device, const Profile* profile, double first_step_ms) {
  JsonWriter json;
  const double steps_per_s = total_ms > 0 ? stats.count * 1e3 / total_ms : 0;
  json.BeginObject().Key("model").String(flags.model).Key("device").String(device);
  json.Key("batch").Int(flags.feeds.batch).Key("warmup").Int(flags.warmup);
  json.Key("contend").Int(flags.contend);
  json.Key("steps").Int(stats.count).Key("total_ms").Double(total_ms);
  json.Key("latency_ms").BeginObject();
  json.Key("p50").Double(stats.p50_ms).Key("p90").Double(stats.p90_ms);
  json.Key("p99").Double(stats.p99_ms).Key("p99.9").Double(stats.p999_ms);
  json.Key("min").Double(stats.min_ms);
  json.Key("max").Double(stats.max_ms).Key("mean").Double(stats.mean_ms);
  json.Key("stddev").Double(stats.stddev_ms).EndObject();
  json.Key("steps_per_second").Double(steps_per_s);
  json.Key("items_per_second").Double(steps_per_s * flags.feeds.batch);
  json.Key("peak_rss_mib").Double(PeakRssMb());
  json.Key("first_step_ms").Double(first_step_ms);
  const ClusterCompileStats clusters = GetClusterCompileStats();
  json.Key("clusters").BeginObject().Key("compiled").Int(clusters.compiled);
  json.Key("failed").Int(clusters.failed).Key("compile_ms").Double(clusters.seconds * 1e3);
  json.Key("from_cache").Int(clusters.from_cache);
  json.EndObject();
  if (profile != nullptr) {
    json.Key("profile").BeginObject().Key("steps").Int(profile->steps);
    json.Key("op_ms_per_step").Double(profile->total_ms).Key("by_op_type").BeginArray();
    for (const ProfileRow& row : profile->by_op_type) {
      json.BeginObject().Key("op").String(row.name).Key("nodes").Int(row.count);
      json.Key("avg_ms").Double(row.avg_ms).Key("share").Double(row.share).EndObject();
    }
    json.EndArray().Key("by_node").BeginArray();
    for (const ProfileRow& row : profile->by_node) {
      json.BeginObject().Key("node").String(row.name).Key("op").String(row.op);
      json.Key("avg_ms").Double(row.avg_ms).Key("share").Double(row.share).EndObject();
    }
    json.EndArray().EndObject();
  }
  json.EndObject();
  std::fputs(json.str().c_str(), stdout);
}

absl::Status Benchmark(BenchmarkFlags flags) {
  Model model;
  SavedModelSelection selection = flags.saved_model;
  selection.tags = absl::StrSplit(flags.tags, ',', absl::SkipEmpty());
  RETURN_IF_ERROR(LoadModel(flags.model, &model, selection));
  // A big graph's feeds and session are made in small pages (page_policy.h).
  const bool small_pages = model.graph_def.node_size() >= kSmallPagesFromNodes;
  if (small_pages) UseSmallPages(true);
  std::vector<std::string> fetches;
  for (const std::string& name : flags.outputs.empty() ? DefaultOutputs(model) : flags.outputs) {
    std::string tensor;
    DataType dtype;
    RETURN_IF_ERROR(errors::PrependToMessage(ResolveOutput(model.graph_def, name, &tensor, &dtype),
                                             "--output: "));
    fetches.push_back(tensor);
  }
  if (fetches.empty()) {
    return errors::InvalidArgument("the model has no obvious outputs; name them with --output");
  }
  std::vector<Feed> feeds;
  RETURN_IF_ERROR(BuildFeeds(model.graph_def, fetches, flags.feeds, &feeds));
  std::vector<std::pair<std::string, Tensor>> feed_pairs;
  for (const Feed& feed : feeds) feed_pairs.emplace_back(feed.tensor, feed.value);
  std::unique_ptr<ModelRunner> runner;
  RETURN_IF_ERROR(
      ModelRunner::Create(std::move(model.graph_def), flags.runner, std::move(feed_pairs), fetches,
                          &runner, model.saved_model.has_value() ? &*model.saved_model : nullptr));
  if (small_pages) UseSmallPages(false);  // the steps take huge pages

  // The neighbours start before the warm-up, so that whatever adapts to the machine's load
  // has seen it before the timed steps.
  // They run for a settling time first, as a serving process's neighbours have been running
  // before its requests come: the core budget's load window (runtime/device/core_budget.h)
  // is a tenth of a second.
  BusyNeighbours neighbours;
  RETURN_IF_ERROR(neighbours.Start(static_cast<int>(flags.contend)));
  if (flags.contend > 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const RunOptions plain;
  std::vector<Tensor> outputs;
  // The first step also compiles the graph's clusters (kernels/cpu/compiled): its time is
  // reported on its own (with --warmup 0 it is also the first timed step).
  double first_step_ms = 0;
  for (int64_t i = 0; i < flags.warmup; ++i) {
    const Clock::time_point step = Clock::now();
    RETURN_IF_ERROR(runner->Run(plain, &outputs, nullptr));
    if (i == 0) first_step_ms = MillisSince(step);
  }

  // --seconds and --min-seconds also stop at kMaxRuns steps, so the latencies stay a
  // bounded size. --min-seconds: at least --runs steps and at least that long, so that a
  // tail percentile of a short step covers more than a few of the machine's hiccups.
  const bool by_time = flags.seconds > 0;
  const int64_t runs = by_time ? kMaxRuns : flags.runs;
  const auto more_steps = [&](int64_t done, Clock::time_point start) {
    if (by_time) return done < kMaxRuns && MillisSince(start) < flags.seconds * 1e3;
    if (done < runs) return true;
    return done < kMaxRuns && MillisSince(start) < flags.min_seconds * 1e3;
  };
  ProgressBar bar(isatty(STDERR_FILENO) == 1 && !flags.json);
  std::vector<double> latencies;
  std::vector<Clock::time_point> starts;
  const Clock::time_point start = Clock::now();
  while (more_steps(static_cast<int64_t>(latencies.size()), start)) {
    const Clock::time_point step = Clock::now();
    RETURN_IF_ERROR(runner->Run(plain, &outputs, nullptr));
    latencies.push_back(MillisSince(step));
    if (!flags.steps_file.empty()) starts.push_back(step);
    const double step_part = static_cast<double>(latencies.size()) / runs;
    bar.Update(by_time ? MillisSince(start) / (flags.seconds * 1e3)
               : flags.min_seconds > 0
                   ? std::min(step_part, MillisSince(start) / (flags.min_seconds * 1e3))
                   : step_part,
               static_cast<int64_t>(latencies.size()));
  }
  const double total_ms = MillisSince(start);
  if (flags.warmup == 0 && !latencies.empty()) first_step_ms = latencies.front();
  neighbours.Stop();
  bar.Done();
  const LatencyStats stats = ComputeLatencyStats(latencies);
  if (!flags.steps_file.empty()) RETURN_IF_ERROR(WriteSteps(flags.steps_file, starts, latencies));

  std::unique_ptr<Profile> profile;
  if (flags.profile) {
    RunOptions traced;
    traced.set_trace_level(RunOptions::FULL_TRACE);
    std::vector<StepStats> steps;
    for (int64_t i = 0; i < flags.profile_runs; ++i) {
      RunMetadata metadata;
      RETURN_IF_ERROR(runner->Run(traced, &outputs, &metadata));
      steps.push_back(metadata.step_stats());
    }
    profile = std::make_unique<Profile>(BuildProfile(steps));
  }
  if (flags.json) {
    PrintJson(flags, stats, total_ms, runner->device_type(), profile.get(), first_step_ms);
  } else {
    PrintText(flags, stats, total_ms, runner->device_type(), first_step_ms);
    if (profile != nullptr) std::fputs(FormatProfile(*profile, kProfileNodes).c_str(), stdout);
  }
  return absl::OkStatus();
}

}  // namespace

int BenchmarkCommand(const Args& args) {
  BenchmarkFlags flags;
  ArgParser parser(
      "benchmark MODEL [--warmup N] [--runs N [--min-seconds S] | --seconds S] [--batch B] "
      "[--profile] [flags]",
      "Times steps of a frozen GraphDef: latency percentiles (p50/p90/p99/p99.9), throughput\n"
      "and peak memory, with a progress bar on a terminal. Inputs the outputs need are random\n"
      "unless given with --input (others are ignored); --profile adds time per op type and\n"
      "per node from traced steps;\n"
      "--contend N times the steps with N busy processes beside them.");
  parser.AddPositional("MODEL", "a .pb or .pbtxt GraphDef, or a SavedModel directory",
                       &flags.model);
  parser.AddString("tags", "TAG,TAG...",
                   "a SavedModel's MetaGraphDef by its tag set (default serve)", &flags.tags);
  parser.AddString("signature", "KEY",
                   "a SavedModel's signature whose outputs are the default outputs\n"
                   "(default serving_default)",
                   &flags.saved_model.signature_key);
  parser.AddInt("warmup", "N", "untimed steps first, 0 to 1000000 (default 5)", &flags.warmup, 0,
                kMaxWarmup);
  parser.AddInt("runs", "N", "timed steps, 1 to 10000000 (default 50)", &flags.runs, 1, kMaxRuns);
  parser.AddDouble("seconds", "S",
                   "time steps for S seconds (0.001 to 86400; at most 10000000 steps) instead "
                   "of --runs",
                   &flags.seconds, kMinSeconds, kMaxSeconds);
  parser.AddDouble("min-seconds", "S",
                   "after --runs steps, go on timing until S seconds have passed (0.001 to "
                   "86400; at most 10000000 steps)",
                   &flags.min_seconds, kMinSeconds, kMaxSeconds);
  parser.AddInt("batch", "B", "size of unknown dim 0 of generated inputs (default 1)",
                &flags.feeds.batch);
  parser.AddInt("threads", "N", "intra-op threads, at most 4096 (default 0: one per core)",
                &flags.runner.threads, 0, kMaxThreads);
  parser.AddInt("inter-op-threads", "N", "inter-op threads, at most 4096 (default 0: one per core)",
                &flags.runner.inter_op_threads, 0, kMaxThreads);
  parser.AddBool("no-thread-spinning", "idle pool threads sleep at once (no spinning)",
                 &flags.runner.no_thread_spinning);
  parser.AddInt("memory-limit-mb", "MB",
                "the most MiB the model's tensors may hold at once (default 0: no limit)",
                &flags.runner.memory_limit_mb, 0, kMaxMemoryLimitMb);
  parser.AddString("device", "cpu|gpu", "where to run (default cpu)", &flags.runner.device);
  parser.AddRepeated("input", "NAME=SPEC", "feed NAME from FILE.npy, random or zeros",
                     &flags.feeds.inputs);
  parser.AddRepeated("shape", "NAME=D0,D1,...", "shape of a generated input", &flags.feeds.shapes);
  parser.AddRepeated("output", "NAME[:i]", "fetch this tensor (default: likely outputs)",
                     &flags.outputs);
  parser.AddBool("profile", "print time per op type and per node", &flags.profile);
  parser.AddInt("profile-runs", "N", "traced steps for --profile, 1 to 100000 (default 20)",
                &flags.profile_runs, 1, kMaxProfileRuns);
  parser.AddInt("contend", "N",
                "run N busy processes (one core each) beside the steps, started and stopped "
                "here, 0 to 1024 (default 0)",
                &flags.contend, 0, kMaxContend);
  parser.AddBool("json", "print one JSON object instead of text", &flags.json);
  parser.AddString("steps-file", "FILE",
                   "write each timed step's start (CLOCK_MONOTONIC ns) and latency (ms) to FILE",
                   &flags.steps_file);
  const int parsed = HandleParseResult("benchmark", parser, parser.Parse(args));
  if (parsed >= 0) return parsed;
  // Ranges were checked as the flags were parsed.
  if (parser.IsSet("runs") && parser.IsSet("seconds")) {
    return ReportUsageError("benchmark", parser, "give --runs or --seconds, not both");
  }
  if (parser.IsSet("min-seconds") && parser.IsSet("seconds")) {
    return ReportUsageError("benchmark", parser, "give --min-seconds or --seconds, not both");
  }
  if (flags.feeds.batch < 1) return ReportUsageError("benchmark", parser, "--batch must be >= 1");
  absl::Status status = Benchmark(std::move(flags));
  return status.ok() ? 0 : ReportError("benchmark", status);
}

}  // namespace cli
}  // namespace sluice
