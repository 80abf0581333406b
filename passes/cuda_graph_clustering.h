// FormCudaGraphClusters: regions of a GPU's graph whose kernels only enqueue work on the
// GPU's compute stream become one `_CudaGraph` node each (graph/ops/fused_ops.cc), whose
// kernel runs the region's kernels in order and, from the second step with the same input
// shapes, captures them into a CUDA graph and replays it: one launch instead of one per
// kernel (kernels/cuda/graph/cuda_graph_op.cc). Sluice's own, off unless asked for
// (SessionOptions::cuda_graphs); TensorFlow captures graphs only under XLA.
//
// A node may join a region when:
//  - it is assigned to a GPU, is not in `protected_names` (feeds, fetches, watched nodes),
//    and its op is one whose GPU kernel only validates and enqueues device work (the
//    convolutions, products, pooling, inference batch norm, softmax, reductions, elementwise
//    ops and their fused forms, the layout ops: Reshape, Transpose, Concat, Pad, Slice..., and
//    the bilinear and nearest-neighbour resizes)
//    on float, half or bfloat16 values; or it is a Const (whose value never changes);
//  - each of its inputs from outside the region is a float, half or bfloat16 value (so every
//    host-memory argument — a shape, an axis — is a Const inside the region, and a replay
//    computes with the same ones);
//  - each of its values read outside the region is of those types too (what leaves a region
//    is copied out of the graph's memory after each replay).
// Regions are convex: nodes that a path through a non-member reaches from the candidates
// are left for a later region (so no cycle can form through the new node), up to four
// regions per GPU; a loop body never joins (its back edge leaves and re-enters it). A region
// of fewer than `min_kernels` nodes other than Consts is left alone.
//
// A region is formed only where `kernel_exists` says `_CudaGraph` has a kernel. The
// `_CudaGraph` node is named after the region's last node, takes its assigned device, the
// region's inputs from outside (in order of first use) and its control inputs, and provides
// every value read outside; control edges out of the region leave from it.
//
// `*changed` is set to whether any region was formed. Errors: only internal ones (a graph
// that cannot take the new node). Not thread-safe with respect to `g`.
#ifndef SLUICE_PASSES_CUDA_GRAPH_CLUSTERING_H_
#define SLUICE_PASSES_CUDA_GRAPH_CLUSTERING_H_

#include <functional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "proto/node_def.pb.h"

namespace sluice {

class Graph;

// The name a region's body gives its node's input i: "_cuda_graph_input:<i>".
inline constexpr char kCudaGraphInput[] = "_cuda_graph_input";

struct CudaGraphClusteringOptions {
  absl::flat_hash_set<std::string> protected_names;
  int min_kernels = 4;
  // Whether a kernel for `node` exists on the device named `device` (builds without CUDA have
  // no `_CudaGraph` kernel). Unset: no region is formed.
  std::function<bool(const NodeDef& node, const std::string& device)> kernel_exists;
};

absl::Status FormCudaGraphClusters(const CudaGraphClusteringOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_CUDA_GRAPH_CLUSTERING_H_
