// Builds a ReductionPlan: validate and normalise the axes, then collapse the shape into
// alternating kept/reduced groups and peel off the innermost reduced group until none is left.
#include "kernels/cpu/reduction/reduction_plan.h"

#include <cstdint>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"

namespace sluice {
namespace {

struct Group {
  int64_t size;
  bool reduced;
};

template <typename Index>
absl::Status MarkAxes(const Tensor& axes, int rank, absl::InlinedVector<bool, 8>* bitmap) {
  const Index* values = axes.base<Index>();
  for (int64_t i = 0; i < axes.NumElements(); ++i) {
    const Index index = values[i];
    if (index < -rank || index >= rank) {
      return errors::InvalidArgument("Invalid reduction dimension (", index, " for input with ",
                                     rank, " dimension(s)");
    }
    const int dim = static_cast<int>(index < 0 ? index + rank : index);
    if ((*bitmap)[dim]) {
      return errors::InvalidArgument(
          "Invalid reduction arguments: Axes contains duplicate dimension: ", dim);
    }
    (*bitmap)[dim] = true;
  }
  return absl::OkStatus();
}

int64_t Product(const absl::InlinedVector<Group, 8>& groups, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t g = begin; g < end; ++g) p *= groups[g].size;
  return p;
}

}  // namespace

absl::Status MakeReductionPlan(const TensorShape& input, const Tensor& axes, bool keep_dims,
                               ReductionPlan* plan) {
  const int rank = input.dims();
  // heap-ok: one per dim of the input (rank <= 254)
  absl::InlinedVector<bool, 8> bitmap(rank, false);
  if (axes.dtype() == DT_INT32) {
    RETURN_IF_ERROR(MarkAxes<int32_t>(axes, rank, &bitmap));
  } else if (axes.dtype() == DT_INT64) {
    RETURN_IF_ERROR(MarkAxes<int64_t>(axes, rank, &bitmap));
  } else {
    return errors::InvalidArgument("reduction_indices must be int32 or int64, got ",
                                   DataTypeString(axes.dtype()));
  }

  plan->output_shape_ = TensorShape();
  plan->reduced_count_ = 1;
  plan->passes_.clear();
  // The output is the input with reduced dims removed or set to 1: no more dims, and no
  // larger product of the non-zero ones, so the AddDims below cannot fail.
  absl::InlinedVector<Group, 8> groups;
  for (int d = 0; d < rank; ++d) {
    const int64_t size = input.dim_size(d);
    if (bitmap[d]) {
      plan->reduced_count_ *= size;
      if (keep_dims) plan->output_shape_.AddDim(1);  // shape-safe: a reduced dim kept as 1
    } else {
      plan->output_shape_.AddDim(size);  // shape-safe: one of the input's dims
    }
    if (size == 1) continue;  // reducing or keeping a dim of 1 changes no value
    if (!groups.empty() && groups.back().reduced == bitmap[d]) {
      groups.back().size *= size;
    } else {
      groups.push_back({size, bitmap[d]});
    }
  }

  for (;;) {
    size_t j = groups.size();
    while (j > 0 && !groups[j - 1].reduced) --j;
    if (j == 0) break;
    --j;  // groups[j] is the innermost reduced group
    plan->passes_.push_back(
        {Product(groups, 0, j), groups[j].size, Product(groups, j + 1, groups.size())});
    groups.erase(groups.begin() + j);
    // Its kept neighbours are now adjacent and form one group.
    if (j > 0 && j < groups.size()) {
      groups[j - 1].size *= groups[j].size;
      groups.erase(groups.begin() + j);
    }
  }
  return absl::OkStatus();
}

int64_t ScalarIndexValue(const Tensor& t) {
  switch (t.dtype()) {
    case DT_INT16:
      return *t.base<int16_t>();
    case DT_INT32:
      return *t.base<int32_t>();
    default:
      return *t.base<int64_t>();
  }
}

absl::Status MakeArgReduction(const Tensor& input, const Tensor& dimension, ArgReduction* arg) {
  if (dimension.dims() != 0) {
    return errors::InvalidArgument("dim must be a scalar, but received tensor of shape: ",
                                   dimension.shape().DebugString());
  }
  const int64_t dim = ScalarIndexValue(dimension);
  const int rank = input.dims();
  const int64_t axis = dim < 0 ? dim + rank : dim;
  if (axis < 0 || axis >= rank) {
    return errors::InvalidArgument("Expected dimension in the range [", -rank, ", ", rank,
                                   "), but got ", dim);
  }
  const int64_t reduced = input.dim_size(static_cast<int>(axis));
  if (reduced == 0) {
    return errors::InvalidArgument("Reduction axis ", dim, " is empty in shape ",
                                   input.shape().DebugString());
  }
  arg->output_shape = input.shape();
  arg->output_shape.RemoveDim(static_cast<int>(axis));  // shape-safe: 0 <= axis < rank (checked)
  int64_t inner = 1;
  for (int d = static_cast<int>(axis) + 1; d < rank; ++d) inner *= input.dim_size(d);
  arg->pass.reduced = reduced;
  arg->pass.inner = inner;
  arg->pass.outer = inner == 0 ? 0 : arg->output_shape.num_elements() / inner;
  return absl::OkStatus();
}

}  // namespace sluice
