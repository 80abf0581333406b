// MatMulPlan: MatMul, BatchMatMul and BatchMatMulV2 as TensorFlow validates them, reduced to
// M, K, N and a short list of merged batch dims. Shared by the CPU and GPU kernels.
//
// Validate checks the inputs' ranks (and BatchMatMul's equal batch dims) with TensorFlow's
// messages; MakePlan broadcasts V2's batch dims, checks the contracted sizes and builds the
// plan: neighbouring batch dims that broadcast alike are merged, x_batch/y_batch hold 1 where
// that operand is broadcast, and when y is the same for every batch entry and x is not
// transposed the batches fold into M (one matrix product). INVALID_ARGUMENT on mismatch.
#ifndef SLUICE_KERNELS_CPU_LINALG_MATMUL_PLAN_H_
#define SLUICE_KERNELS_CPU_LINALG_MATMUL_PLAN_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

using Dims = absl::InlinedVector<int64_t, 6>;

enum class Flavor { kMatMul, kBatchMatMul, kBatchMatMulV2 };

// The product as merged batch dims and matrix sizes. x_batch/y_batch hold 1 where that
// operand is broadcast.
struct MatMulPlan {
  TensorShape out_shape;
  int64_t m = 0, k = 0, n = 0;
  Dims batch, x_batch, y_batch;
  bool adj_x = false, adj_y = false;
};

absl::Status Validate(Flavor flavor, const TensorShape& x, const TensorShape& y);

absl::Status MakePlan(Flavor flavor, const TensorShape& x, const TensorShape& y, bool adj_x,
                      bool adj_y, MatMulPlan* plan);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_MATMUL_PLAN_H_
