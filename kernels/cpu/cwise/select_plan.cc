#include "kernels/cpu/cwise/select_plan.h"

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

// `incompatible` is the error when the shapes do not broadcast; Select's forms have checked
// their shapes already, so for them that cannot happen.
absl::Status Broadcast(const TensorShape& cond, const TensorShape& t, const TensorShape& e,
                       BroadcastPlan* plan,
                       const absl::Status& incompatible =
                           errors::Internal("Select's checked operands do not broadcast")) {
  const TensorShape* shapes[] = {&cond, &t, &e};
  if (!MakeBroadcastPlan(shapes, plan)) return incompatible;
  return absl::OkStatus();
}

absl::Status SameThenAndElse(const TensorShape& t, const TensorShape& e) {
  if (t == e) return absl::OkStatus();
  return errors::InvalidArgument("'then' and 'else' must have the same size.  but received: ",
                                 t.DebugString(), " vs. ", e.DebugString());
}

}  // namespace

absl::Status PlanSelect(absl::string_view op, absl::string_view node, const TensorShape& cond,
                        const TensorShape& t, const TensorShape& e, BroadcastPlan* plan) {
  if (op == "SelectV2") {
    return Broadcast(
        cond, t, e, plan,
        errors::InvalidArgument("condition ", cond.DebugString(), ", then ", t.DebugString(),
                                ", and else ", e.DebugString(), " must be broadcastable"));
  }
  if (cond.dims() == 0) {
    RETURN_IF_ERROR(SameThenAndElse(t, e));
    return Broadcast(cond, t, e, plan);
  }
  if (cond.dims() == 1 && t.dims() != 1) {
    if (t.dims() < 1) {
      return errors::InvalidArgument("'then' must be at least a vector, but saw shape: ",
                                     t.DebugString());
    }
    if (t.dim_size(0) != cond.num_elements()) {
      return errors::InvalidArgument(
          "Number of batches of 'then' must match size of 'cond', but saw: ", t.dim_size(0),
          " vs. ", cond.num_elements());
    }
    RETURN_IF_ERROR(SameThenAndElse(t, e));
    // Rows of t and e by their first dim: the condition as [n, 1, ..., 1].
    // heap-ok: one per dim of the input (rank <= 254)
    absl::InlinedVector<int64_t, 6> dims(t.dims(), 1);
    dims[0] = cond.num_elements();
    TensorShape rows;
    RETURN_IF_ERROR(TensorShape::BuildTensorShape(dims, &rows));
    return Broadcast(rows, t, e, plan);
  }
  const TensorShape* operands[] = {&t, &e};
  for (int i = 1; i < 3; ++i) {
    const TensorShape& in = *operands[i - 1];
    if (cond != in) {
      return errors::InvalidArgument("Inputs to operation ", node, " of type ", op,
                                     " must have the same size and shape.  Input 0: ",
                                     cond.DebugString(), " != input ", i, ": ", in.DebugString());
    }
  }
  return Broadcast(cond, t, e, plan);
}

absl::Status ForwardOrAllocateSelectOutput(OpKernelContext* ctx, const BroadcastPlan& plan,
                                           Tensor** out) {
  absl::InlinedVector<int, 2> candidates;
  if (ctx->input(1).shape() == plan.output_shape) candidates.push_back(1);
  if (ctx->input(2).shape() == plan.output_shape) candidates.push_back(2);
  return ctx->forward_input_or_allocate_output(candidates, 0, plan.output_shape, out);
}

}  // namespace sluice
