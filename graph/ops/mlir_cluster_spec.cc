#include "graph/ops/mlir_cluster_spec.h"

#include "graph/ops/fused_elementwise_spec.h"

namespace sluice {

bool IsClusterReduction(absl::string_view op) {
  return op == "Sum" || op == "Mean" || op == "Max" || op == "Min";
}

int ClusterOpArity(absl::string_view op) {
  return IsClusterReduction(op) ? 1 : FusedElementwiseArity(op);
}

bool IsClusterOpComputedInline(absl::string_view op) {
  if (ClusterOpArity(op) == 2 || IsClusterReduction(op)) return true;
  return op == "Neg" || op == "Abs" || op == "Square" || op == "Relu" || op == "Relu6" ||
         op == "Erf" || op == "Tanh" || op == "Erfc" || op == "Exp" || op == "Sigmoid";
}

absl::StatusOr<std::vector<FusedElementwiseStep>> ParseClusterProgram(
    int num_inputs, absl::Span<const std::string> ops, absl::Span<const int64_t> operands) {
  return ParseElementwiseProgram(kMlirClusterOp, ClusterOpArity, num_inputs, ops, operands);
}

const char* ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kFull:
      return "full";
    case ValueKind::kRow:
      return "row";
    case ValueKind::kColumn:
      return "column";
    case ValueKind::kBatchColumn:
      return "batch_column";
    case ValueKind::kScalar:
      return "scalar";
  }
  return "unknown";
}

ValueKind CombineKinds(ValueKind a, ValueKind b) {
  if (a == ValueKind::kFull || b == ValueKind::kFull) return ValueKind::kFull;
  if (a == ValueKind::kScalar) return b;
  if (b == ValueKind::kScalar || a == b) return a;
  if (a == ValueKind::kRow || b == ValueKind::kRow) return ValueKind::kFull;
  return ValueKind::kBatchColumn;  // a column and a batch column
}

}  // namespace sluice
