// ScatterNdPlan: what ScatterNd and the TensorScatter ops do with their arguments' shapes.
// indices [..., depth] names `rows` slices of an output of shape S; row r's slice (`slice`
// elements, S[depth:]) receives updates' row r when every indices[r, k] is in [0, S[k]).
// The checks are TensorFlow's, quirks included: a rank-1 indices only passes when everything
// is empty, and updates into an empty output are refused unless there are none. Index rows
// are checked and addressed as GatherNd's (IndexRowOffset, gather_nd_plan.h).
#ifndef SLUICE_KERNELS_CPU_INDEXING_SCATTER_ND_PLAN_H_
#define SLUICE_KERNELS_CPU_INDEXING_SCATTER_ND_PLAN_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

struct ScatterNdPlan {
  // TensorFlow's kernels handle index depths up to this.
  static constexpr int kMaxDepth = 7;

  int64_t rows = 0;
  int64_t slice = 1;
  int depth = 0;
  // Per index column k < depth: the output's dim and the element stride of its coordinate.
  int64_t dims[kMaxDepth] = {};
  int64_t strides[kMaxDepth] = {};
};

// Checks indices and updates against the output shape as TensorFlow does (INVALID_ARGUMENT)
// and fills *plan. `output_count` is what TensorFlow's emptiness check counts: the output's
// elements for the TensorScatter ops, the `shape` vector's length for ScatterNd. Index values
// are not looked at here.
absl::Status PlanScatterNd(const TensorShape& output, int64_t output_count, const Tensor& indices,
                           const Tensor& updates, ScatterNdPlan* plan);

// Writes offsets[r], the element offset in the output of row r's slice, or -1 when a
// coordinate of the row is out of range, for every row of the plan; returns the last bad row,
// or -1 when all are good. REQUIRES: PlanScatterNd accepted indices (int32 or int64).
int64_t ScatterNdOffsets(const Tensor& indices, const ScatterNdPlan& plan, int64_t* offsets);

// TensorFlow's error for bad row `row`: "indices[1,0] = [1, 7] does not index into shape
// [4,4]".
std::string ScatterNdBadIndexMessage(const Tensor& indices, const ScatterNdPlan& plan, int64_t row,
                                     const TensorShape& output);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_INDEXING_SCATTER_ND_PLAN_H_
