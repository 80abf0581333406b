// PlanSelect: how Select and SelectV2 combine condition, then (t) and else (e), shared by the
// CPU kernels (select_ops.cc) and the GPU's (kernels/cuda/select_ops.cc) so that both check the
// shapes with TensorFlow's errors and walk the operands alike.
//
// SelectV2 broadcasts all three operands against each other (numpy rules). Select (TensorFlow's
// rules): a scalar condition picks all of t or all of e, which must have one shape; a vector
// condition with a t of higher rank picks rows of t and e by their first dim (the condition
// read as [n, 1, ..., 1]); otherwise condition, t and e must have one shape.
#ifndef SLUICE_KERNELS_CPU_CWISE_SELECT_PLAN_H_
#define SLUICE_KERNELS_CPU_CWISE_SELECT_PLAN_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/cwise/broadcast.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// Fills *plan with the three-operand broadcast (operands: condition, t, e) of the op named
// `op` ("Select" or "SelectV2"; `node` names the node in Select's shape error), or returns
// TensorFlow's INVALID_ARGUMENT. Select's scalar condition is planned as a broadcast of one
// element (a kernel that can read the condition on the host forwards t or e instead).
absl::Status PlanSelect(absl::string_view op, absl::string_view node, const TensorShape& cond,
                        const TensorShape& t, const TensorShape& e, BroadcastPlan* plan);

// Output 0 of a Select kernel under `plan`: the buffer of t (input 1) or e (input 2) when one
// has the output's shape and nothing else holds it (each element is read before it is
// written), else a new tensor.
absl::Status ForwardOrAllocateSelectOutput(OpKernelContext* ctx, const BroadcastPlan& plan,
                                           Tensor** out);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CWISE_SELECT_PLAN_H_
