// SparseAdd and SparseAddGrad on the CPU.
//
// SparseAdd merges two SparseTensors of one shape whose indices are in row-major order: an
// index in one operand only keeps its value, an index in both gets the sum, kept only when
// |sum| >= thresh (so thresh 0 keeps exact zeros). As in TensorFlow, indices are neither
// sorted nor bounds-checked; unsorted input merges in the order given. The output shape is
// a_shape.
//
// SparseAddGrad walks the same merge against sum_indices and routes each sum gradient back to
// the A and B entries at that index; entries whose sum was dropped by thresh get zero.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "kernels/cpu/sparse/sparse_value_math.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckAddInputs(OpKernelContext* ctx) {
  const Tensor& a_indices = ctx->input(0);
  const Tensor& a_values = ctx->input(1);
  const Tensor& a_shape = ctx->input(2);
  const Tensor& b_indices = ctx->input(3);
  const Tensor& b_values = ctx->input(4);
  const Tensor& b_shape = ctx->input(5);
  const Tensor& thresh = ctx->input(6);
  if (a_indices.dims() != 2 || b_indices.dims() != 2) {
    return errors::InvalidArgument(
        "Input indices should be matrices but received shapes: ", a_indices.shape().DebugString(),
        " and ", b_indices.shape().DebugString());
  }
  if (a_values.dims() != 1 || b_values.dims() != 1) {
    return errors::InvalidArgument(
        "Input values should be vectors but received shapes: ", a_values.shape().DebugString(),
        " and ", b_values.shape().DebugString());
  }
  if (a_values.dim_size(0) != a_indices.dim_size(0) ||
      b_values.dim_size(0) != b_indices.dim_size(0)) {
    return errors::InvalidArgument("Expected ", a_indices.dim_size(0), " and ",
                                   b_indices.dim_size(0), " non-empty input values, got ",
                                   a_values.dim_size(0), " and ", b_values.dim_size(0));
  }
  if (a_shape.dims() != 1 || b_shape.dims() != 1) {
    return errors::InvalidArgument("Input shapes should be a vector but received shapes ",
                                   a_shape.shape().DebugString(), " and ",
                                   b_shape.shape().DebugString());
  }
  if (a_shape.NumElements() != b_shape.NumElements()) {
    return errors::InvalidArgument("Operands do not have the same ranks; got shapes: ",
                                   a_shape.SummarizeValue(10), " and ", b_shape.SummarizeValue(10));
  }
  const int64_t* a_dims = static_cast<const int64_t*>(a_shape.raw_data());
  const int64_t* b_dims = static_cast<const int64_t*>(b_shape.raw_data());
  for (int64_t d = 0; d < a_shape.NumElements(); ++d) {
    if (a_dims[d] != b_dims[d]) {
      return errors::InvalidArgument("Operands' shapes do not match: got ", a_dims[d], " and ",
                                     b_dims[d], " for dimension ", d);
    }
  }
  if (thresh.dims() != 0) {
    return errors::InvalidArgument("The magnitude threshold must be a scalar: got shape ",
                                   thresh.shape().DebugString());
  }
  if (a_indices.dim_size(1) != b_indices.dim_size(1)) {
    return errors::InvalidArgument("Input indices must have the same dimension, got ",
                                   a_indices.dim_size(1), " and ", b_indices.dim_size(1));
  }
  return absl::OkStatus();
}

template <typename T>
class SparseAddOp : public OpKernel {
 public:
  explicit SparseAddOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckAddInputs(ctx));
    const Tensor& a_indices = ctx->input(0);
    const Tensor& b_indices = ctx->input(3);
    const Tensor& thresh_t = ctx->input(6);
    using Treal = typename sparse::RealOf<T>::type;
    OP_REQUIRES(
        ctx, thresh_t.dtype() == DataTypeToEnum<Treal>::value,
        errors::InvalidArgument("thresh must be ", DataTypeString(DataTypeToEnum<Treal>::value),
                                " for values of ", DataTypeString(DataTypeToEnum<T>::value),
                                ", got ", DataTypeString(thresh_t.dtype())));
    const Treal thresh = thresh_t.scalar<Treal>()();
    const int64_t a_nnz = a_indices.dim_size(0);
    const int64_t b_nnz = b_indices.dim_size(0);
    const int64_t ndims = a_indices.dim_size(1);
    const int64_t* a_ix = static_cast<const int64_t*>(a_indices.raw_data());
    const int64_t* b_ix = static_cast<const int64_t*>(b_indices.raw_data());
    const T* a_vals = ctx->input(1).flat<T>().data();
    const T* b_vals = ctx->input(4).flat<T>().data();

    // source[k]: entry k of the sum copies its index from A (>= 0, the row) or B (~row).
    ScratchArray<int64_t> source;
    OP_REQUIRES_OK(ctx, source.Allocate(ctx, a_nnz + b_nnz));
    ScratchArray<T> sums;
    OP_REQUIRES_OK(ctx, sums.Allocate(ctx, a_nnz + b_nnz));
    int64_t n = 0;
    int64_t i = 0;
    int64_t j = 0;
    while (i < a_nnz && j < b_nnz) {
      const int c = sparse::CompareRows(a_ix + i * ndims, b_ix + j * ndims, ndims);
      if (c < 0) {
        source[n] = i;
        sums[n++] = a_vals[i++];
      } else if (c > 0) {
        source[n] = ~j;
        sums[n++] = b_vals[j++];
      } else {
        const T s = a_vals[i] + b_vals[j];
        if (thresh <= sparse::Magnitude(s)) {
          source[n] = i;
          sums[n++] = s;
        }
        ++i;
        ++j;
      }
    }
    for (; i < a_nnz; ++i, ++n) {
      source[n] = i;
      sums[n] = a_vals[i];
    }
    for (; j < b_nnz; ++j, ++n) {
      source[n] = ~j;
      sums[n] = b_vals[j];
    }
    Tensor* out_indices = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {n, ndims}, &out_indices));
    Tensor* out_values = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {n}, &out_values));
    int64_t* ox = static_cast<int64_t*>(out_indices->raw_data());
    T* ov = out_values->flat<T>().data();
    for (int64_t k = 0; k < n; ++k) {
      const int64_t* row = source[k] >= 0 ? a_ix + source[k] * ndims : b_ix + ~source[k] * ndims;
      std::copy_n(row, ndims, ox + k * ndims);
      ov[k] = sums[k];
    }
    ctx->set_output(2, ctx->input(2));
  }
};

template <typename T>
class SparseAddGradOp : public OpKernel {
 public:
  explicit SparseAddGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grad = ctx->input(0);
    const Tensor& a_indices = ctx->input(1);
    const Tensor& b_indices = ctx->input(2);
    const Tensor& sum_indices = ctx->input(3);
    OP_REQUIRES(ctx, a_indices.dims() == 2 && b_indices.dims() == 2 && sum_indices.dims() == 2,
                errors::InvalidArgument("Input indices should be matrices but received shapes: ",
                                        a_indices.shape().DebugString(), " and ",
                                        b_indices.shape().DebugString(), " and ",
                                        sum_indices.shape().DebugString()));
    OP_REQUIRES(
        ctx, grad.dims() == 1,
        errors::InvalidArgument("Input backprop_val_grad should be a vector but received shape: ",
                                grad.shape().DebugString()));
    const int64_t ndims = a_indices.dim_size(1);
    OP_REQUIRES(ctx, b_indices.dim_size(1) == ndims && sum_indices.dim_size(1) == ndims,
                errors::InvalidArgument(
                    "The densified operands should have the same ndims; for A, B, sum got: ", ndims,
                    b_indices.dim_size(1), sum_indices.dim_size(1)));
    OP_REQUIRES(ctx, grad.NumElements() == sum_indices.dim_size(0),
                errors::InvalidArgument("# elements of backprop_val_grad and # rows of "
                                        "sum_indices should match (#nnz of sum): got ",
                                        grad.NumElements(), " and ", sum_indices.dim_size(0)));
    const int64_t a_nnz = a_indices.dim_size(0);
    const int64_t b_nnz = b_indices.dim_size(0);
    const int64_t sum_nnz = grad.NumElements();
    Tensor* a_grad = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {a_nnz}, &a_grad));
    Tensor* b_grad = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {b_nnz}, &b_grad));
    T* ag = a_grad->flat<T>().data();
    T* bg = b_grad->flat<T>().data();
    for (int64_t i = 0; i < a_nnz; ++i) ag[i] = T(0);
    for (int64_t j = 0; j < b_nnz; ++j) bg[j] = T(0);
    const int64_t* a_ix = static_cast<const int64_t*>(a_indices.raw_data());
    const int64_t* b_ix = static_cast<const int64_t*>(b_indices.raw_data());
    const int64_t* s_ix = static_cast<const int64_t*>(sum_indices.raw_data());
    const T* g = grad.flat<T>().data();

    // One step of the walk for one operand against sum entry k: a match takes the gradient,
    // an operand index below the sum's was dropped (thresholded) and stays zero.
    auto step = [&](const int64_t* ix, T* out, int64_t* idx, int64_t k, bool* geq) {
      const int c = sparse::CompareRows(ix + *idx * ndims, s_ix + k * ndims, ndims);
      if (c == 0) {
        out[*idx] = g[k];
        ++*idx;
      } else if (c < 0) {
        ++*idx;
        *geq = false;
      }
    };
    int64_t i = 0;
    int64_t j = 0;
    int64_t k = 0;
    while (i < a_nnz && j < b_nnz && k < sum_nnz) {
      bool a_geq = true;
      bool b_geq = true;
      step(a_ix, ag, &i, k, &a_geq);
      step(b_ix, bg, &j, k, &b_geq);
      if (a_geq && b_geq) ++k;
    }
    while (i < a_nnz && k < sum_nnz) {
      bool a_geq = true;
      step(a_ix, ag, &i, k, &a_geq);
      if (a_geq) ++k;
    }
    while (j < b_nnz && k < sum_nnz) {
      bool b_geq = true;
      step(b_ix, bg, &j, k, &b_geq);
      if (b_geq) ++k;
    }
  }
};

#define REGISTER_CPU(T)                                                                    \
  REGISTER_KERNEL_BUILDER(Name("SparseAdd").Device(DEVICE_CPU).TypeConstraint<T>("T"),     \
                          SparseAddOp<T>);                                                 \
  REGISTER_KERNEL_BUILDER(Name("SparseAddGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseAddGradOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU) SLUICE_CALL_int64(REGISTER_CPU)
    SLUICE_CALL_int32(REGISTER_CPU) SLUICE_CALL_int16(REGISTER_CPU) SLUICE_CALL_int8(REGISTER_CPU)
        SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
