// FormMlirClusters: connected groups of elementwise ops and last-axis reductions become one
// `_MlirCluster` node (graph/ops/mlir_cluster_spec.h), whose kernel runs the group as one
// compiled loop nest instead of writing and reading every intermediate tensor. A layer
// normalisation (two Means, a SquaredDifference, the Rsqrt of the variance and the affine
// tail), a softmax written out, a mean and variance are the groups this is for. Sluice's own
// pass: TensorFlow compiles such groups only under XLA. Pure elementwise groups are left to
// FuseElementwise (passes/elementwise_fusion.h), which runs later.
//
// A candidate is an op node with one float output that is either an elementwise op the cluster
// takes (ClusterOpArity) with that many inputs, all float, or a Sum, Mean, Max or Min of float
// with keep_dims=true whose reduction_indices come from a `Const` holding one int32 or int64
// element (a scalar or a [1]) that names the last axis of its input: -1, or the input's rank
// minus one, that rank being known and at least 1. The Const is no input of the cluster; it is
// removed once nothing else reads it, unless it is in `protected_names`.
//
// A group grows from a root, upwards, as FuseElementwise's does: a producer joins when it is a
// candidate, on the root's assigned device, not in `protected_names`, without control consumers,
// and every consumer of its output is already in the group. Roots are taken consumers first, so
// each group is as large as these rules allow; a node clustered once is never a root again.
// A group is clustered when, from the graph's inferred shapes (dims compared symbolically:
// passes/symbolic_shapes.h):
//   - it holds at least two ops, and either a reduction, or only ops the compiled code
//     computes itself (IsClusterOpComputedInline) with a root whose last dim is known and at
//     least 16;
//   - F, of known rank r >= 1, is the shape of every reduction's input (all the same), or
//     without reductions the root's shape; call its last dim C;
//   - each value (every input of the group, every member's output) is, checked in this order,
//     FULL (the shape F), ROW (rank r, F's first r - 1 dims, then a known 1), COL (rank 1 to r,
//     known ones and then C), SCALAR (known ones only, or rank 0) or BATCH_COL (r >= 3, F's
//     first dim, known ones, then C: a squeeze-and-excitation gate [N, 1, 1, C]);
//   - the kinds agree with the ops: a unary op keeps its operand's kind; a binary op's result
//     is FULL if an operand is FULL or the operands are a ROW and a COL or BATCH_COL, BATCH_COL
//     for a COL and a BATCH_COL, else the kind of its operands with SCALAR taking the other's;
//     a reduction takes a FULL value to a ROW one;
//   - the root's value is FULL or ROW;
//   - `kernel_exists` says the cluster has a kernel there.
// These are the shapes the cluster's kernel takes (mlir_cluster_spec.h); a group outside them
// stays as it is. There is no size limit. The cluster takes the root's name, requested and
// assigned device, consumers and (as control inputs) the group's control inputs; its inputs are
// the group's distinct inputs in order of first use. Values do not change: each op computes
// what its own kernel computes. Shapes are inferred once, and only when a reduction and another
// candidate are adjacent and the cluster has a kernel for float on the reduction's device.
//
// `*changed` is set to whether anything was clustered. Errors: only internal ones (a graph that
// cannot take the new node). Not thread-safe with respect to `g`.
#ifndef SLUICE_PASSES_MLIR_CLUSTERING_H_
#define SLUICE_PASSES_MLIR_CLUSTERING_H_

#include <functional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "proto/node_def.pb.h"

namespace sluice {

class Graph;

struct MlirClusteringOptions {
  // Feeds and fetched intermediate values: never inside a group (a fetched node may be a
  // group's root, whose name the cluster keeps), and a protected Const is never removed.
  absl::flat_hash_set<std::string> protected_names;
  // Whether a kernel for `node` exists on the device named `device`. Unset: nothing is
  // clustered.
  std::function<bool(const NodeDef& node, const std::string& device)> kernel_exists;
};

absl::Status FormMlirClusters(const MlirClusteringOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_MLIR_CLUSTERING_H_
