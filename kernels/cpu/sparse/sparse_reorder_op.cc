// SparseReorder on the CPU: a SparseTensor's entries sorted into row-major order of their
// indices. TensorFlow checks only the shapes of the three inputs (sparse_utils'
// ValidateSparseTensor without index checks), so indices outside the dense shape, and
// negative or huge dims, are sorted like any others. Repeated indices keep their input order
// (TensorFlow's sort leaves theirs unspecified). Already sorted input is passed through.
// Values are moved by element size, so one kernel serves every dtype.
#include <cstdint>

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

class SparseReorderOp : public OpKernel {
 public:
  explicit SparseReorderOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& values = ctx->input(1);
    OP_REQUIRES_OK(ctx, sparse::ValidateSparseTensorShapes(indices, values, ctx->input(2)));
    const int64_t nnz = indices.dim_size(0);
    const int64_t ndims = indices.dim_size(1);
    const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());
    if (sparse::RowsSorted(ix, nnz, ndims)) {
      ctx->set_output(0, indices);
      ctx->set_output(1, values);
      return;
    }
    ScratchArray<int64_t> perm;
    OP_REQUIRES_OK(ctx, perm.Allocate(ctx, nnz));
    sparse::SortRows(ix, nnz, ndims, perm.data());
    Tensor* out_indices = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, indices.shape(), &out_indices));
    Tensor* out_values = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, values.shape(), &out_values));
    sparse::GatherRows(ix, perm.data(), nnz, ndims, static_cast<int64_t*>(out_indices->raw_data()));
    sparse::GatherElements(values, perm.data(), nnz, out_values);
  }
};

REGISTER_KERNEL_BUILDER(Name("SparseReorder")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T",
                                            array_internal::ArrayTypes({DT_RESOURCE, DT_VARIANT})),
                        SparseReorderOp);

}  // namespace
}  // namespace sluice
