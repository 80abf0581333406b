// RunPipeline: the pass manager that turns the graph of one Session::Run signature into one
// GraphDef per device, ready for the executors.
//
// Order (each step is a pass, passes/pass.h, that can also run alone; see its header):
//   prune     PruneGraph(opts.prune)                              passes/prune.h
//   place     PlaceGraph(opts.placer)                             passes/placer.h
//   optimise  rounds of
//               constant_folding      ConstantFold                passes/constant_folding.h
//               cse                   OptimizeCSE                 passes/cse.h
//               simplify              SimplifyGraph (L1)          passes/simplify.h
//               division_by_constant  ReduceDivisionByConstant (L1)
//                                                                 passes/division_by_constant.h
//             until no pass of a round changes the graph, at most kMaxOptimizationRounds
//   fuse      affine_folding      FoldAffineIntoContractions (L1) passes/affine_folding.h
//             pad_folding         FoldPadIntoConvolutions (L1)    passes/pad_folding.h
//             auto_mixed_precision  AutoMixedPrecision (rewrite_options.auto_mixed_precision
//                                 ON, or DEFAULT with TF_ENABLE_AUTO_MIXED_PRECISION=1: float16
//                                 on GPUs; auto_mixed_precision_onednn_bfloat16 or _mkl ON:
//                                 bfloat16 on CPUs; kernel_exists set; at L0 too, as grappler)
//                                                                 passes/auto_mixed_precision.h
//             amp_constant_folding  ConstantFold again, when the rewrite changed the graph and
//                                 folding is on (its Casts of constants become constants)
//             remapper            FuseContractions (L1, kernel_exists set)  passes/remapper.h
//             mlir_clustering     FormMlirClusters (L1, kernel_exists set, global_jit_level
//                                 not OFF, SLUICE_MLIR_CLUSTERS not 0) passes/mlir_clustering.h
//             elementwise_fusion  FuseElementwise (L1, kernel_exists set)
//                                                                 passes/elementwise_fusion.h
//   partition Partition(opts.partition)                           passes/partition.h
// Which optimisations run follows TensorFlow's GraphOptimizer: at opt_level L1 (the default)
// constant folding and CSE always run; at L0 each runs only if its OptimizerOptions flag
// (do_constant_folding, do_common_subexpression_elimination) is set. Simplification runs at
// L1 only. Constant folding is skipped when no evaluator is given; its failures are logged
// and treated as "nothing folded", as TensorFlow does. Division by a constant becomes a
// multiplication by its reciprocal at L1 only (Grappler's rewrite). Fed, fetched and targeted nodes
// are protected: never folded away, merged into others, or removed. So are the watched nodes
// (opts.watched_nodes), which pruning nevertheless drops when nothing asked for needs them.
//
// Every pass run appends a PassStats (op nodes before and after, wall time; for partition,
// "after" counts the nodes of all partitions, Send/Recv included). When a dump directory is
// set (opts.dump_dir, else the environment variable SLUICE_DUMP_GRAPHS_DIR), the graph is
// written there as a text GraphDef before the first pass ("00_input.pbtxt") and after each
// pass ("<NN>_<pass>.pbtxt", NN counting pass runs from 01), and each partition as
// "<NN>_partition_<device>.pbtxt" with the device name's '/' and ':' turned into '_'. The
// directory is created if needed. A dump to opts.dump_dir that cannot be written fails the
// pipeline (the errno's code: a full disk is RESOURCE_EXHAUSTED); with the environment
// variable, the first such dump is logged (once) and ends dumping for the run.
//
// Errors: the first failing pass's status, unchanged (prune and placement errors name the
// node); the graph is consumed either way and *result holds the stats of the passes run.
// Thread safety: the options' callbacks and evaluator are used from the calling thread only.
#ifndef SLUICE_PASSES_PIPELINE_H_
#define SLUICE_PASSES_PIPELINE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "passes/constant_evaluator.h"
#include "passes/partition.h"
#include "passes/placer.h"
#include "passes/prune.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "proto/node_def.pb.h"

namespace sluice {

class Graph;
class ShapeRefiner;

inline constexpr int kMaxOptimizationRounds = 10;

struct PassStats {
  std::string pass;
  int nodes_before = 0;
  int nodes_after = 0;
  double millis = 0;
};

struct PipelineOptions {
  // opt_level L1 (the default) folds constants, eliminates common subexpressions and
  // simplifies; L0 runs only what the do_* flags ask for.
  OptimizerOptions optimizer_options;
  // Feeds, fetches and targets of the step.
  PruneOptions prune;
  // Nodes whose outputs are watched while the step runs (RunOptions.debug_options): they keep
  // their names and outputs through optimisation, protected as fetched nodes are (a constant
  // one is folded into a Const of its name, none is merged, fused or removed), but they are
  // not added to what pruning keeps.
  std::vector<std::string> watched_nodes;
  // The devices, which kernels they have, and the placement preferences.
  PlacerOptions placer;
  // Computes folded values on the host; not owned. Null: constant folding is skipped.
  ConstantSubgraphEvaluator* constant_evaluator = nullptr;
  // TensorFlow's grappler options; Sluice acts on the automatic mixed precision toggles
  // (see the order above and passes/auto_mixed_precision.h).
  RewriterConfig rewrite_options;
  // Whether a kernel exists for a node on a device (by full name); the remapper only creates
  // fused nodes that have one, and mixed precision only retypes nodes that keep one. Unset:
  // no fusion and no mixed precision.
  std::function<bool(const NodeDef& node, const std::string& device)> kernel_exists;
  PartitionOptions partition;
  // Whether regions of a GPU's graph become `_CudaGraph` nodes, captured into CUDA graphs
  // and replayed (passes/cuda_graph_clustering.h; SessionOptions::cuda_graphs), at any
  // opt level (it is asked for by name).
  bool cuda_graphs = false;
  // Where to write the graph after each pass; empty: $SLUICE_DUMP_GRAPHS_DIR, if set.
  std::string dump_dir;
};

struct PipelineResult {
  // Device full name -> its partition, on the optimised graph's arena (graph_partitions.h).
  GraphPartitions partitions;
  // One entry per pass run, in order.
  std::vector<PassStats> stats;
};

absl::Status RunPipeline(const PipelineOptions& opts, std::unique_ptr<Graph> graph,
                         PipelineResult* result);
// As above, with the refiner that inferred `graph`'s shapes as it was imported (see
// ConvertGraphDefToGraph), or null. The first constant folding starts from those shapes
// (ConstantFoldingOptions::shapes) instead of inferring them all again; the results are
// the same. The refiner is destroyed once that folding has run.
absl::Status RunPipeline(const PipelineOptions& opts, std::unique_ptr<Graph> graph,
                         std::unique_ptr<ShapeRefiner> shapes, PipelineResult* result);

// A fixed-width table for tools and logs, one row per entry plus a total:
//   pass               before   after      ms
//   prune                  12       9   0.052
std::string FormatPassStats(absl::Span<const PassStats> stats);

}  // namespace sluice

#endif  // SLUICE_PASSES_PIPELINE_H_
