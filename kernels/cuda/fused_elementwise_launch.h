// A GPU `_FusedElementwise` (fused_elementwise.cu): the node's whole program, with its inputs'
// addresses and broadcast layouts, passed as one launch argument; each thread evaluates it
// for its elements (fused_elementwise_program.h). Plain C++: the g++-compiled kernel class
// includes it.
#ifndef SLUICE_KERNELS_CUDA_FUSED_ELEMENTWISE_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_FUSED_ELEMENTWISE_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/cwise_launch.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// The program's size limits: kMaxFusedElementwiseOps (graph/ops/fused_elementwise_spec.h) ops,
// so at most one more input, and a result buffer per op at most.
inline constexpr int kMaxElementwiseSteps = 32;
inline constexpr int kMaxElementwiseInputs = kMaxElementwiseSteps + 1;
inline constexpr int kMaxElementwiseSlots = kMaxElementwiseSteps;

struct ElementwiseStep {
  uint8_t binary = 0;  // 1: `binary_kind` of two operands; 0: `unary_kind` of one
  UnaryKind unary_kind = UnaryKind::kNeg;
  BinaryKind binary_kind = BinaryKind::kAdd;
  int8_t result_slot = -1;       // where the result goes; -1: the output (the last step)
  int16_t operands[2] = {0, 0};  // >= 0: that input; < 0: slot -(operand + 1)
};

// Input i's element for output element e: kFull e, kScalar 0, kRow e % period, kRun
// e / period (kernels/cpu/cwise/fused_elementwise_plan.h's layouts).
struct ElementwiseInput {
  enum Kind : int32_t { kFull, kScalar, kRow, kRun };
  const void* data = nullptr;  // device memory of the output's element type
  int64_t period = 1;
  Kind kind = kFull;
};

struct ElementwiseProgram {
  int32_t num_steps = 0;
  int32_t num_inputs = 0;
  ElementwiseStep steps[kMaxElementwiseSteps];
  ElementwiseInput inputs[kMaxElementwiseInputs];
};

// out[e] = the program's value at element e, for e < elements, out of `type` (float, half
// or bfloat16); out may be a kFull input's buffer. Enqueued on `stream`; launch errors are
// left for LastLaunchStatus. Nothing is launched for zero elements; false (nothing launched)
// for another type.
bool LaunchFusedElementwise(ElementType type, const ElementwiseProgram& program, int64_t elements,
                            void* out, CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_FUSED_ELEMENTWISE_LAUNCH_H_
