// The launch argument of a GPU `_FusedElementwise` (fused_elementwise_launch.h) from the node's
// parsed program (graph/ops/fused_elementwise_spec.h) and, per call, its inputs. Plain C++,
// checked on the host (fused_elementwise_program_test.cc).
#ifndef SLUICE_KERNELS_CUDA_ELEMENTWISE_PROGRAM_BUILDER_H_
#define SLUICE_KERNELS_CUDA_ELEMENTWISE_PROGRAM_BUILDER_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "kernels/cpu/cwise/fused_elementwise_plan.h"
#include "kernels/cuda/fused_elementwise_launch.h"

namespace sluice {
namespace cuda {

// The steps of `program` (its inputs left unset): each op's functor, its operands as inputs
// or result slots (AssignResultSlots). UNIMPLEMENTED for more than kMaxElementwiseSteps
// steps or kMaxElementwiseInputs inputs, or an op the GPU program does not take.
absl::Status BuildElementwiseProgram(absl::Span<const FusedElementwiseStep> steps, int num_inputs,
                                     ElementwiseProgram* program);

// Input `i` of `program`: `data` (device memory, or host memory for host evaluation) read as
// `layout` says.
void SetElementwiseInput(int i, const ElementwiseInputLayout& layout, const void* data,
                         ElementwiseProgram* program);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_ELEMENTWISE_PROGRAM_BUILDER_H_
