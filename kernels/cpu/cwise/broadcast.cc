#include "kernels/cpu/cwise/broadcast.h"

#include <algorithm>

namespace sluice {

bool MakeBroadcastPlan(absl::Span<const TensorShape* const> shapes, BroadcastPlan* plan) {
  const int n = static_cast<int>(shapes.size());
  int rank = 0;
  for (const TensorShape* s : shapes) rank = std::max(rank, s->dims());

  BroadcastPlan::Dims out_dims;
  // Per merged dim (outermost first): its size and whether each operand is broadcast.
  BroadcastPlan::Dims sizes;
  absl::InlinedVector<unsigned, 6> bcast_masks;
  for (int i = 0; i < rank; ++i) {
    int64_t dim = 1;
    int64_t operand_dims[kMaxBroadcastOperands];
    for (int k = 0; k < n; ++k) {
      const int si = i - (rank - shapes[k]->dims());
      operand_dims[k] = si < 0 ? 1 : shapes[k]->dim_size(si);
      if (operand_dims[k] == 1) continue;
      if (dim != 1 && dim != operand_dims[k]) return false;
      dim = operand_dims[k];
    }
    out_dims.push_back(dim);
    if (dim == 1) continue;  // contributes nothing to the iteration
    unsigned mask = 0;
    for (int k = 0; k < n; ++k) {
      if (operand_dims[k] == 1) mask |= 1u << k;
    }
    if (!sizes.empty() && bcast_masks.back() == mask) {
      sizes.back() *= dim;
    } else {
      sizes.push_back(dim);
      bcast_masks.push_back(mask);
    }
  }
  if (sizes.empty()) {  // every dim is 1: one element, no operand broadcast
    sizes.push_back(1);
    bcast_masks.push_back(0);
  }
  if (!TensorShape::BuildTensorShape(out_dims, &plan->output_shape).ok()) return false;
  plan->num_operands = n;
  // heap-ok: one per merged dim of the operands (rank <= 254)
  plan->dims.assign(sizes.begin(), sizes.end());
  const size_t merged = sizes.size();
  for (int k = 0; k < n; ++k) {
    // heap-ok: one per merged dim of the operands (rank <= 254)
    plan->strides[k].assign(merged, 0);
    int64_t step = 1;
    for (size_t d = merged; d-- > 0;) {
      if (bcast_masks[d] & (1u << k)) continue;
      plan->strides[k][d] = step;
      step *= sizes[d];
    }
  }
  return true;
}

}  // namespace sluice
