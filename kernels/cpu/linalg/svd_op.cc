// Svd on the CPU: A = U diag(s) V^H for each innermost [M, N] matrix, s descending; with
// compute_uv U [M, M or P] and V [N, N or P] (full_matrices or not), else u and v are
// scalars (TensorFlow 2.21's kernel allocates them so, though its shape function says [0]);
// P = min(M, N).
//
// As TensorFlow: Eigen's BDCSVD (divide and conquer, Jacobi below 16 columns) on a
// row-major matrix; an empty matrix has no singular values, and its full U or V is the
// identity; when BDCSVD fails (a NaN or infinite input) every output is NaN, no error.
#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "Eigen/SVD"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matrix_batch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class SvdOp : public OpKernel {
 public:
  explicit SvdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("compute_uv", &compute_uv_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("full_matrices", &full_matrices_));
  }

  void Compute(OpKernelContext* ctx) override {
    linalg::MatrixBatch batch;
    OP_REQUIRES_OK(ctx, linalg::AnalyzeMatrixInputs(ctx, 1, &batch));
    const int64_t m = batch.rows[0];
    const int64_t n = batch.cols[0];
    const int64_t p = std::min(m, n);
    const int64_t u_cols = full_matrices_ ? m : p;
    const int64_t v_cols = full_matrices_ ? n : p;
    Tensor* s = nullptr;
    Tensor* u = nullptr;
    Tensor* v = nullptr;
    // shape-safe: a list of dims that Allocate adds with AddDimWithStatus
    OP_REQUIRES_OK(ctx, Allocate(ctx, 0, batch.batch_shape, {p}, &s));
    // shape-safe: as above
    OP_REQUIRES_OK(ctx, Allocate(ctx, 1, batch.batch_shape, {m, u_cols}, &u));
    // shape-safe: as above
    OP_REQUIRES_OK(ctx, Allocate(ctx, 2, batch.batch_shape, {n, v_cols}, &v));
    if (batch.batch_size == 0) return;
    const Tensor& input = ctx->input(0);
    const double flops = 12.0 * std::max(m, n) * p * p;
    linalg::ForEachMatrix(ctx, batch.batch_size, flops, input.NumElements(), [&](int64_t i) {
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> values(s->flat<T>().data() + i * p, p);
      if (p == 0) {
        // No singular values; a full U or V of a non-empty side is the identity.
        if (compute_uv_ && full_matrices_) {
          linalg::MutableMatrixAt<T>(u, i, m, m).setIdentity();
          linalg::MutableMatrixAt<T>(v, i, n, n).setIdentity();
        }
        return true;
      }
      int options = 0;
      if (compute_uv_) {
        options = full_matrices_ ? Eigen::ComputeFullU | Eigen::ComputeFullV
                                 : Eigen::ComputeThinU | Eigen::ComputeThinV;
      }
      // Eigen's heap: the decomposition holds the matrix, U, V and its work arrays.
      Eigen::BDCSVD<linalg::RowMatrix<T>> svd(linalg::MatrixAt<T>(input, i, m, n), options);
      auto u_out = linalg::MutableMatrixAt<T>(u, i, m, u_cols);
      auto v_out = linalg::MutableMatrixAt<T>(v, i, n, v_cols);
      if (svd.info() != Eigen::Success) {
        values.fill(Eigen::NumTraits<T>::quiet_NaN());
        if (compute_uv_) {
          u_out.fill(Eigen::NumTraits<T>::quiet_NaN());
          v_out.fill(Eigen::NumTraits<T>::quiet_NaN());
        }
        return true;
      }
      values = svd.singularValues().template cast<T>();
      if (compute_uv_) {
        u_out = svd.matrixU();
        v_out = svd.matrixV();
      }
      return true;
    });
  }

 private:
  // Output `index`: the batch dims then `matrix`; u and v without compute_uv are scalars,
  // as TensorFlow 2.21's kernel allocates them (it leaves them unwritten; here they are 0).
  absl::Status Allocate(OpKernelContext* ctx, int index, const TensorShape& batch,
                        std::initializer_list<int64_t> matrix, Tensor** out) const {
    if (index > 0 && !compute_uv_) {
      RETURN_IF_ERROR(ctx->allocate_output(index, TensorShape({}), out));
      (*out)->flat<T>()(0) = T(0);
      return absl::OkStatus();
    }
    TensorShape shape = batch;
    for (int64_t d : matrix) RETURN_IF_ERROR(shape.AddDimWithStatus(d));
    return ctx->allocate_output(index, shape, out);
  }

  bool compute_uv_ = true;
  bool full_matrices_ = false;
};

#define REGISTER_CPU(T) \
  REGISTER_KERNEL_BUILDER(Name("Svd").Device(DEVICE_CPU).TypeConstraint<T>("T"), SvdOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
