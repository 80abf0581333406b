// Gradient function of Roll (TensorFlow's manip ops): rolling back by the same shifts.
#include <vector>

#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/standard_ops.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

// Roll(x, shift, axis).
absl::Status RollGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  out->push_back(ops::Roll(scope, grads[0], ops::Neg(scope, op.input(1)), op.input(2)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Roll", RollGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
