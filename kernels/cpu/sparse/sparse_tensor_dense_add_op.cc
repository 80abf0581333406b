// SparseTensorDenseAdd on the CPU: output = b + A for a SparseTensor A of b's shape (ranks 1
// to 5, as TensorFlow's kernel), adding each entry of A in turn, so repeated indices add up
// and order does not matter. Every index is checked against the shape first.
#include <cstdint>
#include <string>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Element i of an int32 or int64 tensor.
int64_t IndexAt(const Tensor& t, int64_t i) {
  return t.dtype() == DT_INT32 ? static_cast<const int32_t*>(t.raw_data())[i]
                               : static_cast<const int64_t*>(t.raw_data())[i];
}

absl::Status CheckDenseAddInputs(const Tensor& a_indices, const Tensor& a_values,
                                 const Tensor& a_shape, const Tensor& b) {
  if (a_indices.dims() != 2) {
    return errors::InvalidArgument("Input a_indices should be a matrix but received shape: ",
                                   a_indices.shape().DebugString());
  }
  if (a_values.dims() != 1 || a_shape.dims() != 1) {
    return errors::InvalidArgument(
        "Inputs a_values and a_shape should be vectors but received shapes: ",
        a_values.shape().DebugString(), " and ", a_shape.shape().DebugString());
  }
  const int64_t nnz = a_indices.dim_size(0);
  const int64_t ndims = a_indices.dim_size(1);
  if (a_values.dim_size(0) != nnz) {
    return errors::InvalidArgument("Dimensions ", nnz, " and ", a_values.dim_size(0),
                                   " are not compatible");
  }
  if (a_shape.dim_size(0) != ndims) {
    return errors::InvalidArgument("Dimensions ", ndims, " and ", a_shape.dim_size(0),
                                   " are not compatible");
  }
  if (a_shape.NumElements() != b.dims()) {
    return errors::InvalidArgument(
        "Two operands have different ranks; received: ", a_shape.NumElements(), " and ", b.dims());
  }
  for (int d = 0; d < b.dims(); ++d) {
    if (IndexAt(a_shape, d) != b.dim_size(d)) {
      return errors::InvalidArgument("Dimension ", d,
                                     " does not equal (no broadcasting is supported): sparse side ",
                                     IndexAt(a_shape, d), " vs dense side ", b.dim_size(d));
    }
  }
  for (int64_t i = 0; i < nnz; ++i) {
    for (int64_t d = 0; d < ndims; ++d) {
      const int64_t idx = IndexAt(a_indices, i * ndims + d);
      if (idx < 0 || idx >= b.dim_size(d)) {
        return errors::InvalidArgument(
            "Sparse tensor has an invalid index on dimension ", d, ": a_indices(", i, ",", d,
            ") = ", idx, ", dense tensor shape: ", absl::StrJoin(b.shape().dim_sizes(), " "));
      }
    }
  }
  if (ndims < 1 || ndims > 5) {
    return errors::InvalidArgument(
        "Only tensors with ranks between 1 and 5 are currently supported.  Tensor rank: ", ndims);
  }
  return absl::OkStatus();
}

template <typename T>
class SparseTensorDenseAddOp : public OpKernel {
 public:
  explicit SparseTensorDenseAddOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a_indices = ctx->input(0);
    const Tensor& a_values = ctx->input(1);
    const Tensor& b = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckDenseAddInputs(a_indices, a_values, ctx->input(2), b));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, b.shape(), &out));
    const T* in = b.flat<T>().data();
    T* o = out->flat<T>().data();
    std::copy_n(in, b.NumElements(), o);
    const T* v = a_values.flat<T>().data();
    const int64_t nnz = a_indices.dim_size(0);
    const int ndims = b.dims();
    for (int64_t i = 0; i < nnz; ++i) {
      int64_t offset = 0;
      for (int d = 0; d < ndims; ++d) {
        offset = offset * b.dim_size(d) + IndexAt(a_indices, i * ndims + d);
      }
      o[offset] += v[i];
    }
  }
};

#define REGISTER_CPU(T)                                                          \
  REGISTER_KERNEL_BUILDER(Name("SparseTensorDenseAdd")                           \
                              .Device(DEVICE_CPU)                                \
                              .TypeConstraint<T>("T")                            \
                              .TypeConstraint("Tindices", {DT_INT32, DT_INT64}), \
                          SparseTensorDenseAddOp<T>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
