// MatrixSolve on the CPU: X with A X = B (or A^H X = B with adjoint) for each innermost
// square A and its B, the batch dims of both equal.
//
// As TensorFlow: an LU decomposition with partial pivoting (Eigen::PartialPivLU on a
// row-major matrix), INVALID_ARGUMENT "Input matrix is not invertible." when a pivot is
// exactly zero, and an empty system (no rows or no right-hand sides) has an empty solution.
#include <cstdint>

#include "Eigen/LU"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matrix_batch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class MatrixSolveOp : public OpKernel {
 public:
  explicit MatrixSolveOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("adjoint", &adjoint_));
  }

  void Compute(OpKernelContext* ctx) override {
    linalg::MatrixBatch batch;
    OP_REQUIRES_OK(ctx, linalg::AnalyzeMatrixInputs(ctx, 2, &batch));
    OP_REQUIRES_OK(ctx, linalg::ValidateSquareSolver(batch));
    const int64_t n = batch.rows[0];
    const int64_t k = batch.cols[1];
    TensorShape out_shape = batch.batch_shape;
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(n));
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(k));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (n == 0 || k == 0 || batch.batch_size == 0) return;
    const Tensor& matrix = ctx->input(0);
    const Tensor& rhs = ctx->input(1);
    using Real = typename Eigen::NumTraits<T>::Real;
    const bool ok = linalg::ForEachMatrix(
        ctx, batch.batch_size, double(n) * n * (n + k), output->NumElements(), [&](int64_t i) {
          // Eigen's heap: the decomposition holds one n * n matrix and its n pivots
          Eigen::PartialPivLU<linalg::RowMatrix<T>> lu(n);
          const auto a = linalg::MatrixAt<T>(matrix, i, n, n);
          if (adjoint_) {
            lu.compute(a.adjoint());
          } else {
            lu.compute(a);
          }
          const Real min_abs_pivot = lu.matrixLU().diagonal().cwiseAbs().minCoeff();
          if (!(min_abs_pivot > Real(0))) return false;
          linalg::MutableMatrixAt<T>(output, i, n, k) = lu.solve(linalg::MatrixAt<T>(rhs, i, n, k));
          return true;
        });
    OP_REQUIRES(ctx, ok, errors::InvalidArgument("Input matrix is not invertible."));
  }

 private:
  bool adjoint_ = false;
};

#define REGISTER_CPU(T)                                                                  \
  REGISTER_KERNEL_BUILDER(Name("MatrixSolve").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          MatrixSolveOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
