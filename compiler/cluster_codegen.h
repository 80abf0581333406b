// GenerateClusterCode: an `_MlirCluster` program (graph/ops/mlir_cluster_spec.h) as MLIR text
// whose function, compiled by CompileMlir (mlir_jit.h), computes the cluster for a range of
// rows.
//
// The cluster is seen as [rows, cols]: cols is the last dim of its full shape, rows the
// product of the others. Each value has a kind (ValueKind): full values vary over both,
// row values (reductions' results) over rows, column values over cols, batch-column values
// over cols and the first dim (rows / batch_rows of them, batch_rows rows apart), scalars
// over neither. The function walks its rows one at a time. A row is computed in phases: phase
// p is one pass over the columns (16 and then 8 at a time in vector registers, or 8:
// vector_width; then one at a time) computing every full value that needs only row values
// known before it; the reductions of that phase accumulate in the same pass, and the row
// values computed from their results come between phases. A full value read in a later phase
// than its own is kept in a scratch row (one row of cols floats per such value). The column
// and batch-column values the ops compute come before the phases, once per batch element (at
// its first row, or the range's), into scratch rows that the phases read: a
// squeeze-and-excitation gate's Sigmoid is not repeated for each row.
//
// Bit-identical to the ops' own kernels: reductions keep the CPU kernels' order (eight
// interleaved partial results, the tail into the first, folded pairwise:
// kernels/cpu/reduction/reduce_loops.h); arithmetic is IEEE single precision with no
// contraction into fused multiply-adds; Maximum, Minimum, Relu and Relu6 keep TensorFlow's NaN
// and signed-zero rules. Erf and Tanh, whose kernels have one form for every element
// (numerics/erf_float.h, sigmoid_tanh_float.h), are written out operation for operation, on
// every CPU; Sqrt, correctly rounded in its kernel, is MLIR's math.sqrt. Ops whose kernels
// have a vector and a scalar form that differ (Exp, Log, Sigmoid, Rsqrt, Reciprocal) are
// written out with the groups that reach a tensor's scalar tail calling back into Sluice
// (ClusterCallbackOp) to apply the kernel's own function, told the value's flat index and size
// so that it takes the kernel's vector or scalar path; where the options do not allow writing
// one out, every group calls back.
//
// The function, `cluster`, takes in order: one memref<?xf32> per input (its flat buffer), the
// output, the scratch buffer (kClusterScratchSlot + scratch_rows * cols floats, one per
// calling thread), the scratch buffer's address as an i64, and five indices: first row, end
// row, rows, cols, and the rows per index of the first dim (batch_rows; 1 is fine for a
// cluster without batch-column values). It declares the callback `sluice_cluster_unary(i64 op, i64
// address, i64 n, i64 flat_index, i64 total)`: apply op ClusterCallbackOp(op) in place to n floats
// at address, the first of which has flat index flat_index in a value of total elements.
#ifndef SLUICE_COMPILER_CLUSTER_CODEGEN_H_
#define SLUICE_COMPILER_CLUSTER_CODEGEN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "graph/ops/mlir_cluster_spec.h"

namespace sluice {

// The unary ops whose kernels' results the generated code gets through the callback, by id.
// -1 for any other op.
int ClusterCallbackId(absl::string_view op);
// The op of a callback id; REQUIRES: 0 <= id < kNumClusterCallbacks.
const char* ClusterCallbackOp(int id);
inline constexpr int kNumClusterCallbacks = 7;

// Floats at the start of the scratch buffer used to pass values to the callback.
inline constexpr int64_t kClusterScratchSlot = 16;

inline constexpr char kClusterFunction[] = "cluster";
inline constexpr char kClusterCallback[] = "sluice_cluster_unary";

struct ClusterCodegenOptions {
  // Columns per vector in the column loops: 8, or 16 where the CPU has 512-bit vectors
  // (AVX-512). Reductions keep eight partial results either way (a 16-wide vector is added
  // to them as two halves, in column order), so the values do not depend on it.
  int vector_width = 8;
  // Rsqrt and Reciprocal written out as their kernels compute them (numerics/rsqrt.h,
  // numerics/reciprocal.h), which start from the CPU's estimates: the generated code uses AVX's
  // vrsqrtps and vrcpps, so only where the CPU has AVX; off, both go through the callback.
  // (Sqrt is always inline: the correctly rounded square root, as its kernel computes it.)
  bool avx_estimates = false;
};

struct ClusterCode {
  std::string mlir;
  std::vector<ValueKind> value_kinds;  // inputs, then one per step
  int scratch_rows = 0;                // full or column values kept across phases
  int phases = 0;
};

// INVALID_ARGUMENT for a program whose kinds do not fit (a reduction of a value that is not
// full, an output that is a column value or a scalar, an op the generator does not know).
absl::StatusOr<ClusterCode> GenerateClusterCode(absl::Span<const FusedElementwiseStep> steps,
                                                absl::Span<const ValueKind> input_kinds,
                                                const ClusterCodegenOptions& options = {});

}  // namespace sluice

#endif  // SLUICE_COMPILER_CLUSTER_CODEGEN_H_
