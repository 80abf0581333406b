// MatrixBatch: the innermost [rows, cols] matrices of a linear algebra kernel's inputs, the
// outer dims being a batch, validated as TensorFlow's CPU linear algebra kernels validate
// them, with Eigen maps over each matrix and a parallel loop over the batch.
//
// TensorFlow's decompositions run on row-major dynamic Eigen matrices; the kernels here use
// the same types so that Eigen takes the same code paths and rounds the same way.
//
// Contract: AnalyzeMatrixInputs checks inputs [0, num_inputs) of ctx: input 0 of rank >= 2,
// the others of its rank and outer dims, with TensorFlow's INVALID_ARGUMENT messages. It
// reads only shapes. ForEachMatrix runs fn(i) for every batch index on the intra-op pool;
// fn returns false to report a failure of its matrix (a singular one), and ForEachMatrix
// then returns false once every call has finished.
#ifndef SLUICE_KERNELS_CPU_LINALG_MATRIX_BATCH_H_
#define SLUICE_KERNELS_CPU_LINALG_MATRIX_BATCH_H_

#include <atomic>
#include <cstdint>

#include "Eigen/Core"
#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace linalg {

template <typename T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using ConstMatrixMap = Eigen::Map<const RowMatrix<T>>;
template <typename T>
using MatrixMap = Eigen::Map<RowMatrix<T>>;

// The batch shape and each input's matrix dims.
struct MatrixBatch {
  static constexpr int kMaxInputs = 3;
  TensorShape batch_shape;
  int64_t batch_size = 0;
  int64_t rows[kMaxInputs] = {};
  int64_t cols[kMaxInputs] = {};
};

// REQUIRES: 1 <= num_inputs <= MatrixBatch::kMaxInputs.
absl::Status AnalyzeMatrixInputs(OpKernelContext* ctx, int num_inputs, MatrixBatch* batch);

// "Input matrix must be square." unless input 0's matrices are square.
absl::Status ValidateSquare(const MatrixBatch& batch);

// TensorFlow's checks of a square solver: input 0 square, input 1 with as many rows.
absl::Status ValidateSquareSolver(const MatrixBatch& batch);

// Matrix `index` of a tensor of [..., rows, cols] matrices.
template <typename T>
ConstMatrixMap<T> MatrixAt(const Tensor& t, int64_t index, int64_t rows, int64_t cols) {
  return ConstMatrixMap<T>(t.flat<T>().data() + index * rows * cols, rows, cols);
}
template <typename T>
MatrixMap<T> MutableMatrixAt(Tensor* t, int64_t index, int64_t rows, int64_t cols) {
  return MatrixMap<T>(t->flat<T>().data() + index * rows * cols, rows, cols);
}

// Runs fn(i) -> bool for i in [0, batch_size), `flops_per_matrix` being the cost of one
// call; false when any call returned false.
template <typename Fn>
bool ForEachMatrix(OpKernelContext* ctx, int64_t batch_size, double flops_per_matrix,
                   int64_t elements, Fn&& fn) {
  std::atomic<bool> ok{true};
  const Eigen::TensorOpCost cost(0, 0, flops_per_matrix);
  ParallelFor(ctx, batch_size, elements, cost, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      if (!fn(i)) ok.store(false, std::memory_order_relaxed);
    }
  });
  return ok.load();
}

}  // namespace linalg
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_MATRIX_BATCH_H_
