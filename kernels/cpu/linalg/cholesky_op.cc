// Cholesky on the CPU: the lower-triangular L with L L^H = A for each innermost matrix A,
// reading only A's lower triangle.
//
// As TensorFlow: Eigen::LLT on a row-major matrix, and an empty matrix gives itself. When
// the decomposition fails (A not positive definite, or NaN) TensorFlow raises no error: it
// fills L's lower triangle, diagonal included, with NaN so that the failure shows; it leaves
// the upper triangle unwritten (whatever the buffer held), where this kernel writes zeros.
#include <cstdint>
#include <limits>

#include "Eigen/Cholesky"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matrix_batch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class CholeskyOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    linalg::MatrixBatch batch;
    OP_REQUIRES_OK(ctx, linalg::AnalyzeMatrixInputs(ctx, 1, &batch));
    OP_REQUIRES_OK(ctx, linalg::ValidateSquare(batch));
    const Tensor& input = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &output));
    const int64_t n = batch.rows[0];
    if (n == 0 || batch.batch_size == 0) return;
    linalg::ForEachMatrix(
        ctx, batch.batch_size, double(n) * n * n / 3, input.NumElements(), [&](int64_t i) {
          // Decomposes a copy, so the output may share the input's buffer.
          // Eigen's heap: the decomposition holds one n * n matrix
          Eigen::LLT<linalg::RowMatrix<T>> llt(linalg::MatrixAt<T>(input, i, n, n));
          auto out = linalg::MutableMatrixAt<T>(output, i, n, n);
          if (llt.info() == Eigen::Success) {
            out = llt.matrixL();
          } else {
            out.setZero();
            out.template triangularView<Eigen::Lower>().fill(Eigen::NumTraits<T>::quiet_NaN());
          }
          return true;
        });
  }
};

#define REGISTER_CPU(T)                                                               \
  REGISTER_KERNEL_BUILDER(Name("Cholesky").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          CholeskyOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
