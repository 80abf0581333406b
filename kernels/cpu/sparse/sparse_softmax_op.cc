// SparseSoftmax on the CPU: softmax over the last dim of a SparseTensor of rank >= 2, among
// the entries present only (absent ones do not take part). Entries are sorted into row-major
// order first and the output values follow that order, as TensorFlow's kernel leaves them.
// Each group of entries sharing all but the last coordinate is shifted by its maximum,
// exponentiated and scaled by the reciprocal of its sum.
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class SparseSoftmaxOp : public OpKernel {
 public:
  explicit SparseSoftmaxOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& values = ctx->input(1);
    const Tensor& shape_t = ctx->input(2);
    OP_REQUIRES(ctx, indices.dims() == 2,
                errors::InvalidArgument("Input sp_indices should be a matrix but received shape: ",
                                        indices.shape().DebugString()));
    OP_REQUIRES(ctx, values.dims() == 1 && shape_t.dims() == 1,
                errors::InvalidArgument(
                    "Inputs sp_values and sp_shape should be vectors but received shapes: ",
                    values.shape().DebugString(), " and ", shape_t.shape().DebugString()));
    OP_REQUIRES(ctx, shape_t.NumElements() >= 2,
                errors::InvalidArgument("Input should have rank >= 2, but received shape: ",
                                        shape_t.SummarizeValue(3)));
    OP_REQUIRES(ctx, indices.dim_size(0) < std::numeric_limits<int>::max(),
                errors::InvalidArgument("Number of non-zero elements exceeds int32 range"));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, sparse::DenseShape(shape_t, &shape));
    OP_REQUIRES_OK(ctx, sparse::ValidateCreate(indices, values, shape.dims()));
    const int64_t nnz = indices.dim_size(0);
    const int64_t rank = indices.dim_size(1);
    const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());
    ScratchArray<int64_t> perm;
    OP_REQUIRES_OK(ctx, perm.Allocate(ctx, nnz));
    sparse::SortRows(ix, nnz, rank, perm.data());
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {nnz}, &out));
    const T* v = values.flat<T>().data();
    T* o = out->flat<T>().data();
    int64_t begin = 0;
    while (begin < nnz) {
      int64_t end = begin + 1;
      while (end < nnz &&
             sparse::CompareRows(ix + perm[begin] * rank, ix + perm[end] * rank, rank - 1) == 0) {
        ++end;
      }
      T max = v[perm[begin]];
      for (int64_t k = begin + 1; k < end; ++k) max = max < v[perm[k]] ? v[perm[k]] : max;
      T sum = T(0);
      for (int64_t k = begin; k < end; ++k) {
        o[k] = Eigen::numext::exp(static_cast<T>(v[perm[k]] - max));
        sum += o[k];
      }
      const T scale = T(1) / sum;
      for (int64_t k = begin; k < end; ++k) o[k] = o[k] * scale;
      begin = end;
    }
  }
};

#define REGISTER_CPU(T)                                                                    \
  REGISTER_KERNEL_BUILDER(Name("SparseSoftmax").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseSoftmaxOp<T>);
SLUICE_CALL_half(REGISTER_CPU) SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
