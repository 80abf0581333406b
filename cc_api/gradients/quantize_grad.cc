// Gradient functions of the QuantizeAndDequantize ops, as TensorFlow's tf.gradients computes
// them: V2 and V3 pass the gradient straight through to the input (rounding is taken as the
// identity), V4 passes it only where the input lies in [input_min, input_max]
// (QuantizeAndDequantizeV4Grad). The range inputs (and V3's num_bits) get none.
//
// TensorFlow's C++ registry has V3's and V4's but not V2's, and its V4 function passes the
// input's shape where QuantizeAndDequantizeV4Grad takes the input (an int32 tensor for a float
// argument, so the gradient graph cannot be built); Sluice follows TensorFlow's Python
// gradients, which tf.gradients and Keras use.
#include <cstdint>
#include <vector>

#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

// The gradient to the input unchanged; none to the other `num_inputs - 1` inputs.
absl::Status StraightThroughGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                 GradList* out) {
  out->push_back(ops::Identity(scope, grads[0]));
  for (int i = 1; i < op.num_inputs(); ++i) out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("QuantizeAndDequantizeV2", StraightThroughGrad);
REGISTER_GRADIENT_OP("QuantizeAndDequantizeV3", StraightThroughGrad);

// QuantizeAndDequantizeV4(input, input_min, input_max).
absl::Status QuantizeAndDequantizeV4Grad(const Scope& scope, const Operation& op,
                                         const GradList& grads, GradList* out) {
  int64_t axis = -1;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "axis", &axis));
  const ops::QuantizeAndDequantizeV4Grad grad(scope, grads[0], op.input(0), op.input(1),
                                              op.input(2),
                                              ops::QuantizeAndDequantizeV4Grad::Axis(axis));
  out->push_back(grad.input_backprop);
  out->push_back(grad.input_min_backprop);
  out->push_back(grad.input_max_backprop);
  return scope.status();
}
REGISTER_GRADIENT_OP("QuantizeAndDequantizeV4", QuantizeAndDequantizeV4Grad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
