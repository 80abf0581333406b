// RunPipeline: prune, place, optimise in rounds until a round changes nothing, fuse,
// partition. The passes are three tables (kSetupPasses, kRoundPasses, kFusionPasses) of
// functions of one shape (passes/pass.h), with their options built once per run
// (PassInputs). A PassRunner wraps every pass run: it counts op nodes before and after, times
// the run and writes the dump, so the passes themselves know nothing of stats or dumps.
#include "passes/pipeline.h"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"
#include "glog/logging.h"
#include "google/protobuf/text_format.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/shape_refiner.h"
#include "graph/tensor_id.h"
#include "passes/affine_folding.h"
#include "passes/auto_mixed_precision.h"
#include "passes/constant_folding.h"
#include "passes/cse.h"
#include "passes/cuda_graph_clustering.h"
#include "passes/division_by_constant.h"
#include "passes/elementwise_fusion.h"
#include "passes/lower_functional_ops.h"
#include "passes/mlir_clustering.h"
#include "passes/pad_folding.h"
#include "passes/pass.h"
#include "passes/remapper.h"
#include "passes/simplify.h"

namespace sluice {
namespace {

constexpr int64_t kDefaultMaxFoldedConstantBytes = 10 << 20;

// A RewriterConfig toggle: ON and AGGRESSIVE turn the rewrite on, OFF (and the experimental
// MLIR values) off; DEFAULT leaves it to `env` (an environment variable's value, or null),
// on when it is "1" or "true".
bool MixedPrecisionToggleOn(RewriterConfig::Toggle toggle, const char* env) {
  if (toggle == RewriterConfig::ON || toggle == RewriterConfig::AGGRESSIVE) return true;
  if (toggle != RewriterConfig::DEFAULT || env == nullptr) return false;
  const std::string value = env;
  return value == "1" || value == "true" || value == "True" || value == "TRUE";
}

class PassRunner {
 public:
  // With `dump_failures_fatal`, a dump that cannot be written fails the pipeline; without
  // it, the first one is logged and ends dumping.
  PassRunner(std::string dump_dir, bool dump_failures_fatal, std::vector<PassStats>* stats)
      : dump_dir_(std::move(dump_dir)), dump_failures_fatal_(dump_failures_fatal), stats_(stats) {}

  // Runs `pass`, which transforms `graph`; records its stats and, on success, dumps the graph.
  absl::Status Run(absl::string_view name, Graph* graph, const std::function<absl::Status()>& pass);
  // Runs Partition on `graph`, which it consumes, into *partitions, recording stats and
  // dumping each partition.
  absl::Status RunPartition(const PartitionOptions& opts, std::unique_ptr<Graph> graph,
                            GraphPartitions* partitions);
  absl::Status DumpInput(const Graph& graph);

 private:
  // Times `pass`, records a PassStats; nodes_after is filled in by the caller.
  absl::Status Timed(absl::string_view name, int nodes_before,
                     const std::function<absl::Status()>& pass);
  absl::Status Dump(const std::string& stem, const GraphDef& gdef);
  absl::Status DumpGraph(const std::string& stem, const Graph& graph);
  std::string Stem(absl::string_view name) const {
    return absl::StrFormat("%02d_%s", stats_->size(), name);
  }

  const std::string dump_dir_;
  const bool dump_failures_fatal_;
  std::vector<PassStats>* stats_;
  // Set by the first dump that fails, so that a bad directory costs one warning.
  bool dump_failed_ = false;
};

absl::Status PassRunner::Timed(absl::string_view name, int nodes_before,
                               const std::function<absl::Status()>& pass) {
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = pass();
  const std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  PassStats stats;
  stats.pass = std::string(name);
  stats.nodes_before = nodes_before;
  stats.millis = elapsed.count();
  stats_->push_back(std::move(stats));
  return status;
}

absl::Status PassRunner::Run(absl::string_view name, Graph* graph,
                             const std::function<absl::Status()>& pass) {
  absl::Status status = Timed(name, graph->num_op_nodes(), pass);
  stats_->back().nodes_after = graph->num_op_nodes();
  if (status.ok()) status = DumpGraph(Stem(name), *graph);
  return status;
}

absl::Status PassRunner::RunPartition(const PartitionOptions& opts, std::unique_ptr<Graph> graph,
                                      GraphPartitions* partitions) {
  absl::Status status = Timed("partition", graph->num_op_nodes(),
                              [&] { return Partition(opts, std::move(graph), partitions); });
  int nodes_after = 0;
  for (const auto& [device, gdef] : partitions->graphs()) nodes_after += gdef->node_size();
  stats_->back().nodes_after = nodes_after;
  if (!status.ok()) return status;
  for (const auto& [device, gdef] : partitions->graphs()) {
    const std::string file_name = absl::StrReplaceAll(device, {{"/", "_"}, {":", "_"}});
    RETURN_IF_ERROR(
        Dump(absl::StrCat(Stem("partition_"), absl::StripPrefix(file_name, "_")), *gdef));
  }
  return absl::OkStatus();
}

absl::Status PassRunner::DumpInput(const Graph& graph) { return DumpGraph("00_input", graph); }

absl::Status PassRunner::DumpGraph(const std::string& stem, const Graph& graph) {
  if (dump_dir_.empty() || dump_failed_) return absl::OkStatus();
  GraphDef gdef;
  graph.ToGraphDef(&gdef);
  return Dump(stem, gdef);
}

absl::Status PassRunner::Dump(const std::string& stem, const GraphDef& gdef) {
  if (dump_dir_.empty() || dump_failed_) return absl::OkStatus();
  std::error_code error;
  std::filesystem::create_directories(dump_dir_, error);
  const std::string path = absl::StrCat(dump_dir_, "/", stem, ".pbtxt");
  std::string text;
  google::protobuf::TextFormat::PrintToString(gdef, &text);
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (out) return absl::OkStatus();
  const int error_number = errno;
  if (dump_failures_fatal_) {
    const std::string message = absl::StrCat("cannot write the graph dump ", path);
    return error_number != 0 ? absl::ErrnoToStatus(error_number, message)
                             : errors::Unknown(message);
  }
  LOG(WARNING) << "Could not write graph dump " << path << "; no more dumps this run";
  dump_failed_ = true;
  return absl::OkStatus();
}

// The nodes a step names or watches: the caller observes them, so no pass may remove them.
absl::flat_hash_set<std::string> NamedNodes(const PipelineOptions& opts) {
  const PruneOptions& prune = opts.prune;
  absl::flat_hash_set<std::string> names(prune.targets.begin(), prune.targets.end());
  names.insert(opts.watched_nodes.begin(), opts.watched_nodes.end());
  for (const auto* list : {&prune.feeds, &prune.fetches}) {
    for (const std::string& tensor : *list) names.insert(std::string(ParseTensorName(tensor).node));
  }
  return names;
}

// What the passes of one RunPipeline read: every pass's options, built once from the
// pipeline's, and the state carried from one pass run to the next.
struct PassInputs {
  PassInputs(const PipelineOptions& opts, std::unique_ptr<ShapeRefiner> import_shapes);

  const PipelineOptions& pipeline;
  // Which passes run (TensorFlow's GraphOptimizer: at L1 folding and CSE always run, at L0
  // only if their OptimizerOptions flag asks).
  bool l1 = false;
  bool fold = false;
  bool cse_enabled = false;
  bool fuse = false;
  // Compiled clusters (mlir_clustering) are on unless global_jit_level is OFF or the
  // environment says SLUICE_MLIR_CLUSTERS=0.
  bool cluster = false;
  // The graph has calls or functional control flow to lower (so graphs without them list
  // the same passes as before).
  bool lower = false;
  // Some mixed-precision target is on (kernel_exists set); whether the rewrite changed the
  // graph, so that the Casts of constants it added are folded.
  bool mixed_precision = false;
  bool mixed_precision_changed = false;

  ConstantFoldingOptions folding;
  CseOptions cse;
  SimplifyOptions simplify;
  DivisionByConstantOptions division;
  AffineFoldingOptions affine;
  PadFoldingOptions pad;
  RemapperOptions remapper;
  MlirClusteringOptions clustering;
  ElementwiseFusionOptions elementwise;
  CudaGraphClusteringOptions cuda_graph;
  // Set only when some target is on: the op lists are hundreds of strings, not worth
  // building for the signatures (nearly all) that run without the rewrite.
  std::optional<AutoMixedPrecisionOptions> mixed_precision_options;

  // The importer's shapes, for the first constant folding only (it does not tell the refiner
  // of its own changes).
  std::unique_ptr<ShapeRefiner> import_shapes;
  // No pass of the rounds changes an existing node's attrs, so CSE hashes each node once.
  std::vector<uint64_t> attr_hashes;
};

PassInputs::PassInputs(const PipelineOptions& opts, std::unique_ptr<ShapeRefiner> shapes)
    : pipeline(opts), import_shapes(std::move(shapes)) {
  const OptimizerOptions& oo = opts.optimizer_options;
  l1 = oo.opt_level() >= OptimizerOptions::L1;
  fold = (l1 || oo.do_constant_folding()) && opts.constant_evaluator != nullptr;
  cse_enabled = l1 || oo.do_common_subexpression_elimination();
  fuse = l1 && static_cast<bool>(opts.kernel_exists);
  const char* clusters_env = std::getenv("SLUICE_MLIR_CLUSTERS");
  cluster = fuse && oo.global_jit_level() != OptimizerOptions::OFF &&
            !(clusters_env != nullptr && std::string(clusters_env) == "0");

  const absl::flat_hash_set<std::string> named = NamedNodes(opts);
  folding.evaluator = opts.constant_evaluator;
  folding.max_constant_size_in_bytes = oo.max_folded_constant_in_bytes() > 0
                                           ? oo.max_folded_constant_in_bytes()
                                           : kDefaultMaxFoldedConstantBytes;
  for (const std::string& feed : opts.prune.feeds) {
    folding.excluded_nodes.insert(std::string(ParseTensorName(feed).node));
  }
  folding.protected_names = named;
  cse.protected_names = named;
  cse.attr_hash_cache = &attr_hashes;
  simplify.protected_names = named;
  division.protected_names = named;
  affine.protected_names = named;
  pad.protected_names = named;
  remapper.protected_names = named;
  remapper.kernel_exists = opts.kernel_exists;
  clustering.protected_names = named;
  clustering.kernel_exists = opts.kernel_exists;
  elementwise.protected_names = named;
  cuda_graph.protected_names = named;
  cuda_graph.kernel_exists = opts.kernel_exists;
  elementwise.kernel_exists = opts.kernel_exists;
  const RewriterConfig& rewrite = opts.rewrite_options;
  const bool float16_on_gpu = MixedPrecisionToggleOn(rewrite.auto_mixed_precision(),
                                                     std::getenv("TF_ENABLE_AUTO_MIXED_PRECISION"));
  const bool bfloat16_on_cpu =
      MixedPrecisionToggleOn(rewrite.auto_mixed_precision_onednn_bfloat16(), nullptr) ||
      MixedPrecisionToggleOn(rewrite.auto_mixed_precision_mkl(), nullptr);
  mixed_precision = static_cast<bool>(opts.kernel_exists) && (float16_on_gpu || bfloat16_on_cpu);
  if (mixed_precision) {
    AutoMixedPrecisionOptions& amp = mixed_precision_options.emplace();
    amp.float16_on_gpu = float16_on_gpu;
    amp.bfloat16_on_cpu = bfloat16_on_cpu;
    const auto getenv = [](const char* name) -> const char* { return std::getenv(name); };
    ApplyListOverrides(getenv, &amp.float16_lists);
    ApplyListOverrides(getenv, &amp.bfloat16_lists);
    amp.protected_names = named;
    amp.kernel_exists = opts.kernel_exists;
  }
}

// Constant folding's failures are logged and treated as "nothing folded", as TensorFlow's
// optimizer does; the first run starts from the importer's shapes.
absl::Status RunConstantFolding(PassInputs& in, Graph* g, bool* changed) {
  in.folding.shapes = in.import_shapes.get();
  const absl::Status s = ConstantFold(in.folding, g, changed);
  in.folding.shapes = nullptr;
  in.import_shapes.reset();
  if (!s.ok()) {
    LOG(WARNING) << "Constant folding failed; continuing without it: " << s;
    *changed = false;
  }
  return absl::OkStatus();
}

// One row of the pipeline: a pass (passes/pass.h), when it runs, and how it gets its options.
struct PipelinePass {
  const char* name;
  bool (*enabled)(const PassInputs&);
  absl::Status (*run)(PassInputs&, Graph*, bool* changed);
};

// Binds a pass of the shape passes/pass.h requires to its options in PassInputs.
template <typename Options, GraphPass<Options> kPass, Options PassInputs::*kOptions>
absl::Status RunWith(PassInputs& in, Graph* g, bool* changed) {
  return kPass(in.*kOptions, g, changed);
}

bool Always(const PassInputs&) { return true; }
bool AtL1(const PassInputs& in) { return in.l1; }
bool Folding(const PassInputs& in) { return in.fold; }
bool Cse(const PassInputs& in) { return in.cse_enabled; }
bool Fusing(const PassInputs& in) { return in.fuse; }
bool CudaGraphs(const PassInputs& in) { return in.pipeline.cuda_graphs; }
bool Clustering(const PassInputs& in) { return in.cluster; }
bool Lowering(const PassInputs& in) { return in.lower; }
bool MixedPrecision(const PassInputs& in) { return in.mixed_precision; }
// Folding again after the mixed-precision rewrite turns the Casts of constant weights it added
// into low-precision constants (TensorFlow's grappler folds them in its next round).
bool FoldingAfterMixedPrecision(const PassInputs& in) {
  return in.fold && in.mixed_precision_changed;
}

absl::Status RunMixedPrecision(PassInputs& in, Graph* g, bool* changed) {
  RETURN_IF_ERROR(AutoMixedPrecision(*in.mixed_precision_options, g, changed));
  in.mixed_precision_changed = *changed;
  return absl::OkStatus();
}

absl::Status RunPrune(PassInputs& in, Graph* g, bool* changed) {
  return PruneGraph(in.pipeline.prune, g, changed);
}
absl::Status RunPlace(PassInputs& in, Graph* g, bool* changed) {
  return PlaceGraph(in.pipeline.placer, g, changed);
}

absl::Status RunLowerFunctional(PassInputs&, Graph* g, bool* changed) {
  return LowerFunctionalOps(LowerFunctionalOpsOptions(), g, changed);
}

// Run once, in order, before the rounds. Lowering comes first, so that pruning and every
// later pass see the nodes that function calls and functional control flow stand for.
constexpr PipelinePass kSetupPasses[] = {
    {"lower_functional", Lowering, RunLowerFunctional},
    {"prune", Always, RunPrune},
    {"place", Always, RunPlace},
};

// Run in this order, round after round, until no pass of a round changes the graph (at most
// kMaxOptimizationRounds rounds).
constexpr PipelinePass kRoundPasses[] = {
    {"constant_folding", Folding, RunConstantFolding},
    {"cse", Cse, RunWith<CseOptions, OptimizeCSE, &PassInputs::cse>},
    {"simplify", AtL1, RunWith<SimplifyOptions, SimplifyGraph, &PassInputs::simplify>},
    {"division_by_constant", AtL1,
     RunWith<DivisionByConstantOptions, ReduceDivisionByConstant, &PassInputs::division>},
};

// Run once, in order, after the rounds. The mixed-precision rewrite comes where grappler runs
// it: after constant folding and before the remapper, so that fusions see the final dtypes
// and fuse the low-precision nodes (the fused kernels are asked for with those dtypes); it
// also runs after the folding of affine maps and pads into convolutions, which then fold
// float32 constants (TensorFlow's arithmetic optimizer, which does that folding, runs after it
// on low-precision ones). It runs once, as in grappler: painting is not idempotent with the
// Casts it adds.
constexpr PipelinePass kFusionPasses[] = {
    {"affine_folding", AtL1,
     RunWith<AffineFoldingOptions, FoldAffineIntoContractions, &PassInputs::affine>},
    {"pad_folding", AtL1, RunWith<PadFoldingOptions, FoldPadIntoConvolutions, &PassInputs::pad>},
    {"auto_mixed_precision", MixedPrecision, RunMixedPrecision},
    {"amp_constant_folding", FoldingAfterMixedPrecision, RunConstantFolding},
    {"remapper", Fusing, RunWith<RemapperOptions, FuseContractions, &PassInputs::remapper>},
    {"mlir_clustering", Clustering,
     RunWith<MlirClusteringOptions, FormMlirClusters, &PassInputs::clustering>},
    {"elementwise_fusion", Fusing,
     RunWith<ElementwiseFusionOptions, FuseElementwise, &PassInputs::elementwise>},
    // Last: it takes the fused nodes as they are.
    {"cuda_graph_clustering", CudaGraphs,
     RunWith<CudaGraphClusteringOptions, FormCudaGraphClusters, &PassInputs::cuda_graph>},
};

// Runs each enabled pass of `passes` once; *changed: whether any changed the graph.
absl::Status RunPasses(absl::Span<const PipelinePass> passes, PassInputs& in, Graph* g,
                       PassRunner* runner, bool* changed) {
  *changed = false;
  for (const PipelinePass& pass : passes) {
    if (!pass.enabled(in)) continue;
    bool pass_changed = false;
    RETURN_IF_ERROR(runner->Run(pass.name, g, [&] { return pass.run(in, g, &pass_changed); }));
    *changed |= pass_changed;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status RunPipeline(const PipelineOptions& opts, std::unique_ptr<Graph> graph,
                         PipelineResult* result) {
  return RunPipeline(opts, std::move(graph), nullptr, result);
}

absl::Status RunPipeline(const PipelineOptions& opts, std::unique_ptr<Graph> graph,
                         std::unique_ptr<ShapeRefiner> shapes, PipelineResult* result) {
  if (graph == nullptr) return errors::InvalidArgument("RunPipeline: no graph");
  result->partitions.Reset();
  result->stats.clear();
  // Dumps the caller asked for must all be written; the environment variable's are a
  // debugging aid that never fails a session.
  std::string dump_dir = opts.dump_dir;
  const bool dump_failures_fatal = !dump_dir.empty();
  if (dump_dir.empty()) {
    const char* env = std::getenv("SLUICE_DUMP_GRAPHS_DIR");
    if (env != nullptr) dump_dir = env;
  }
  PassRunner runner(dump_dir, dump_failures_fatal, &result->stats);
  PassInputs inputs(opts, std::move(shapes));
  Graph* g = graph.get();
  for (const Node* n : g->op_nodes()) inputs.lower |= IsLoweredFunctionalOp(*n);
  RETURN_IF_ERROR(runner.DumpInput(*g));
  bool changed = false;
  RETURN_IF_ERROR(RunPasses(kSetupPasses, inputs, g, &runner, &changed));
  for (int round = 0; round < kMaxOptimizationRounds; ++round) {
    RETURN_IF_ERROR(RunPasses(kRoundPasses, inputs, g, &runner, &changed));
    if (!changed) break;
  }
  RETURN_IF_ERROR(RunPasses(kFusionPasses, inputs, g, &runner, &changed));
  return runner.RunPartition(opts.partition, std::move(graph), &result->partitions);
}

std::string FormatPassStats(absl::Span<const PassStats> stats) {
  std::string out = absl::StrFormat("%-18s %8s %8s %10s\n", "pass", "before", "after", "ms");
  double total = 0;
  for (const PassStats& s : stats) {
    absl::StrAppendFormat(&out, "%-18s %8d %8d %10.3f\n", s.pass, s.nodes_before, s.nodes_after,
                          s.millis);
    total += s.millis;
  }
  absl::StrAppendFormat(&out, "%-18s %8s %8s %10.3f\n", "total", "", "", total);
  return out;
}

}  // namespace sluice
