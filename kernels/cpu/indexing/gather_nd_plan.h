// GatherNdPlan: what GatherNd does with its arguments' shapes, shared by the CPU kernel
// (gather_nd_op.cc) and the GPU's (kernels/cuda/indexing_ops.cc) so that both check them with
// TensorFlow's errors. indices [..., depth] picks `rows` slices of `slice` elements of params:
// row r starts at params element sum_k indices[r, k] * strides[k], when every indices[r, k] is
// in [0, params.dim_size(k)). Index values are not looked at here.
#ifndef SLUICE_KERNELS_CPU_INDEXING_GATHER_ND_PLAN_H_
#define SLUICE_KERNELS_CPU_INDEXING_GATHER_ND_PLAN_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

struct GatherNdPlan {
  // TensorFlow's kernel handles index depths up to this.
  static constexpr int kMaxDepth = 7;

  TensorShape output_shape;
  int64_t rows = 0;
  int64_t slice = 1;
  int depth = 0;
  // Per index column k < depth: params' dim and the element stride of its coordinate.
  int64_t dims[kMaxDepth] = {};
  int64_t strides[kMaxDepth] = {};
};

// Where an index row points, for any plan with GatherNdPlan's depth, dims and strides (the
// scatter ops' too): the element offset of the row's slice, or -1 when a coordinate is out
// of range ([0, dims[k])).
template <typename Index, typename Plan>
int64_t IndexRowOffset(const Index* row, const Plan& plan) {
  int64_t offset = 0;
  for (int k = 0; k < plan.depth; ++k) {
    const int64_t v = static_cast<int64_t>(row[k]);
    if (v < 0 || v >= plan.dims[k]) return -1;
    offset += v * plan.strides[k];
  }
  return offset;
}

// Checks params and indices as TensorFlow does (INVALID_ARGUMENT with its messages; the
// checks that need a row only when there is one) and fills *plan.
absl::Status PlanGatherNd(const Tensor& params, const Tensor& indices, GatherNdPlan* plan);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_INDEXING_GATHER_ND_PLAN_H_
