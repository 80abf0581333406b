// Pieces the gradient functions of cc_api/gradients/ share.
#ifndef SLUICE_CC_API_GRADIENTS_GRAD_HELPERS_H_
#define SLUICE_CC_API_GRADIENTS_GRAD_HELPERS_H_

#include <vector>

#include "absl/status/status.h"
#include "cc_api/ops.h"
#include "cc_api/scope.h"
#include "graph/core/types.h"

namespace sluice {
namespace gradients {

// A scalar `value` of `dtype` (a Const cast to it, so that half, bfloat16 and the integer
// types work alike).
Output ScalarOf(const Scope& scope, double value, DataType dtype);

// conj(x) for complex x; x itself (no new node) for the other types.
Output ConjugateIfComplex(const Scope& scope, const Output& x);

// For an elementwise binary op whose operands x and y broadcast: sums `gx` and `gy` (gradients
// shaped like the op's output) over the dimensions each operand was broadcast along and
// reshapes them to x's and y's shapes; appends both to `grad_outputs`.
absl::Status BroadcastReducedGrads(const Scope& scope, const Output& x, const Output& y,
                                   const Output& gx, const Output& gy,
                                   std::vector<Output>* grad_outputs);

// `grad`, shaped like `output`, summed over the dimensions `operand` was broadcast along to
// reach `output`'s shape, and reshaped to `operand`'s.
Output ReduceToShapeOf(const Scope& scope, const Output& grad, const Output& operand,
                       const Output& output);

// The shape `input_shape` takes once the dimensions in `axes` (negative counting from the
// end) are reduced with keep_dims: those dimensions become 1.
Output ReducedShapeKeepingDims(const Scope& scope, const Output& input_shape, const Output& axes);

}  // namespace gradients
}  // namespace sluice

#endif  // SLUICE_CC_API_GRADIENTS_GRAD_HELPERS_H_
