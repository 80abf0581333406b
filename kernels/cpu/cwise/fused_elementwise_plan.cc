#include "kernels/cpu/cwise/fused_elementwise_plan.h"

#include <algorithm>

#include "graph/core/errors.h"

namespace sluice {

absl::Status ReadFusedElementwiseProgram(OpKernelConstruction* ctx,
                                         std::vector<FusedElementwiseStep>* steps) {
  std::vector<std::string> ops;
  std::vector<int64_t> operands;
  RETURN_IF_ERROR(ctx->GetAttr("ops", &ops));
  RETURN_IF_ERROR(ctx->GetAttr("operands", &operands));
  ASSIGN_OR_RETURN(*steps, ParseFusedElementwiseProgram(ctx->num_inputs(), ops, operands));
  return absl::OkStatus();
}

absl::Status ElementwiseLayoutOf(const TensorShape& in, const TensorShape& out,
                                 ElementwiseInputLayout* layout) {
  if (in == out) {
    layout->kind = ElementwiseInputLayout::kFull;
    return absl::OkStatus();
  }
  const int rank = out.dims();
  if (in.dims() <= rank && in.num_elements() == 1) {
    layout->kind = ElementwiseInputLayout::kScalar;
    return absl::OkStatus();
  }
  if (in.dims() <= rank) {
    // Dims aligned to the right, missing leading ones counting as 1.
    // heap-ok: one per dim of the input (rank <= 254)
    std::vector<int64_t> dims(rank, 1);
    for (int i = 0; i < in.dims(); ++i) dims[rank - in.dims() + i] = in.dim_size(i);
    // Row: ones, then the output's trailing dims.
    int first_equal = rank;
    while (first_equal > 0 && dims[first_equal - 1] == out.dim_size(first_equal - 1)) {
      --first_equal;
    }
    if (std::all_of(dims.begin(), dims.begin() + first_equal, [](int64_t d) { return d == 1; })) {
      layout->kind = ElementwiseInputLayout::kRow;
      layout->period = 1;
      for (int i = first_equal; i < rank; ++i) layout->period *= out.dim_size(i);
      return absl::OkStatus();
    }
    // Run: the output's leading dims, then ones.
    int end_equal = 0;
    while (end_equal < rank && dims[end_equal] == out.dim_size(end_equal)) ++end_equal;
    if (std::all_of(dims.begin() + end_equal, dims.end(), [](int64_t d) { return d == 1; })) {
      layout->kind = ElementwiseInputLayout::kRun;
      layout->period = 1;
      for (int i = end_equal; i < rank; ++i) layout->period *= out.dim_size(i);
      return absl::OkStatus();
    }
  }
  return errors::InvalidArgument("shape ", in.DebugString(),
                                 " does not broadcast to the output shape ", out.DebugString(),
                                 " as a scalar, trailing dims or leading dims");
}

absl::Status ElementwiseLayouts(const std::string& node_name,
                                absl::Span<const TensorShape* const> inputs,
                                std::vector<ElementwiseInputLayout>* layouts) {
  // heap-ok: one per input of the node
  layouts->assign(inputs.size(), ElementwiseInputLayout());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const absl::Status s = ElementwiseLayoutOf(*inputs[i], *inputs[0], &(*layouts)[i]);
    if (!s.ok()) {
      return errors::InvalidArgument("Node '", node_name, "' (_FusedElementwise): input ", i,
                                     " of ", s.message());
    }
  }
  return absl::OkStatus();
}

absl::Status CheckUnaryOperands(const std::string& node_name,
                                absl::Span<const FusedElementwiseStep> steps,
                                absl::Span<const TensorShape* const> inputs,
                                const TensorShape& out) {
  // The shape of each value in the unfused graph, as its dims aligned to the output's rank.
  const int rank = out.dims();
  std::vector<std::vector<int64_t>> dims;
  for (const TensorShape* in : inputs) {
    // heap-ok: one per dim of the input (rank <= 254)
    std::vector<int64_t> d(rank, 1);
    for (int j = 0; j < in->dims() && j < rank; ++j) d[rank - in->dims() + j] = in->dim_size(j);
    dims.push_back(std::move(d));
  }
  // heap-ok: one per dim of the output (rank <= 254)
  const std::vector<int64_t> out_dims(out.dim_sizes().begin(), out.dim_sizes().end());
  for (size_t k = 0; k < steps.size(); ++k) {
    const FusedElementwiseStep& step = steps[k];
    std::vector<int64_t> d = dims[step.operands[0]];
    if (step.arity == 1) {
      if (d != out_dims) {
        return errors::InvalidArgument(
            "Node '", node_name, "' (_FusedElementwise): op ", k, " (", step.op,
            ") is unary and reads a value that is broadcast to the output afterwards");
      }
    } else {
      const std::vector<int64_t>& e = dims[step.operands[1]];
      for (int j = 0; j < rank; ++j) d[j] = std::max(d[j], e[j]);
    }
    dims.push_back(std::move(d));
  }
  return absl::OkStatus();
}

ResultSlots AssignResultSlots(absl::Span<const FusedElementwiseStep> steps, int num_inputs) {
  const int num_steps = static_cast<int>(steps.size());
  // heap-ok: one per step of the fused chain (the node's attrs)
  std::vector<int> last_read(num_steps, -1);
  for (int k = 0; k < num_steps; ++k) {
    for (int j = 0; j < steps[k].arity; ++j) {
      const int ref = steps[k].operands[j];
      if (ref >= num_inputs) last_read[ref - num_inputs] = k;
    }
  }
  ResultSlots slots;
  // heap-ok: one per step of the fused chain (the node's attrs)
  slots.slot.assign(num_steps, -1);
  std::vector<int> free_slots;
  for (int k = 0; k < num_steps; ++k) {
    // Operands whose last reader is step k free their slots after it runs.
    for (int j = 0; j < steps[k].arity; ++j) {
      const int ref = steps[k].operands[j] - num_inputs;
      if (ref >= 0 && last_read[ref] == k && slots.slot[ref] >= 0 &&
          std::find(free_slots.begin(), free_slots.end(), slots.slot[ref]) == free_slots.end()) {
        free_slots.push_back(slots.slot[ref]);
      }
    }
    if (k == num_steps - 1) break;  // the last step writes the output
    if (free_slots.empty()) {
      slots.slot[k] = slots.count++;
    } else {
      slots.slot[k] = free_slots.back();
      free_slots.pop_back();
    }
  }
  return slots;
}

}  // namespace sluice
