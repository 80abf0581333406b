// GatherPlan: what Gather and GatherV2 do with their arguments' shapes, shared by the CPU
// kernel (gather_op.cc) and the GPU's (kernels/cuda/gather_ops.cc) so that both check them
// with TensorFlow's errors and agree on the output.
//
// params is viewed as [batch, outer, gather_dim, inner] and the output as
// [batch, outer, n, inner], n indices per batch: output slice (b, o, i) is params slice
// (b, o, indices[b * n + i]). Index values are not looked at here (on a GPU they are in
// device memory): the CPU kernel range-checks them, a GPU writes zeros for a bad one, as
// TensorFlow's GPU kernel does.
#ifndef SLUICE_KERNELS_CPU_INDEXING_GATHER_PLAN_H_
#define SLUICE_KERNELS_CPU_INDEXING_GATHER_PLAN_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

struct GatherPlan {
  TensorShape output_shape;
  int64_t batch = 1;
  int64_t outer = 1;
  int64_t gather_dim = 0;
  int64_t inner = 1;
  // Indices per batch; 0 when there are none.
  int64_t n = 0;

  // Whether the output has no element (nothing to copy or check).
  bool empty() const { return n == 0 || inner == 0 || outer == 0; }
};

// Checks params and the indices' shape and dtype against `axis` (null for Gather V1, which
// gathers along dim 0; else GatherV2's scalar axis input, in host memory) and the batch_dims
// attr, as TensorFlow does (INVALID_ARGUMENT with its messages), and fills *plan.
absl::Status PlanGather(const Tensor& params, const Tensor& indices, const Tensor* axis,
                        int32_t batch_dims, GatherPlan* plan);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_INDEXING_GATHER_PLAN_H_
