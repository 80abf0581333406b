// RunPipeline: prune, place, optimise in rounds until a round changes nothing, partition.
// A PassRunner wraps every pass run: it counts op nodes before and after, times the run and
// writes the dump, so the passes themselves know nothing of stats or dumps.
#include "passes/pipeline.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "glog/logging.h"
#include "google/protobuf/text_format.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/shape_refiner.h"
#include "graph/tensor_id.h"
#include "passes/affine_folding.h"
#include "passes/constant_folding.h"
#include "passes/cse.h"
#include "passes/division_by_constant.h"
#include "passes/elementwise_fusion.h"
#include "passes/pad_folding.h"
#include "passes/remapper.h"
#include "passes/simplify.h"

namespace sluice {
namespace {

constexpr int64_t kDefaultMaxFoldedConstantBytes = 10 << 20;

class PassRunner {
 public:
  PassRunner(std::string dump_dir, std::vector<PassStats>* stats)
      : dump_dir_(std::move(dump_dir)), stats_(stats) {}

  // Runs `pass`, which transforms `graph`; records its stats and, on success, dumps the graph.
  absl::Status Run(absl::string_view name, Graph* graph, const std::function<absl::Status()>& pass);
  // Runs Partition on `graph`, which it consumes, into *partitions, recording stats and
  // dumping each partition.
  absl::Status RunPartition(const PartitionOptions& opts, std::unique_ptr<Graph> graph,
                            GraphPartitions* partitions);
  void DumpInput(const Graph& graph);

 private:
  // Times `pass`, records a PassStats; nodes_after is filled in by the caller.
  absl::Status Timed(absl::string_view name, int nodes_before,
                     const std::function<absl::Status()>& pass);
  void Dump(const std::string& stem, const GraphDef& gdef);
  void DumpGraph(const std::string& stem, const Graph& graph);
  std::string Stem(absl::string_view name) const {
    return absl::StrFormat("%02d_%s", stats_->size(), name);
  }

  const std::string dump_dir_;
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
  if (status.ok()) DumpGraph(Stem(name), *graph);
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
    Dump(absl::StrCat(Stem("partition_"), absl::StripPrefix(file_name, "_")), *gdef);
  }
  return absl::OkStatus();
}

void PassRunner::DumpInput(const Graph& graph) { DumpGraph("00_input", graph); }

void PassRunner::DumpGraph(const std::string& stem, const Graph& graph) {
  if (dump_dir_.empty()) return;
  GraphDef gdef;
  graph.ToGraphDef(&gdef);
  Dump(stem, gdef);
}

void PassRunner::Dump(const std::string& stem, const GraphDef& gdef) {
  if (dump_dir_.empty() || dump_failed_) return;
  std::error_code error;
  std::filesystem::create_directories(dump_dir_, error);
  const std::string path = absl::StrCat(dump_dir_, "/", stem, ".pbtxt");
  std::string text;
  google::protobuf::TextFormat::PrintToString(gdef, &text);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    LOG(WARNING) << "Could not write graph dump " << path << "; no more dumps this run";
    dump_failed_ = true;
  }
}

// The nodes a step names: they are observed by the caller, so no pass may remove them.
absl::flat_hash_set<std::string> NamedNodes(const PruneOptions& prune) {
  absl::flat_hash_set<std::string> names(prune.targets.begin(), prune.targets.end());
  for (const auto* list : {&prune.feeds, &prune.fetches}) {
    for (const std::string& tensor : *list) names.insert(std::string(ParseTensorName(tensor).node));
  }
  return names;
}

absl::Status Optimize(const PipelineOptions& opts, Graph* graph,
                      std::unique_ptr<ShapeRefiner> shapes, PassRunner* runner) {
  const OptimizerOptions& oo = opts.optimizer_options;
  const bool l1 = oo.opt_level() >= OptimizerOptions::L1;
  const bool fold = (l1 || oo.do_constant_folding()) && opts.constant_evaluator != nullptr;
  const bool cse = l1 || oo.do_common_subexpression_elimination();
  const bool simplify = l1;
  if (!fold && !cse && !simplify) return absl::OkStatus();

  const absl::flat_hash_set<std::string> named = NamedNodes(opts.prune);
  ConstantFoldingOptions fold_opts;
  if (oo.max_folded_constant_in_bytes() > 0) {
    fold_opts.max_constant_size_in_bytes = oo.max_folded_constant_in_bytes();
  } else {
    fold_opts.max_constant_size_in_bytes = kDefaultMaxFoldedConstantBytes;
  }
  for (const std::string& feed : opts.prune.feeds) {
    fold_opts.excluded_nodes.insert(std::string(ParseTensorName(feed).node));
  }
  fold_opts.protected_names = named;
  CseOptions cse_opts;
  cse_opts.protected_names = named;
  // No pass of the rounds changes an existing node's attrs, so each is hashed once.
  std::vector<uint64_t> attr_hashes;
  cse_opts.attr_hash_cache = &attr_hashes;
  SimplifyOptions simplify_opts;
  simplify_opts.protected_names = named;
  DivisionByConstantOptions division_opts;
  division_opts.protected_names = named;

  for (int round = 0; round < kMaxOptimizationRounds; ++round) {
    bool changed = false;
    bool pass_changed = false;
    if (fold) {
      RETURN_IF_ERROR(runner->Run("constant_folding", graph, [&] {
        // Folding does not tell the refiner of its own changes: only the first run may use it.
        fold_opts.shapes = shapes.get();
        absl::Status s = ConstantFold(fold_opts, opts.constant_evaluator, graph, &pass_changed);
        fold_opts.shapes = nullptr;
        shapes.reset();
        if (!s.ok()) {
          LOG(WARNING) << "Constant folding failed; continuing without it: " << s;
          pass_changed = false;
        }
        return absl::OkStatus();
      }));
      changed |= pass_changed;
    }
    if (cse) {
      RETURN_IF_ERROR(
          runner->Run("cse", graph, [&] { return OptimizeCSE(graph, cse_opts, &pass_changed); }));
      changed |= pass_changed;
    }
    if (simplify) {
      RETURN_IF_ERROR(runner->Run(
          "simplify", graph, [&] { return SimplifyGraph(graph, simplify_opts, &pass_changed); }));
      changed |= pass_changed;
    }
    if (l1) {
      // Only Reciprocal nodes (not float or double) need another round, to be folded.
      bool left_reciprocals = false;
      RETURN_IF_ERROR(runner->Run("division_by_constant", graph, [&] {
        return ReduceDivisionByConstant(division_opts, graph, &pass_changed, &left_reciprocals);
      }));
      changed |= left_reciprocals;
    }
    if (!changed) break;
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
  std::string dump_dir = opts.dump_dir;
  if (dump_dir.empty()) {
    const char* env = std::getenv("SLUICE_DUMP_GRAPHS_DIR");
    if (env != nullptr) dump_dir = env;
  }
  PassRunner runner(dump_dir, &result->stats);
  Graph* g = graph.get();
  runner.DumpInput(*g);
  RETURN_IF_ERROR(runner.Run("prune", g, [&] { return PruneGraph(opts.prune, g); }));
  RETURN_IF_ERROR(runner.Run(
      "place", g, [&] { return PlaceGraph(opts.placer, opts.devices, opts.device_support, g); }));
  RETURN_IF_ERROR(Optimize(opts, g, std::move(shapes), &runner));
  const bool l1 = opts.optimizer_options.opt_level() >= OptimizerOptions::L1;
  if (l1) {
    AffineFoldingOptions fold_opts;
    fold_opts.protected_names = NamedNodes(opts.prune);
    bool folded = false;
    RETURN_IF_ERROR(runner.Run("affine_folding", g,
                               [&] { return FoldAffineIntoContractions(fold_opts, g, &folded); }));
  }
  if (l1) {
    PadFoldingOptions pad_opts;
    pad_opts.protected_names = NamedNodes(opts.prune);
    bool folded = false;
    RETURN_IF_ERROR(runner.Run("pad_folding", g,
                               [&] { return FoldPadIntoConvolutions(pad_opts, g, &folded); }));
  }
  if (l1 && opts.kernel_exists) {
    RemapperOptions remap_opts;
    remap_opts.protected_names = NamedNodes(opts.prune);
    remap_opts.kernel_exists = opts.kernel_exists;
    bool fused = false;
    RETURN_IF_ERROR(
        runner.Run("remapper", g, [&] { return FuseContractions(remap_opts, g, &fused); }));
    ElementwiseFusionOptions fusion_opts;
    fusion_opts.protected_names = std::move(remap_opts.protected_names);
    fusion_opts.kernel_exists = opts.kernel_exists;
    RETURN_IF_ERROR(runner.Run("elementwise_fusion", g,
                               [&] { return FuseElementwise(fusion_opts, g, &fused); }));
  }
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
