// SparseSlice on the CPU: the entries of a SparseTensor inside [start, start + size), in
// input order, with indices made relative to start; the output shape is the overlap of the
// slice with the dense shape. TensorFlow checks shapes but not index values here (some
// callers use -1 as a placeholder), so any index is compared like the others. Comparisons
// are exact over the whole int64 range. Values are moved by element size.
#include <cstdint>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckSliceInputs(const Tensor& indices, const Tensor& values, const Tensor& shape,
                              const Tensor& start, const Tensor& size) {
  RETURN_IF_ERROR(sparse::ValidateSparseTensorShapes(indices, values, shape));
  if (start.dims() != 1) {
    return errors::InvalidArgument("Input start should be a vector but received shape ",
                                   start.shape().DebugString());
  }
  if (size.dims() != 1) {
    return errors::InvalidArgument("Input size should be a vector but received shape ",
                                   size.shape().DebugString());
  }
  const int64_t rank = shape.NumElements();
  if (start.NumElements() != rank) {
    return errors::InvalidArgument("Expected start to be a vector of length ", rank,
                                   " but got length ", start.NumElements());
  }
  if (size.NumElements() != rank) {
    return errors::InvalidArgument("Expected size to be a vector of length ", rank,
                                   " but got length ", size.NumElements());
  }
  return absl::OkStatus();
}

class SparseSliceOp : public OpKernel {
 public:
  explicit SparseSliceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& values = ctx->input(1);
    const Tensor& start_t = ctx->input(3);
    const Tensor& size_t_ = ctx->input(4);
    OP_REQUIRES_OK(ctx, CheckSliceInputs(indices, values, ctx->input(2), start_t, size_t_));
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, sparse::DenseShape(ctx->input(2), &out_shape));
    const int rank = out_shape.dims();
    const int64_t* start = static_cast<const int64_t*>(start_t.raw_data());
    const int64_t* size = static_cast<const int64_t*>(size_t_.raw_data());
    for (int d = 0; d < rank; ++d) {
      const __int128 dim = out_shape.dim_size(d);
      const int64_t new_dim = start[d] < dim - size[d] ? size[d]
                              : start[d] < dim         ? out_shape.dim_size(d) - start[d]
                                                       : 0;
      OP_REQUIRES_OK(ctx, out_shape.SetDimWithStatus(d, new_dim));
    }
    const int64_t nnz = indices.dim_size(0);
    const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());
    auto hit = [&](int64_t i) {
      for (int d = 0; d < rank; ++d) {
        const __int128 x = ix[i * rank + d];
        if (x < start[d] || x >= static_cast<__int128>(start[d]) + size[d]) return false;
      }
      return true;
    };
    ScratchArray<int64_t> kept;
    OP_REQUIRES_OK(ctx, kept.Allocate(ctx, nnz));
    int64_t count = 0;
    for (int64_t i = 0; i < nnz; ++i) {
      if (hit(i)) kept[count++] = i;
    }
    Tensor* out_indices = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {count, rank}, &out_indices));
    Tensor* out_values = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {count}, &out_values));
    OP_REQUIRES_OK(ctx, sparse::OutputShapeVector(ctx, 2, out_shape.dim_sizes()));
    int64_t* ox = static_cast<int64_t*>(out_indices->raw_data());
    for (int64_t k = 0; k < count; ++k) {
      for (int d = 0; d < rank; ++d)
        ox[k * rank + d] = ix[kept[k] * rank + d] - start[d];  // in range: a hit
    }
    sparse::GatherElements(values, kept.data(), count, out_values);
  }
};

REGISTER_KERNEL_BUILDER(Name("SparseSlice")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T",
                                            array_internal::ArrayTypes({DT_RESOURCE, DT_VARIANT})),
                        SparseSliceOp);

}  // namespace
}  // namespace sluice
