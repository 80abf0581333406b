// Lu on the CPU: P A = L U for each innermost square matrix A, with L (unit diagonal, strictly
// below it) and U (on and above it) packed in `lu`, and the permutation as `p`: row i of P A
// is row p[i] of A.
//
// As TensorFlow: Eigen::PartialPivLU of a column-major copy, and INVALID_ARGUMENT "Input is
// not invertible." when a pivot is exactly zero (raised after the factors are written, so
// no output is used then).
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

template <typename T, typename Index>
class LuOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const int rank = input.dims();
    OP_REQUIRES(ctx, rank >= 2,
                errors::InvalidArgument("Input tensor must have rank >= 2, got ", rank));
    const int64_t n = input.dim_size(rank - 1);
    OP_REQUIRES(ctx, input.dim_size(rank - 2) == n,
                errors::InvalidArgument("Input matrix must be square."));
    TensorShape p_shape = input.shape();
    // shape-safe: the input has rank >= 2 (checked above), so it has a last dim to remove
    p_shape.RemoveLastDims(1);
    Tensor* lu = nullptr;
    Tensor* p = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &lu));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, p_shape, &p));
    if (n == 0) return;
    const int64_t batch_size = input.NumElements() / (n * n);
    using Real = typename Eigen::NumTraits<T>::Real;
    using ColMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    const bool ok = linalg::ForEachMatrix(
        ctx, batch_size, 2.0 * n * n * n / 3, input.NumElements(), [&](int64_t i) {
          // Decomposes a column-major copy, so lu may share the input's buffer.
          // Eigen's heap: the decomposition holds one n x n matrix and its n pivots.
          Eigen::PartialPivLU<ColMatrix> decomposition(linalg::MatrixAt<T>(input, i, n, n));
          auto factors = linalg::MutableMatrixAt<T>(lu, i, n, n);
          factors = decomposition.matrixLU();
          // Eigen's heap: n indices.
          const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, Index> permutation =
              decomposition.permutationP().transpose();
          Eigen::Map<Eigen::Matrix<Index, Eigen::Dynamic, 1>>(p->flat<Index>().data() + i * n, n) =
              permutation.indices();
          const Real min_abs_pivot = factors.diagonal().cwiseAbs().minCoeff();
          return min_abs_pivot > Real(0);
        });
    OP_REQUIRES(ctx, ok, errors::InvalidArgument("Input is not invertible."));
  }
};

#define REGISTER_LU(T, Index)                                            \
  REGISTER_KERNEL_BUILDER(Name("Lu")                                     \
                              .Device(DEVICE_CPU)                        \
                              .TypeConstraint<T>("T")                    \
                              .TypeConstraint<Index>("output_idx_type"), \
                          LuOp<T, Index>);
#define REGISTER_CPU(T) REGISTER_LU(T, int32_t) REGISTER_LU(T, int64_t)
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU
#undef REGISTER_LU

}  // namespace
}  // namespace sluice
