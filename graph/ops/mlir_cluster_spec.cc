#include "graph/ops/mlir_cluster_spec.h"

#include "graph/ops/fused_elementwise_spec.h"

namespace sluice {

bool IsClusterReduction(absl::string_view op) {
  return op == "Sum" || op == "Mean" || op == "Max" || op == "Min";
}

int ClusterOpArity(absl::string_view op) {
  return IsClusterReduction(op) ? 1 : FusedElementwiseArity(op);
}

absl::StatusOr<std::vector<FusedElementwiseStep>> ParseClusterProgram(
    int num_inputs, absl::Span<const std::string> ops, absl::Span<const int64_t> operands) {
  return ParseElementwiseProgram(kMlirClusterOp, ClusterOpArity, num_inputs, ops, operands);
}

}  // namespace sluice
