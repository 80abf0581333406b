// Qr on the CPU: A = Q R for each innermost [M, N] matrix, Q with orthonormal columns and R
// upper triangular; full_matrices gives Q [M, M] and R [M, N], otherwise Q [M, P] and
// R [P, N], P = min(M, N).
//
// As TensorFlow: Eigen's HouseholderQR on a row-major matrix, half included (decomposed in
// half, as TensorFlow does); the thin Q is the Householder sequence applied to the first P
// columns of the identity, and R is the upper triangle of the first rows of the packed
// factors.
#include <algorithm>
#include <cstdint>

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
class QrOp : public OpKernel {
 public:
  explicit QrOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("full_matrices", &full_matrices_));
  }

  void Compute(OpKernelContext* ctx) override {
    linalg::MatrixBatch batch;
    OP_REQUIRES_OK(ctx, linalg::AnalyzeMatrixInputs(ctx, 1, &batch));
    const int64_t m = batch.rows[0];
    const int64_t n = batch.cols[0];
    const int64_t p = std::min(m, n);
    const int64_t q_cols = full_matrices_ ? m : p;
    const int64_t r_rows = full_matrices_ ? m : p;
    Tensor* q = nullptr;
    Tensor* r = nullptr;
    OP_REQUIRES_OK(ctx, AllocateMatrices(ctx, 0, batch.batch_shape, m, q_cols, &q));
    OP_REQUIRES_OK(ctx, AllocateMatrices(ctx, 1, batch.batch_shape, r_rows, n, &r));
    if (q->NumElements() == 0 && r->NumElements() == 0) return;
    const Tensor& input = ctx->input(0);
    const double flops = 2.0 * std::max(m, n) * p * p;
    linalg::ForEachMatrix(ctx, batch.batch_size, flops, input.NumElements(), [&](int64_t i) {
      // Eigen's heap: the decomposition holds one m x n matrix and p coefficients.
      Eigen::HouseholderQR<linalg::RowMatrix<T>> qr(linalg::MatrixAt<T>(input, i, m, n));
      auto q_out = linalg::MutableMatrixAt<T>(q, i, m, q_cols);
      auto r_out = linalg::MutableMatrixAt<T>(r, i, r_rows, n);
      if (full_matrices_) {
        q_out = qr.householderQ();
        r_out = qr.matrixQR().template triangularView<Eigen::Upper>();
      } else {
        // Eigen's heap: an m x p identity that the reflections are applied to.
        const linalg::RowMatrix<T> identity = linalg::RowMatrix<T>::Identity(m, p);
        q_out = qr.householderQ() * identity;
        r_out = qr.matrixQR().block(0, 0, p, n).template triangularView<Eigen::Upper>();
      }
      return true;
    });
  }

 private:
  static absl::Status AllocateMatrices(OpKernelContext* ctx, int index, const TensorShape& batch,
                                       int64_t rows, int64_t cols, Tensor** out) {
    TensorShape shape = batch;
    RETURN_IF_ERROR(shape.AddDimWithStatus(rows));
    RETURN_IF_ERROR(shape.AddDimWithStatus(cols));
    return ctx->allocate_output(index, shape, out);
  }

  bool full_matrices_ = false;
};

#define REGISTER_CPU(T) \
  REGISTER_KERNEL_BUILDER(Name("Qr").Device(DEVICE_CPU).TypeConstraint<T>("T"), QrOp<T>);
SLUICE_CALL_half(REGISTER_CPU) SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
