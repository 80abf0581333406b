// MatrixInverse on the CPU: the inverse of each innermost square matrix, or of its adjoint.
//
// As TensorFlow: an LU decomposition with partial pivoting (Eigen::PartialPivLU on a
// row-major matrix), INVALID_ARGUMENT "Input is not invertible." when a pivot is exactly
// zero (no condition estimate: a nearly singular matrix gives a large, meaningless
// inverse), an empty matrix's inverse is empty, and half is decomposed in float and rounded
// once, since half's precision is too poor for the elimination.
#include <cstdint>

#include "Eigen/LU"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matrix_batch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The type the decomposition runs in: float for half, T otherwise.
template <typename T>
struct DecompositionType {
  using type = T;
};
template <>
struct DecompositionType<half> {
  using type = float;
};

template <typename T>
class MatrixInverseOp : public OpKernel {
 public:
  explicit MatrixInverseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("adjoint", &adjoint_));
  }

  void Compute(OpKernelContext* ctx) override {
    linalg::MatrixBatch batch;
    OP_REQUIRES_OK(ctx, linalg::AnalyzeMatrixInputs(ctx, 1, &batch));
    OP_REQUIRES_OK(ctx, linalg::ValidateSquare(batch));
    const Tensor& input = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &output));
    const int64_t n = batch.rows[0];
    if (n == 0 || batch.batch_size == 0) return;
    using C = typename DecompositionType<T>::type;
    using Real = typename Eigen::NumTraits<C>::Real;
    const bool ok = linalg::ForEachMatrix(
        ctx, batch.batch_size, 2.0 * n * n * n, input.NumElements(), [&](int64_t i) {
          // Decomposes a copy, so the output may share the input's buffer.
          // Eigen's heap: the decomposition holds n * n elements and n pivots of one matrix
          Eigen::PartialPivLU<linalg::RowMatrix<C>> lu;
          const auto in = linalg::MatrixAt<T>(input, i, n, n);
          if (adjoint_) {
            lu.compute(in.adjoint().template cast<C>());
          } else {
            lu.compute(in.template cast<C>());
          }
          const Real min_abs_pivot = lu.matrixLU().diagonal().cwiseAbs().minCoeff();
          if (!(min_abs_pivot > Real(0))) return false;
          linalg::MutableMatrixAt<T>(output, i, n, n).noalias() = lu.inverse().template cast<T>();
          return true;
        });
    OP_REQUIRES(ctx, ok, errors::InvalidArgument("Input is not invertible."));
  }

 private:
  bool adjoint_ = false;
};

#define REGISTER_CPU(T)                                                                    \
  REGISTER_KERNEL_BUILDER(Name("MatrixInverse").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          MatrixInverseOp<T>);
SLUICE_CALL_half(REGISTER_CPU) SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
