// SparseTensorDenseMatMul on the CPU: product = op(A) * op(B) for a rank-2 SparseTensor A and
// a dense matrix B, op being the (conjugate) transpose when adjoint_a / adjoint_b is set.
// Each entry of A adds its value times one row of op(B) to one row of the product, in the
// order A lists them, as TensorFlow's kernel does (A need not be sorted; repeated entries
// add up). An index outside A's shape fails with TensorFlow's message naming it.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "kernels/cpu/sparse/sparse_value_math.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckMatMulInputs(const Tensor& a_indices, const Tensor& a_values,
                               const Tensor& a_shape, const Tensor& b) {
  if (b.dims() != 2) return errors::InvalidArgument("Tensor 'b' is not a matrix");
  if (a_shape.dims() != 1) return errors::InvalidArgument("Tensor 'a_shape' is not a vector");
  if (a_shape.NumElements() != 2) {
    return errors::InvalidArgument("Tensor 'a_shape' must have 2 elements");
  }
  if (a_values.dims() != 1) return errors::InvalidArgument("Tensor 'a_values' is not a vector");
  if (a_indices.dims() != 2) {
    return errors::InvalidArgument("Tensor 'a_indices' is not a matrix");
  }
  if (a_indices.dim_size(0) != a_values.NumElements()) {
    return errors::InvalidArgument(
        "Number of rows of a_indices does not match number of entries in a_values");
  }
  if (a_indices.dim_size(1) != a_shape.NumElements()) {
    return errors::InvalidArgument(
        "Number of columns of a_indices does not match number of entries in a_shape");
  }
  return absl::OkStatus();
}

template <typename T, typename Tindex>
class SparseTensorDenseMatMulOp : public OpKernel {
 public:
  explicit SparseTensorDenseMatMulOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("adjoint_a", &adjoint_a_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("adjoint_b", &adjoint_b_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a_indices = ctx->input(0);
    const Tensor& a_values = ctx->input(1);
    const Tensor& a_shape = ctx->input(2);
    const Tensor& b = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckMatMulInputs(a_indices, a_values, a_shape, b));
    const int64_t* a_dims = static_cast<const int64_t*>(a_shape.raw_data());
    const int64_t outer_left = adjoint_a_ ? a_dims[1] : a_dims[0];
    const int64_t inner_left = adjoint_a_ ? a_dims[0] : a_dims[1];
    const int64_t outer_right = adjoint_b_ ? b.dim_size(0) : b.dim_size(1);
    const int64_t inner_right = adjoint_b_ ? b.dim_size(1) : b.dim_size(0);
    OP_REQUIRES(ctx, inner_left == inner_right,
                errors::InvalidArgument(
                    "Cannot multiply A and B because inner dimension does not match: ", inner_left,
                    " vs. ", inner_right, ".  Did you forget a transpose?  Dimensions of A: [",
                    a_dims[0], ", ", a_dims[1], ").  Dimensions of B: ", b.shape().DebugString()));
    // TensorFlow aborts on a negative outer dimension; here it is an error.
    OP_REQUIRES(
        ctx, outer_left >= 0,
        errors::InvalidArgument("Expected shape dimensions to be non-negative, got ", outer_left));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {outer_left, outer_right}, &out));
    if (out->NumElements() == 0) return;
    T* o = out->flat<T>().data();
    for (int64_t i = 0; i < out->NumElements(); ++i) o[i] = T(0);
    const int64_t nnz = a_values.NumElements();
    if (nnz == 0 || b.NumElements() == 0) return;

    const Tindex* ix = a_indices.flat<Tindex>().data();
    const T* av = a_values.flat<T>().data();
    const T* bv = b.flat<T>().data();
    const int64_t b_cols = b.dim_size(1);
    const int lhs_col = adjoint_a_ ? 1 : 0;  // the index column naming the product's row
    const int rhs_col = 1 - lhs_col;
    for (int64_t i = 0; i < nnz; ++i) {
      const int64_t m = ix[2 * i + lhs_col];
      const int64_t k = ix[2 * i + rhs_col];
      OP_REQUIRES(ctx, k >= 0 && k < inner_right,
                  errors::InvalidArgument("k (", k, ") from index[", i, ",", rhs_col,
                                          "] out of bounds (>=", inner_right, ")"));
      OP_REQUIRES(ctx, m >= 0 && m < outer_left,
                  errors::InvalidArgument("m (", m, ") from index[", i, ",", lhs_col,
                                          "] out of bounds (>=", outer_left, ")"));
      const T a = adjoint_a_ ? sparse::Conj(av[i]) : av[i];
      T* row = o + m * outer_right;
      if (adjoint_b_) {
        for (int64_t n = 0; n < outer_right; ++n) row[n] += a * sparse::Conj(bv[n * b_cols + k]);
      } else {
        const T* b_row = bv + k * b_cols;
        for (int64_t n = 0; n < outer_right; ++n) row[n] += a * b_row[n];
      }
    }
  }

 private:
  bool adjoint_a_ = false;
  bool adjoint_b_ = false;
};

#define REGISTER_CPU_INDEX(T, Tindex)                             \
  REGISTER_KERNEL_BUILDER(Name("SparseTensorDenseMatMul")         \
                              .Device(DEVICE_CPU)                 \
                              .TypeConstraint<T>("T")             \
                              .TypeConstraint<Tindex>("Tindices") \
                              .HostMemory("a_shape"),             \
                          SparseTensorDenseMatMulOp<T, Tindex>);
#define REGISTER_CPU(T) REGISTER_CPU_INDEX(T, int32_t) REGISTER_CPU_INDEX(T, int64_t)
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
SLUICE_CALL_int32(REGISTER_CPU)
#undef REGISTER_CPU
#undef REGISTER_CPU_INDEX

}  // namespace
}  // namespace sluice
