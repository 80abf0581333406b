// The program of an `_MlirCluster` node: a connected group of elementwise ops and the
// last-axis reductions between them (a layer normalisation, a softmax written out, a mean and
// variance), which the MLIR clustering pass (passes/mlir_clustering.h) merged into one node and
// whose kernel runs as one compiled loop nest (compiler/cluster_codegen.h).
//
// The attrs have `_FusedElementwise`'s form (fused_elementwise_spec.h): `ops`, the ops in
// evaluation order, the last one's value being the output, and `operands`, each op's operands
// (i < N: input i; N + k: op k's result). Besides the elementwise ops `_FusedElementwise`
// takes, an op may be one of the reductions Sum, Mean, Max and Min, which here always reduce
// the last axis and keep it as a dim of 1 (TensorFlow's keep_dims=true).
//
// Shapes: every value is the full shape F = [d0, ..., C] of the cluster, a row value (F with
// its last dim 1: one value per row, a reduction's result), a column value (C values, the
// shape [C] or ones followed by C: a scale or an offset), a batch-column value (for F of rank
// 3 or more, [d0, 1, ..., 1, C]: a squeeze-and-excitation gate), or one element. Binary ops
// broadcast as TensorFlow does; a row value with a column or batch-column value gives a full
// one, a column value with a batch-column value a batch-column one.
//
// Each op computes exactly what its own kernel computes: the result is the unfused graph's,
// bit for bit.
#ifndef SLUICE_GRAPH_OPS_MLIR_CLUSTER_SPEC_H_
#define SLUICE_GRAPH_OPS_MLIR_CLUSTER_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/ops/fused_elementwise_spec.h"

namespace sluice {

inline constexpr char kMlirClusterOp[] = "_MlirCluster";

// An internal attr the clustering pass adds: each input's kind as the pass found it from the
// graph's shapes ("full", "row", "column" or "scalar"). Informative only (tools read it to
// generate a cluster's code without running it); the kernel finds the kinds from the shapes
// it is given.
inline constexpr char kMlirClusterInputKindsAttr[] = "_input_kinds";

// The kinds of value above, as the clustering pass finds them from inferred shapes and the
// kernel from real ones.
enum class ValueKind { kFull, kRow, kColumn, kBatchColumn, kScalar };

// "full", "row", "column", "batch_column" or "scalar" (the `_input_kinds` attr's words).
const char* ValueKindName(ValueKind kind);

// The kind of a binary op's result, as TensorFlow's broadcast makes it: a full operand, or a
// row value against a column or batch-column value, gives a full value; a column against a
// batch column gives a batch column; a scalar takes the other's kind.
ValueKind CombineKinds(ValueKind a, ValueKind b);

// Whether `op` is one of the reductions a cluster takes (Sum, Mean, Max, Min).
bool IsClusterReduction(absl::string_view op);

// 1 or 2 for an op a cluster can hold (FusedElementwiseArity's ops, and the reductions, of
// one operand), 0 for any other.
int ClusterOpArity(absl::string_view op);

// Whether a cluster's compiled code computes `op` itself on any x86-64 CPU (arithmetic,
// comparisons, Eigen's approximations of Erf, Tanh, Exp, Sigmoid and Log, Sluice's own Erfc)
// rather than calling back into Sluice per group of elements: a cluster of elementwise ops
// alone is only worth compiling when all its ops are of the first sort. Rsqrt and Reciprocal
// are not counted: they are computed inline only where the CPU has AVX (from its estimates,
// numerics/rsqrt.h and numerics/reciprocal.h). Sqrt is computed inline on every
// CPU (the correctly rounded root, math.sqrt) but is not counted yet, so chains holding one
// still go to `_FusedElementwise` (docs/compiled_clusters.md, "Not done").
bool IsClusterOpComputedInline(absl::string_view op);

// Checks the attrs of a node with `num_inputs` inputs and returns its steps.
absl::StatusOr<std::vector<FusedElementwiseStep>> ParseClusterProgram(
    int num_inputs, absl::Span<const std::string> ops, absl::Span<const int64_t> operands);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_MLIR_CLUSTER_SPEC_H_
