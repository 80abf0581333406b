// SelfAdjointEigV2 on the CPU: the eigenvalues (ascending) of each innermost self-adjoint
// matrix and, with compute_v, its eigenvectors as columns; only the lower triangle is read.
//
// As TensorFlow: Eigen's SelfAdjointEigenSolver (tridiagonalisation and implicit symmetric
// QR) on a row-major matrix, run with subnormals kept (the iteration relies on them, so
// TensorFlow switches flushing off around it), INVALID_ARGUMENT when the iteration does not
// converge (a NaN or infinite input).
#include <cstdint>

#include "Eigen/Eigenvalues"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matrix_batch.h"
#include "numerics/float_environment.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// While alive, this thread keeps subnormal numbers; its previous mode returns afterwards.
class ScopedKeepDenormals {
 public:
  ScopedKeepDenormals() : saved_(numerics::DenormalMode()) { numerics::SetDenormalMode(0); }
  ~ScopedKeepDenormals() { numerics::SetDenormalMode(saved_); }
  ScopedKeepDenormals(const ScopedKeepDenormals&) = delete;
  ScopedKeepDenormals& operator=(const ScopedKeepDenormals&) = delete;

 private:
  const uint64_t saved_;
};

template <typename T>
class SelfAdjointEigV2Op : public OpKernel {
 public:
  explicit SelfAdjointEigV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("compute_v", &compute_v_));
  }

  void Compute(OpKernelContext* ctx) override {
    linalg::MatrixBatch batch;
    OP_REQUIRES_OK(ctx, linalg::AnalyzeMatrixInputs(ctx, 1, &batch));
    OP_REQUIRES_OK(ctx, linalg::ValidateSquare(batch));
    const int64_t n = batch.rows[0];
    TensorShape e_shape = batch.batch_shape;
    OP_REQUIRES_OK(ctx, e_shape.AddDimWithStatus(n));
    // Without compute_v, v is a scalar 0: TensorFlow 2.21's kernel allocates a scalar there
    // (though its shape function says [0]) and leaves it unwritten.
    TensorShape v_shape;
    if (compute_v_) {
      v_shape = batch.batch_shape;
      OP_REQUIRES_OK(ctx, v_shape.AddDimWithStatus(n));
      OP_REQUIRES_OK(ctx, v_shape.AddDimWithStatus(n));
    }
    Tensor* e = nullptr;
    Tensor* v = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, e_shape, &e));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, v_shape, &v));
    if (!compute_v_) v->flat<T>()(0) = T(0);
    if (n == 0 || batch.batch_size == 0) return;
    const Tensor& input = ctx->input(0);
    const bool ok = linalg::ForEachMatrix(
        ctx, batch.batch_size, 8.0 * n * n * n, input.NumElements(), [&](int64_t i) {
          ScopedKeepDenormals keep_denormals;
          // Eigen's heap: the solver holds a few n x n matrices and vectors of n.
          Eigen::SelfAdjointEigenSolver<linalg::RowMatrix<T>> eig(
              linalg::MatrixAt<T>(input, i, n, n),
              compute_v_ ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
          if (eig.info() != Eigen::Success) return false;
          Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> values(e->flat<T>().data() + i * n, n);
          values = eig.eigenvalues().template cast<T>();
          if (compute_v_) linalg::MutableMatrixAt<T>(v, i, n, n) = eig.eigenvectors();
          return true;
        });
    OP_REQUIRES(ctx, ok,
                errors::InvalidArgument("Self-adjoint eigen decomposition was not successful. "
                                        "The input might not be valid."));
  }

 private:
  bool compute_v_ = true;
};

#define REGISTER_CPU(T)                                                                       \
  REGISTER_KERNEL_BUILDER(Name("SelfAdjointEigV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SelfAdjointEigV2Op<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
