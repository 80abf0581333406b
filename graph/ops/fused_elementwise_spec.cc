#include "graph/ops/fused_elementwise_spec.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"

namespace sluice {

int FusedElementwiseArity(absl::string_view op) {
  static const auto* const kArity = new absl::flat_hash_map<std::string, int>({
      // clang-format off
      {"Neg", 1}, {"Abs", 1}, {"Square", 1}, {"Reciprocal", 1}, {"Sqrt", 1}, {"Rsqrt", 1},
      {"Exp", 1}, {"Log", 1}, {"Tanh", 1}, {"Sigmoid", 1}, {"Erf", 1}, {"Erfc", 1},
      {"Relu", 1}, {"Relu6", 1},
      {"Add", 2}, {"AddV2", 2}, {"Sub", 2}, {"Mul", 2}, {"Div", 2}, {"RealDiv", 2},
      {"Maximum", 2}, {"Minimum", 2}, {"SquaredDifference", 2},
      // clang-format on
  });
  const auto it = kArity->find(op);
  return it == kArity->end() ? 0 : it->second;
}

absl::StatusOr<std::vector<FusedElementwiseStep>> ParseElementwiseProgram(
    absl::string_view node_op, int (*arity)(absl::string_view op), int num_inputs,
    absl::Span<const std::string> ops, absl::Span<const int64_t> operands) {
  if (num_inputs < 1) return errors::InvalidArgument(node_op, " needs an input");
  if (ops.empty()) return errors::InvalidArgument(node_op, " needs at least one op");
  std::vector<FusedElementwiseStep> steps(ops.size());
  size_t next = 0;
  for (size_t k = 0; k < ops.size(); ++k) {
    FusedElementwiseStep& step = steps[k];
    step.op = ops[k];
    step.arity = arity(step.op);
    if (step.arity == 0) {
      return errors::InvalidArgument(node_op, " cannot evaluate op ", k, " '", step.op, "'");
    }
    for (int j = 0; j < step.arity; ++j, ++next) {
      if (next >= operands.size()) {
        return errors::InvalidArgument(node_op, " has ", operands.size(),
                                       " operands, fewer than its ops take");
      }
      const int64_t ref = operands[next];
      if (ref < 0 || ref >= num_inputs + static_cast<int64_t>(k)) {
        return errors::InvalidArgument(node_op, " op ", k, " (", step.op, ") reads operand ", ref,
                                       ", which is neither one of the ", num_inputs,
                                       " inputs nor an earlier op's result");
      }
      step.operands[j] = static_cast<int>(ref);
    }
  }
  if (next != operands.size()) {
    return errors::InvalidArgument(node_op, " has ", operands.size(),
                                   " operands, more than its ops take (", next, ")");
  }
  return steps;
}

absl::StatusOr<std::vector<FusedElementwiseStep>> ParseFusedElementwiseProgram(
    int num_inputs, absl::Span<const std::string> ops, absl::Span<const int64_t> operands) {
  return ParseElementwiseProgram(kFusedElementwiseOp, FusedElementwiseArity, num_inputs, ops,
                                 operands);
}

}  // namespace sluice
