#include "kernels/cuda/elementwise_program_builder.h"

#include <string>

#include "absl/container/flat_hash_map.h"
#include "graph/core/errors.h"

namespace sluice {
namespace cuda {
namespace {

static_assert(static_cast<size_t>(kMaxElementwiseSteps) == kMaxFusedElementwiseOps,
              "the GPU program holds what the fusion pass writes");

// The step of `op`; false for an op the program does not take.
bool StepOf(const std::string& op, ElementwiseStep* step) {
  static const auto* const kUnary = new absl::flat_hash_map<std::string, UnaryKind>({
      {"Neg", UnaryKind::kNeg},
      {"Abs", UnaryKind::kAbs},
      {"Square", UnaryKind::kSquare},
      {"Reciprocal", UnaryKind::kReciprocal},
      {"Sqrt", UnaryKind::kSqrt},
      {"Rsqrt", UnaryKind::kRsqrt},
      {"Exp", UnaryKind::kExp},
      {"Log", UnaryKind::kLog},
      {"Tanh", UnaryKind::kTanh},
      {"Sigmoid", UnaryKind::kSigmoid},
      {"Erf", UnaryKind::kErf},
      {"Erfc", UnaryKind::kErfc},
      {"Relu", UnaryKind::kRelu},
      {"Relu6", UnaryKind::kRelu6},
  });
  // Add and AddV2 differ only for strings; Div and RealDiv only for integers.
  static const auto* const kBinary = new absl::flat_hash_map<std::string, BinaryKind>({
      {"Add", BinaryKind::kAdd},
      {"AddV2", BinaryKind::kAdd},
      {"Sub", BinaryKind::kSub},
      {"Mul", BinaryKind::kMul},
      {"Div", BinaryKind::kRealDiv},
      {"RealDiv", BinaryKind::kRealDiv},
      {"Maximum", BinaryKind::kMaximum},
      {"Minimum", BinaryKind::kMinimum},
      {"SquaredDifference", BinaryKind::kSquaredDifference},
  });
  if (const auto it = kUnary->find(op); it != kUnary->end()) {
    step->binary = 0;
    step->unary_kind = it->second;
    return true;
  }
  if (const auto it = kBinary->find(op); it != kBinary->end()) {
    step->binary = 1;
    step->binary_kind = it->second;
    return true;
  }
  return false;
}

ElementwiseInput::Kind KindOf(ElementwiseInputLayout::Kind kind) {
  switch (kind) {
    case ElementwiseInputLayout::kFull:
      return ElementwiseInput::kFull;
    case ElementwiseInputLayout::kScalar:
      return ElementwiseInput::kScalar;
    case ElementwiseInputLayout::kRow:
      return ElementwiseInput::kRow;
    case ElementwiseInputLayout::kRun:
      return ElementwiseInput::kRun;
  }
  return ElementwiseInput::kFull;
}

}  // namespace

absl::Status BuildElementwiseProgram(absl::Span<const FusedElementwiseStep> steps, int num_inputs,
                                     ElementwiseProgram* program) {
  const int num_steps = static_cast<int>(steps.size());
  if (num_steps > kMaxElementwiseSteps || num_inputs > kMaxElementwiseInputs) {
    return errors::Unimplemented("_FusedElementwise on GPUs takes at most ", kMaxElementwiseSteps,
                                 " ops and ", kMaxElementwiseInputs, " inputs, got ", num_steps,
                                 " and ", num_inputs);
  }
  const ResultSlots slots = AssignResultSlots(steps, num_inputs);
  // A slot per live result: fewer than the steps.
  if (slots.count > kMaxElementwiseSlots) {
    return errors::Internal("_FusedElementwise needs ", slots.count, " result slots");
  }
  // An operand that is step j's result reads j's slot.
  const auto encode = [&](int ref) -> int16_t {
    return static_cast<int16_t>(ref < num_inputs ? ref : -(slots.slot[ref - num_inputs] + 1));
  };
  *program = ElementwiseProgram();
  program->num_steps = num_steps;
  program->num_inputs = num_inputs;
  for (int k = 0; k < num_steps; ++k) {
    ElementwiseStep& step = program->steps[k];
    if (!StepOf(steps[k].op, &step)) {
      return errors::Unimplemented("_FusedElementwise has no GPU kernel for op '", steps[k].op,
                                   "'");
    }
    for (int j = 0; j < steps[k].arity; ++j) step.operands[j] = encode(steps[k].operands[j]);
    step.result_slot = static_cast<int8_t>(slots.slot[k]);
  }
  return absl::OkStatus();
}

void SetElementwiseInput(int i, const ElementwiseInputLayout& layout, const void* data,
                         ElementwiseProgram* program) {
  ElementwiseInput& in = program->inputs[i];
  in.data = data;
  in.kind = KindOf(layout.kind);
  in.period = layout.period;
}

}  // namespace cuda
}  // namespace sluice
