// MatrixSolveLs on the CPU: for each innermost A [M, N] and B [M, K], the X [N, K] that
// minimises ||A X - B||^2 + l2_regularizer ||X||^2 (the minimum-norm solution when A has more
// columns than rows).
//
// As TensorFlow, with fast (the default) through the normal equations and a Cholesky
// decomposition (Eigen::LLT of the lower triangle of A^H A, or A A^H for a wide A, plus
// l2_regularizer on the diagonal): INVALID_ARGUMENT when that decomposition fails (A rank
// deficient or ill-conditioned); without fast through Eigen's complete orthogonal
// decomposition, which takes any A. l2_regularizer is checked (a scalar, >= 0) only when
// there is a matrix to solve, as TensorFlow checks it per matrix, and an empty system has an
// empty solution (zeros when A has no rows but X has entries).
#include <algorithm>
#include <cstdint>

#include "Eigen/Cholesky"
#include "Eigen/QR"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matrix_batch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class MatrixSolveLsOp : public OpKernel {
 public:
  explicit MatrixSolveLsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fast", &fast_));
  }

  void Compute(OpKernelContext* ctx) override {
    linalg::MatrixBatch batch;
    OP_REQUIRES_OK(ctx, linalg::AnalyzeMatrixInputs(ctx, 2, &batch));
    OP_REQUIRES(ctx, batch.rows[0] == batch.rows[1],
                errors::InvalidArgument("Input matrix and rhs are incompatible."));
    const int64_t rows = batch.rows[0];
    const int64_t cols = batch.cols[0];
    const int64_t k = batch.cols[1];
    TensorShape out_shape = batch.batch_shape;
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(cols));
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(k));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (batch.batch_size == 0) return;
    const Tensor& l2_t = ctx->input(2);
    OP_REQUIRES(ctx, l2_t.dims() == 0,
                errors::InvalidArgument("l2_regularizer must be scalar, got shape ",
                                        l2_t.shape().DebugString()));
    const double l2 = l2_t.scalar<double>()();
    OP_REQUIRES(ctx, l2 >= 0, errors::InvalidArgument("l2_regularizer must be >= 0."));
    if (cols == 0 || k == 0) return;
    if (rows == 0) {
      // No equations: the minimum-norm solution is zero (TensorFlow leaves it unwritten).
      output->flat<T>().setZero();
      return;
    }
    const Tensor& matrix = ctx->input(0);
    const Tensor& rhs = ctx->input(1);
    const double flops =
        double(std::max(rows, cols)) * std::min(rows, cols) * (std::min(rows, cols) + k);
    const bool ok =
        linalg::ForEachMatrix(ctx, batch.batch_size, flops, output->NumElements(), [&](int64_t i) {
          return Solve(linalg::MatrixAt<T>(matrix, i, rows, cols),
                       linalg::MatrixAt<T>(rhs, i, rows, k), l2,
                       linalg::MutableMatrixAt<T>(output, i, cols, k));
        });
    OP_REQUIRES(ctx, ok,
                errors::InvalidArgument(
                    rows >= cols ? "Input matrix was rank deficient or ill-conditioned. Try "
                                   "setting fast=False or provide a larger l2_regularizer > 0."
                                 : "Input matrix was rank deficient or ill-conditioned. Try "
                                   "setting fast=False or provide an l2_regularizer > 0."));
  }

 private:
  using Matrix = linalg::RowMatrix<T>;

  // One system; false when the normal equations' Cholesky decomposition fails.
  bool Solve(const linalg::ConstMatrixMap<T>& a, const linalg::ConstMatrixMap<T>& b, double l2,
             linalg::MatrixMap<T> x) const {
    if (!fast_) {
      // Eigen's heap: the decomposition holds a copy of A and its work vectors.
      x = a.completeOrthogonalDecomposition().solve(b);
      return true;
    }
    const bool tall = a.rows() >= a.cols();
    const int64_t size = tall ? a.cols() : a.rows();
    // Eigen's heap: the Gram matrix, size x size; the decomposition works in place in it.
    Matrix gramian(size, size);
    if (tall) {
      gramian.template triangularView<Eigen::Lower>() = a.adjoint() * a;
    } else {
      gramian.template triangularView<Eigen::Lower>() = a * a.adjoint();
    }
    if (l2 > 0) gramian += (T(l2) * Matrix::Ones(size, 1)).asDiagonal();
    const Eigen::LLT<Eigen::Ref<Matrix>, Eigen::Lower> llt(gramian);
    if (llt.info() != Eigen::Success) return false;
    if (tall) {
      x.noalias() = a.adjoint() * b;
      llt.solveInPlace(x);
    } else {
      x.noalias() = a.adjoint() * llt.solve(b);
    }
    return true;
  }

  bool fast_ = true;
};

#define REGISTER_CPU(T)                                                                    \
  REGISTER_KERNEL_BUILDER(Name("MatrixSolveLs").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          MatrixSolveLsOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
