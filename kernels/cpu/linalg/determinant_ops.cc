// MatrixDeterminant and LogMatrixDeterminant on the CPU, per innermost square matrix.
//
// As TensorFlow: an LU decomposition with partial pivoting (Eigen::PartialPivLU) of a
// column-major copy; log|det| is the sum of the logs of |U's diagonal|, the sign is the
// permutation's times the product of diagonal / |diagonal|. A zero pivot gives sign 0 and
// log|det| -inf; a NaN propagates, and an infinite pivot gives
// log|det| +inf with its sign, as TensorFlow's build computes them.
// MatrixDeterminant is sign * exp(log|det|), not the product of the pivots, so that it
// rounds as TensorFlow's does. An empty matrix's determinant is 1.
#include <cmath>
#include <cstdint>
#include <limits>

#include "Eigen/LU"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matrix_batch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
using ColMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

// The product of the pivots' signs: d / |d| for each pivot d. For real pivots TensorFlow's
// build computes the sign of d instead (+-1 for an infinite pivot, 0 for a zero one, NaN for
// NaN), where d / |d| would be NaN for the first two.
template <typename T, typename Diag, typename AbsDiag>
T PivotSigns(const Diag& diag, const AbsDiag& abs_diag) {
  if constexpr (Eigen::NumTraits<T>::IsComplex) {
    return (diag / abs_diag).prod();
  } else {
    T sign = T(1);
    for (Eigen::Index i = 0; i < diag.size(); ++i) {
      const T d = diag[i];
      sign *= d > 0 ? T(1) : (d < 0 ? T(-1) : d);
    }
    return sign;
  }
}

// log|det(m)|, with det(m)'s sign (or phase, for complex T) in *sign.
template <typename T>
typename Eigen::NumTraits<T>::Real SignAndLogAbsDet(const ColMatrix<T>& m, T* sign) {
  using Real = typename Eigen::NumTraits<T>::Real;
  Real log_abs_det = 0;
  *sign = T(1);
  if (m.size() > 0) {
    // Eigen's heap: the decomposition holds one n * n matrix and its n pivots
    Eigen::PartialPivLU<ColMatrix<T>> lu(m);
    *sign = lu.permutationP().determinant();
    // Eigen's heap: two vectors of n elements.
    const auto diag = lu.matrixLU().diagonal().array().eval();
    const auto abs_diag = diag.cwiseAbs().eval();
    log_abs_det += abs_diag.log().sum();
    *sign *= PivotSigns<T>(diag, abs_diag);
  }
  // A zero pivot: the determinant is 0. (TensorFlow's source also maps NaN and +inf to
  // sign 0 and -inf, but its build keeps them: NaN stays NaN and +inf stays +inf with the
  // pivots' signs, and the fixtures record that.)
  if (log_abs_det == -std::numeric_limits<Real>::infinity()) *sign = T(0);
  return log_abs_det;
}

// Runs fn(i, sign, log_abs_det) for each matrix of input 0, after TensorFlow's checks.
template <typename T, typename Fn>
void ForEachLogDet(OpKernelContext* ctx, int num_outputs, Tensor** outputs, Fn&& fn) {
  linalg::MatrixBatch batch;
  OP_REQUIRES_OK(ctx, linalg::AnalyzeMatrixInputs(ctx, 1, &batch));
  OP_REQUIRES_OK(ctx, linalg::ValidateSquare(batch));
  for (int k = 0; k < num_outputs; ++k) {
    OP_REQUIRES_OK(ctx, ctx->allocate_output(k, batch.batch_shape, &outputs[k]));
  }
  const Tensor& input = ctx->input(0);
  const int64_t n = batch.rows[0];
  linalg::ForEachMatrix(ctx, batch.batch_size, 2.0 * n * n * n / 3, batch.batch_size,
                        [&](int64_t i) {
                          T sign;
                          // Eigen's heap: a column-major copy, as TensorFlow decomposes.
                          const ColMatrix<T> m = linalg::MatrixAt<T>(input, i, n, n);
                          const auto log_abs_det = SignAndLogAbsDet<T>(m, &sign);
                          fn(i, sign, log_abs_det);
                          return true;
                        });
}

template <typename T>
class MatrixDeterminantOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    Tensor* out[1] = {nullptr};
    ForEachLogDet<T>(ctx, 1, out, [&](int64_t i, T sign, auto log_abs_det) {
      out[0]->flat<T>()(i) = sign * T(std::exp(log_abs_det));
    });
  }
};

template <typename T>
class LogMatrixDeterminantOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    Tensor* out[2] = {nullptr, nullptr};
    ForEachLogDet<T>(ctx, 2, out, [&](int64_t i, T sign, auto log_abs_det) {
      out[0]->flat<T>()(i) = sign;
      out[1]->flat<T>()(i) = T(log_abs_det);
    });
  }
};

#define REGISTER_CPU(T)                                                                           \
  REGISTER_KERNEL_BUILDER(Name("MatrixDeterminant").Device(DEVICE_CPU).TypeConstraint<T>("T"),    \
                          MatrixDeterminantOp<T>);                                                \
  REGISTER_KERNEL_BUILDER(Name("LogMatrixDeterminant").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          LogMatrixDeterminantOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
