// Symbolic differentiation of a graph being built (TensorFlow's tensorflow/cc/framework/
// gradients.h): adds to the scope's graph the nodes that compute the gradients of `outputs`
// with respect to `inputs`, by reverse-mode accumulation through the gradient functions of
// GradOpRegistry (cc_api/grad_op_registry.h).
//
// Contract, as TensorFlow's:
//  - `grad_inputs` holds one gradient per output (the seed, dL/d outputs[i]); the overload
//    without it seeds each output with OnesLike(output).
//  - `grad_outputs` gets one Output per input: the summed gradient (AddN where several paths
//    meet), or NoGradient() (a null Output) where none flows back to that input.
//  - Only data edges carry gradients; backprop stops at the nodes of `outputs`, so an output
//    that feeds another output is not differentiated through.
//  - Errors: INVALID_ARGUMENT when the counts differ or an input cannot be reached from the
//    outputs; NOT_FOUND naming the op when an op on a path has no registered gradient; any
//    error a gradient function records on the scope.
// Loops (Enter/Exit frames) are not differentiated: UNIMPLEMENTED.
#ifndef SLUICE_CC_API_GRADIENTS_H_
#define SLUICE_CC_API_GRADIENTS_H_

#include <vector>

#include "absl/status/status.h"
#include "cc_api/ops.h"
#include "cc_api/scope.h"

namespace sluice {

absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  const std::vector<Output>& grad_inputs,
                                  std::vector<Output>* grad_outputs);

absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  std::vector<Output>* grad_outputs);

// The "no gradient" marker: an Output with no node.
Output NoGradient();

}  // namespace sluice

#endif  // SLUICE_CC_API_GRADIENTS_H_
