// The argument checks of the training kernels, as data: each kernel lists the checks
// TensorFlow's kernel makes, in its order and with its messages (typos and all: "lr is not a
// scalar : " for some ops), and CheckArgs runs them. All are INVALID_ARGUMENT.
#ifndef SLUICE_KERNELS_CPU_TRAINING_ARG_CHECKS_H_
#define SLUICE_KERNELS_CPU_TRAINING_ARG_CHECKS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "kernels/cpu/training/variable_inputs.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

struct ArgCheck {
  enum Kind : uint8_t {
    kScalar,       // input is a scalar. "<text><shape>"
    kPositive,     // input is a scalar > 0 (TensorFlow checks the value on the CPU only).
    kNonNegative,  // input is a scalar >= 0.
    kNonPositive,  // input is a scalar <= 0.
    // input is a scalar > 0, or 0 when zero_allowed (sparse Ftrl's lr with
    // multiply_linear_by_lr).
    kPositiveOrAllowedZero,
    kSameShape,  // variable or input `input` has var's shape. "<text><var shape> <shape>"
    // The sparse forms (grad is rows of var picked by the vector indices, input grad + 1):
    kVarAtLeast1D,      // "var must be at least 1 dimensional"
    kIndicesVector,     // "indices must be one-dimensional"
    kGradRows,          // grad's dims after the first are var's; its first is indices' length
    kInnerDimPositive,  // var's rows are not empty
  };
  Kind kind;
  // The input checked; the variables are inputs [0, VariableInputs::count()). For kGradRows
  // and kInnerDimPositive, grad.
  int input;
  const char* text;
  // The input whose shape a kSameShape message shows, when not `input`: TensorFlow's
  // CenteredRMSProp shows ms's shape when mg's is wrong.
  int shown = -1;
};

// Runs `checks` in order; the first that fails is the result. Variables are read from `vars`,
// other inputs from `ctx`. Values are read only after the scalar shape is checked.
absl::Status CheckArgs(OpKernelContext* ctx, const VariableInputs& vars,
                       absl::Span<const ArgCheck> checks, bool zero_allowed = false);

// Every entry of the vector `indices` (int32 or int64) in [0, rows), else TensorFlow's error
// naming the first bad one: "indices[1] = 7 is not in [0, 5)" with `gather_style`, else
// "Index 7 at offset 1 in indices is out of range".
absl::Status CheckRowIndices(const Tensor& indices, int64_t rows, bool gather_style);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_TRAINING_ARG_CHECKS_H_
