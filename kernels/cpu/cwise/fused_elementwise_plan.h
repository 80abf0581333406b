// What the CPU and GPU `_FusedElementwise` kernels share: how each input broadcasts to the
// output, the check that unary ops read only values of the output's shape, and which buffer
// each intermediate result takes. The program itself is graph/ops/fused_elementwise_spec.h's.
//
// Inputs broadcast to the output's shape (input 0's) in four forms:
//   kFull    the output's shape: element e
//   kScalar  one element (any rank up to the output's): element 0
//   kRow     ones, then the output's trailing dims: element e % period (a bias)
//   kRun     the output's leading dims, then ones: element e / period (a per-row statistic)
// Anything else is INVALID_ARGUMENT naming the input.
#ifndef SLUICE_KERNELS_CPU_CWISE_FUSED_ELEMENTWISE_PLAN_H_
#define SLUICE_KERNELS_CPU_CWISE_FUSED_ELEMENTWISE_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/tensor_shape.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// The node's program, from its `ops` and `operands` attrs (ParseFusedElementwiseProgram).
absl::Status ReadFusedElementwiseProgram(OpKernelConstruction* ctx,
                                         std::vector<FusedElementwiseStep>* steps);

struct ElementwiseInputLayout {
  enum Kind { kFull, kScalar, kRow, kRun } kind = kFull;
  int64_t period = 1;  // kRow: element e % period; kRun: element e / period
};

// How an input of shape `in` maps the output's elements (shape `out`) to its own.
absl::Status ElementwiseLayoutOf(const TensorShape& in, const TensorShape& out,
                                 ElementwiseInputLayout* layout);

// The layouts of every input of node `node_name` against the output (input 0's shape);
// INVALID_ARGUMENT naming the node and the input that does not broadcast.
absl::Status ElementwiseLayouts(const std::string& node_name,
                                absl::Span<const TensorShape* const> inputs,
                                std::vector<ElementwiseInputLayout>* layouts);

// Unary ops are applied element by element, which is their own kernel's computation only on
// a value of the output's shape (on a smaller value, broadcast later, the CPU kernel would
// round its last elements on Eigen's scalar path). INVALID_ARGUMENT naming the node and the
// step for a program with a unary op on a smaller value.
absl::Status CheckUnaryOperands(const std::string& node_name,
                                absl::Span<const FusedElementwiseStep> steps,
                                absl::Span<const TensorShape* const> inputs,
                                const TensorShape& out);

// A buffer for each step's result that is free again after its last reader, so that a chain
// needs a few buffers, not one per step: slot[k] for step k (-1 for the last step, which
// writes the output), and the number of slots. A result may take a slot one of its own
// operands frees (each op reads element i before writing element i).
struct ResultSlots {
  std::vector<int> slot;
  int count = 0;
};
ResultSlots AssignResultSlots(absl::Span<const FusedElementwiseStep> steps, int num_inputs);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CWISE_FUSED_ELEMENTWISE_PLAN_H_
