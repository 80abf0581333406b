// The program of a `_FusedElementwise` node: a chain of elementwise ops that the
// elementwise-fusion pass (passes/elementwise_fusion.h) merged into one node, so that the
// kernel makes one pass over memory instead of one per op.
//
// A node with N inputs carries two attrs:
//   ops       list(string)  the ops, in evaluation order; the last one's value is the output
//   operands  list(int)     each op's operands in order, one per input of the op (1 for a
//                           unary op, 2 for a binary one): a value i < N is input i, a value
//                           N + k is the result of op k, which must come before this op
// Example: gelu(x) = (0.5 * x) * (1 + erf(x / sqrt(2))), with inputs x, 0.5, sqrt(2), 1:
//   ops      = ["Mul", "RealDiv", "Erf", "AddV2", "Mul"]
//   operands = [1, 0,  0, 2,  5,  3, 6,  4, 7]
//
// Each op computes exactly what its own kernel computes (same functor), element by element,
// so the fused result is the unfused graph's, bit for bit. Inputs broadcast to the output's
// shape (which is input 0's) in the forms the kernel supports: the same shape, one element,
// the output's trailing dims (a bias), or its leading dims followed by ones (a per-row
// statistic).
//
// Pure functions; errors are INVALID_ARGUMENT naming the offending entry.
#ifndef SLUICE_GRAPH_OPS_FUSED_ELEMENTWISE_SPEC_H_
#define SLUICE_GRAPH_OPS_FUSED_ELEMENTWISE_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sluice {

inline constexpr char kFusedElementwiseOp[] = "_FusedElementwise";

// 1 or 2 for an op `_FusedElementwise` can evaluate, 0 for any other op. The ops are those
// of one real floating-point type in and out: Neg, Abs, Square, Reciprocal, Sqrt, Rsqrt,
// Exp, Log, Tanh, Sigmoid, Erf, Erfc, Relu, Relu6; Add, AddV2, Sub, Mul, Div, RealDiv, Maximum,
// Minimum, SquaredDifference.
int FusedElementwiseArity(absl::string_view op);

// The most ops the elementwise-fusion pass puts into one node (so at most one more input):
// the GPU kernel passes the whole program as a launch argument of this size. Longer chains
// become several nodes. Programs written by hand may be longer; the CPU kernel takes them.
inline constexpr size_t kMaxFusedElementwiseOps = 32;

struct FusedElementwiseStep {
  std::string op;
  int arity = 0;
  int operands[2] = {0, 0};  // as in the attr: < N an input, N + k op k's result
};

// Checks the attrs of a node with `num_inputs` inputs and returns its steps.
absl::StatusOr<std::vector<FusedElementwiseStep>> ParseFusedElementwiseProgram(
    int num_inputs, absl::Span<const std::string> ops, absl::Span<const int64_t> operands);

// The same for any op whose program has this form (`_MlirCluster`: mlir_cluster_spec.h), with
// `arity` saying which ops it takes; errors name `node_op`.
absl::StatusOr<std::vector<FusedElementwiseStep>> ParseElementwiseProgram(
    absl::string_view node_op, int (*arity)(absl::string_view op), int num_inputs,
    absl::Span<const std::string> ops, absl::Span<const int64_t> operands);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_FUSED_ELEMENTWISE_SPEC_H_
