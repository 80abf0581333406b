// Gradient functions of the data-flow ops Sluice runs: DynamicStitch and
// ParallelDynamicStitch. (TensorFlow's other data-flow gradients are for ops Sluice does not
// register: DynamicPartition, the v1 queues and stacks, session tensors.)
#include <vector>

#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/standard_ops.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

// DynamicStitch(indices[N], data[N]): each data element was written to the position its index
// names, so its gradient is read back from there. An element overwritten by a later one still
// gets the gradient of its position, as in TensorFlow.
absl::Status DynamicStitchGrad(const Scope& scope, const Operation& op, const GradList& grads,
                               GradList* out) {
  const int n = op.num_inputs() / 2;
  for (int i = 0; i < n; ++i) out->push_back(NoGradient());
  for (int i = 0; i < n; ++i) {
    Output index = op.input(i);
    if (index.type() != DT_INT32) index = ops::Cast(scope, index, DT_INT32);
    out->push_back(ops::Gather(scope, grads[0], index));
  }
  return scope.status();
}
REGISTER_GRADIENT_OP("DynamicStitch", DynamicStitchGrad);
REGISTER_GRADIENT_OP("ParallelDynamicStitch", DynamicStitchGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
