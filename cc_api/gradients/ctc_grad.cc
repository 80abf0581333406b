// Gradient functions of the CTC losses (CTCLoss, CTCLossV2), as TensorFlow defines them: the
// op computes the gradient w.r.t. the logits with the loss (its second output), so the logits'
// gradient is that output scaled, per batch row, by the loss's incoming gradient. The output
// goes through PreventGradient first, so a second derivative fails with TensorFlow's message
// instead of silently being wrong. Labels and sequence lengths get no gradient.
#include <vector>

#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/standard_ops.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

absl::Status CTCLossGrad(const Scope& scope, const Operation& op, const GradList& grads,
                         GradList* out) {
  const Output gradient = ops::PreventGradient(
      scope, op.output(1),
      ops::PreventGradient::Message(
          "Currently there is no way to take the second  derivative of ctc_loss due to the "
          "fused implementation's interaction  with tf.gradients()"));
  // grads[0] is [batch]; the gradient output is [max_time, batch, num_classes].
  out->push_back(ops::Mul(scope, ops::ExpandDims(scope, grads[0], -1), gradient));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("CTCLoss", CTCLossGrad);
REGISTER_GRADIENT_OP("CTCLossV2", CTCLossGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
