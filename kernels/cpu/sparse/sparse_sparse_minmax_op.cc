// SparseSparseMaximum and SparseSparseMinimum on the CPU: the elementwise max / min of two
// SparseTensors of one shape over the union of their indices, an index missing on one side
// counting as zero there (so the result keeps zeros). The indices are merged as two sorted
// lists, as TensorFlow's kernel does; it checks that every index is inside the shape but not
// that the lists are sorted, and unsorted input merges in the order given.
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

struct MaxFn {
  template <typename T>
  static T Apply(const T& a, const T& b) {
    return sparse::Maximum(a, b);
  }
};
struct MinFn {
  template <typename T>
  static T Apply(const T& a, const T& b) {
    return sparse::Minimum(a, b);
  }
};

absl::Status CheckOperands(OpKernelContext* ctx) {
  for (int base : {0, 3}) {
    RETURN_IF_ERROR(sparse::ValidateSparseTensorShapes(ctx->input(base), ctx->input(base + 1),
                                                       ctx->input(base + 2)));
    RETURN_IF_ERROR(sparse::ValidateIndicesInBounds(ctx->input(base), ctx->input(base + 2)));
  }
  const Tensor& a_shape = ctx->input(2);
  const Tensor& b_shape = ctx->input(5);
  if (a_shape.NumElements() != b_shape.NumElements()) {
    return errors::InvalidArgument("Operands do not have the same ranks; got shapes: ",
                                   a_shape.SummarizeValue(10), " and ", b_shape.SummarizeValue(10));
  }
  const int64_t* a = static_cast<const int64_t*>(a_shape.raw_data());
  const int64_t* b = static_cast<const int64_t*>(b_shape.raw_data());
  for (int64_t d = 0; d < a_shape.NumElements(); ++d) {
    if (a[d] != b[d]) {
      return errors::InvalidArgument("Operands' shapes do not match: got ", a[d], " and ", b[d],
                                     " for dimension ", d);
    }
  }
  return absl::OkStatus();
}

template <typename T, typename Fn>
class SparseSparseMinMaxOp : public OpKernel {
 public:
  explicit SparseSparseMinMaxOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckOperands(ctx));
    const Tensor& a_indices = ctx->input(0);
    const Tensor& b_indices = ctx->input(3);
    const int64_t a_nnz = a_indices.dim_size(0);
    const int64_t b_nnz = b_indices.dim_size(0);
    const int64_t ndims = a_indices.dim_size(1);
    const int64_t* a_ix = static_cast<const int64_t*>(a_indices.raw_data());
    const int64_t* b_ix = static_cast<const int64_t*>(b_indices.raw_data());
    const T* a_v = ctx->input(1).flat<T>().data();
    const T* b_v = ctx->input(4).flat<T>().data();
    // Each output entry: an A row (>= 0, or -1) and a B row (>= 0, or -1).
    ScratchArray<int64_t> from_a;
    OP_REQUIRES_OK(ctx, from_a.Allocate(ctx, a_nnz + b_nnz));
    ScratchArray<int64_t> from_b;
    OP_REQUIRES_OK(ctx, from_b.Allocate(ctx, a_nnz + b_nnz));
    int64_t n = 0;
    int64_t i = 0;
    int64_t j = 0;
    while (i < a_nnz || j < b_nnz) {
      const int c = i == a_nnz   ? 1
                    : j == b_nnz ? -1
                                 : sparse::CompareRows(a_ix + i * ndims, b_ix + j * ndims, ndims);
      from_a[n] = c <= 0 ? i++ : -1;
      from_b[n] = c >= 0 ? j++ : -1;
      ++n;
    }
    Tensor* out_indices = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {n, ndims}, &out_indices));
    Tensor* out_values = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {n}, &out_values));
    int64_t* ox = static_cast<int64_t*>(out_indices->raw_data());
    T* ov = out_values->flat<T>().data();
    for (int64_t k = 0; k < n; ++k) {
      const int64_t* row = from_a[k] >= 0 ? a_ix + from_a[k] * ndims : b_ix + from_b[k] * ndims;
      std::copy_n(row, ndims, ox + k * ndims);
      ov[k] =
          Fn::Apply(from_a[k] >= 0 ? a_v[from_a[k]] : T(0), from_b[k] >= 0 ? b_v[from_b[k]] : T(0));
    }
  }
};

#define REGISTER_CPU(T)                                                                          \
  REGISTER_KERNEL_BUILDER(Name("SparseSparseMaximum").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseSparseMinMaxOp<T, MaxFn>);                                       \
  REGISTER_KERNEL_BUILDER(Name("SparseSparseMinimum").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseSparseMinMaxOp<T, MinFn>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
