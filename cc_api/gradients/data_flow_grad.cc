// Gradient functions of the data-flow ops Sluice runs: DynamicStitch, ParallelDynamicStitch and
// DynamicPartition. (TensorFlow's other data-flow gradients are for ops Sluice does not
// register: the v1 queues and stacks, session tensors.)
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

// DynamicPartition(data, partitions): each output gathers the data slices of one partition,
// so the gradients go back to where those slices came from. Partitioning the slices'
// positions (0 .. n-1 in partitions' shape) the same way says where each gradient row
// belongs; DynamicStitch puts them there, and a reshape gives data's shape back. The
// partitions get no gradient.
absl::Status DynamicPartitionGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                  GradList* out) {
  int64_t num_partitions = 0;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "num_partitions", &num_partitions));
  const Output data = op.input(0);
  const Output partitions = op.input(1);
  const Output partitions_shape = ops::Shape(scope, partitions);
  const Output zero = ops::Const(scope, 0);
  const Output positions = ops::Reshape(
      scope,
      ops::Range(scope, zero, ops::Prod(scope, partitions_shape, zero), ops::Const(scope, 1)),
      partitions_shape);
  const auto partitioned = ops::DynamicPartition(scope, positions, partitions, num_partitions);
  const Output stitched = ops::DynamicStitch(scope, partitioned.outputs, grads);
  out->push_back(ops::Reshape(scope, stitched, ops::Shape(scope, data)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("DynamicPartition", DynamicPartitionGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
