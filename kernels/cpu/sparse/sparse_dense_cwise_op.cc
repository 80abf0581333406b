// SparseDenseCwiseAdd, SparseDenseCwiseMul and SparseDenseCwiseDiv on the CPU: each value of
// a SparseTensor combined with the dense operand's element at its index, the dense side
// broadcast to the sparse shape (never the other way); the output is the new values, one per
// entry. Only entries present take part, so Mul and Div never read the dense side elsewhere.
// As in TensorFlow, Div refuses a dense operand holding any zero, and ranks 1 to 5 are taken.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

struct AddFn {
  static constexpr bool kIsDiv = false;
  template <typename T>
  static T Apply(const T& a, const T& b) {
    return a + b;
  }
};
struct MulFn {
  static constexpr bool kIsDiv = false;
  template <typename T>
  static T Apply(const T& a, const T& b) {
    return a * b;
  }
};
struct DivFn {
  static constexpr bool kIsDiv = true;
  template <typename T>
  static T Apply(const T& a, const T& b) {
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      // The one quotient that overflows wraps, as the hardware's does.
      if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
    }
    return a / b;
  }
};

absl::Status CheckCwiseInputs(const Tensor& indices, const Tensor& values, const Tensor& shape) {
  if (indices.dims() != 2) {
    return errors::InvalidArgument("Input sp_indices should be a matrix but received shape: ",
                                   indices.shape().DebugString());
  }
  if (values.dims() != 1 || shape.dims() != 1) {
    return errors::InvalidArgument(
        "Inputs sp_values and sp_shape should be vectors but received shapes: ",
        values.shape().DebugString(), " and ", shape.shape().DebugString());
  }
  if (values.dim_size(0) != indices.dim_size(0)) {
    return errors::InvalidArgument("The first dimension of values and indices should match. (",
                                   values.dim_size(0), " vs. ", indices.dim_size(0), ")");
  }
  if (shape.NumElements() != indices.dim_size(1)) {
    return errors::InvalidArgument(
        "Number of dimensions must match second dimension of indices. Got ", shape.NumElements(),
        " dimensions, indices shape: ", indices.shape().DebugString());
  }
  return absl::OkStatus();
}

// The dense shape must broadcast to the sparse one: no more dims, each (from the right) equal
// to the sparse dim or 1.
bool BroadcastsTo(const TensorShape& dense, const TensorShape& sparse_shape) {
  const int offset = sparse_shape.dims() - dense.dims();
  if (offset < 0) return false;
  for (int d = 0; d < dense.dims(); ++d) {
    const int64_t s = sparse_shape.dim_size(offset + d);
    const int64_t x = dense.dim_size(d);
    if (x > s || (x != s && x != 1)) return false;
  }
  return true;
}

template <typename T, typename Fn>
class SparseDenseCwiseOp : public OpKernel {
 public:
  explicit SparseDenseCwiseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& values = ctx->input(1);
    const Tensor& dense = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckCwiseInputs(indices, values, ctx->input(2)));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, sparse::DenseShape(ctx->input(2), &shape));
    OP_REQUIRES(
        ctx, BroadcastsTo(dense.shape(), shape),
        errors::InvalidArgument("SparseDenseBinaryOpShared broadcasts dense to sparse only; got "
                                "incompatible shapes: [",
                                absl::StrJoin(shape.dim_sizes(), ","), "] vs. [",
                                absl::StrJoin(dense.shape().dim_sizes(), ","), "]"));
    const T* d = dense.flat<T>().data();
    const int rank = shape.dims();
    const int64_t nnz = indices.dim_size(0);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {nnz}, &out));
    OP_REQUIRES(
        ctx, rank >= 1 && rank <= 5,
        errors::InvalidArgument("Only tensors with ranks between 1 and 5 are currently supported.  "
                                "Tensor rank: ",
                                rank));
    // The dense operand's row-major strides over the sparse rank; broadcast dims stride 0.
    int64_t strides[5] = {0, 0, 0, 0, 0};
    const int offset = rank - dense.dims();
    int64_t stride = 1;
    for (int k = dense.dims() - 1; k >= 0; --k) {
      strides[offset + k] = dense.dim_size(k) == 1 ? 0 : stride;
      stride *= dense.dim_size(k);
    }
    const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());
    // The dense elements the entries pair with, gathered into the output first.
    T* o = out->flat<T>().data();
    for (int64_t i = 0; i < nnz; ++i) {
      int64_t pos = 0;
      for (int k = 0; k < rank; ++k) {
        const int64_t x = ix[i * rank + k];
        OP_REQUIRES(ctx, x >= 0 && x < shape.dim_size(k),
                    errors::InvalidArgument("Provided indices are out-of-bounds w.r.t. dense "
                                            "side with broadcasted shape"));
        pos += x * strides[k];
      }
      o[i] = d[pos];
    }
    if constexpr (Fn::kIsDiv) {
      // Only the dense elements an entry reads must be nonzero.
      for (int64_t i = 0; i < nnz; ++i) {
        OP_REQUIRES(ctx, !(o[i] == T(0)),
                    errors::InvalidArgument("SparseDenseCwiseDiv cannot divide by zero,"
                                            "but input dense tensor contains zero"));
      }
    }
    const T* v = values.flat<T>().data();
    for (int64_t i = 0; i < nnz; ++i) o[i] = Fn::Apply(v[i], o[i]);
  }
};

#define REGISTER_CPU(T)                                                                          \
  REGISTER_KERNEL_BUILDER(Name("SparseDenseCwiseAdd").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseDenseCwiseOp<T, AddFn>);                                         \
  REGISTER_KERNEL_BUILDER(Name("SparseDenseCwiseMul").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseDenseCwiseOp<T, MulFn>);                                         \
  REGISTER_KERNEL_BUILDER(Name("SparseDenseCwiseDiv").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseDenseCwiseOp<T, DivFn>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
