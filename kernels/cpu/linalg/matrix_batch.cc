// TensorFlow's shape checks of its batched linear algebra kernels (LinearAlgebraOp).
#include "kernels/cpu/linalg/matrix_batch.h"

#include "graph/core/errors.h"

namespace sluice {
namespace linalg {

absl::Status AnalyzeMatrixInputs(OpKernelContext* ctx, int num_inputs, MatrixBatch* batch) {
  const Tensor& first = ctx->input(0);
  const int rank = first.dims();
  if (rank < 2) {
    return errors::InvalidArgument("Input tensor 0 must have rank >= 2, got ", rank);
  }
  batch->batch_shape = TensorShape({});
  for (int d = 0; d < rank - 2; ++d) {
    RETURN_IF_ERROR(batch->batch_shape.AddDimWithStatus(first.dim_size(d)));
  }
  for (int i = 0; i < num_inputs; ++i) {
    const Tensor& in = ctx->input(i);
    if (i > 0) {
      if (in.dims() != rank) {
        return errors::InvalidArgument("All input tensors must have the same rank.");
      }
      for (int d = 0; d < rank - 2; ++d) {
        if (in.dim_size(d) != first.dim_size(d)) {
          return errors::InvalidArgument("All input tensors must have the same outer dimensions.");
        }
      }
    }
    batch->rows[i] = in.dim_size(rank - 2);
    batch->cols[i] = in.dim_size(rank - 1);
  }
  batch->batch_size = batch->batch_shape.num_elements();
  return absl::OkStatus();
}

absl::Status ValidateSquare(const MatrixBatch& batch) {
  if (batch.rows[0] != batch.cols[0]) {
    return errors::InvalidArgument("Input matrix must be square.");
  }
  return absl::OkStatus();
}

absl::Status ValidateSquareSolver(const MatrixBatch& batch) {
  if (batch.rows[0] != batch.cols[0]) {
    return errors::InvalidArgument("First input (lhs) must be a square matrix.");
  }
  if (batch.rows[0] != batch.rows[1]) {
    return errors::InvalidArgument("Input matrix and rhs are incompatible.");
  }
  return absl::OkStatus();
}

}  // namespace linalg
}  // namespace sluice
