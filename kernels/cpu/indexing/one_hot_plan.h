// OneHotPlan: what OneHot does with its arguments' shapes, shared by the CPU kernel
// (one_hot_op.cc) and the GPU's (kernels/cuda/indexing_ops.cc): TensorFlow's checks, and the
// output viewed as [prefix, depth, suffix] over indices viewed as [prefix, suffix].
#ifndef SLUICE_KERNELS_CPU_INDEXING_ONE_HOT_PLAN_H_
#define SLUICE_KERNELS_CPU_INDEXING_ONE_HOT_PLAN_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

struct OneHotPlan {
  TensorShape output_shape;
  int64_t prefix = 1;  // elements of the indices' dims before the axis
  int64_t depth = 0;
  int64_t suffix = 1;  // the rest of the indices' elements
};

// Checks OneHot's inputs (depth, an int32 scalar in host memory; on_value and off_value,
// scalars, read only for their shapes) and the axis attr as TensorFlow does
// (INVALID_ARGUMENT with its messages), and fills *plan.
absl::Status PlanOneHot(const Tensor& indices, const Tensor& depth, const Tensor& on_value,
                        const Tensor& off_value, int64_t axis, OneHotPlan* plan);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_INDEXING_ONE_HOT_PLAN_H_
