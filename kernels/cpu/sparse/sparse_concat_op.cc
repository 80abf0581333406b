// SparseConcat on the CPU: N SparseTensors of one rank joined along concat_dim (negative
// counts from the end); their other dims must agree. Each input's indices along concat_dim
// are offset by the sizes before it, and the result is sorted into row-major order, as
// TensorFlow's Concat followed by Reorder leaves it (entries with equal indices keep input
// order). Values are moved by element size, so one kernel serves every dtype.
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

const int64_t* Int64s(const Tensor& t) { return static_cast<const int64_t*>(t.raw_data()); }

class SparseConcatOp : public OpKernel {
 public:
  explicit SparseConcatOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("concat_dim", &concat_dim_attr_));
  }

  void Compute(OpKernelContext* ctx) override {
    OpInputList inds;
    OpInputList vals;
    OpInputList shapes;
    OP_REQUIRES_OK(ctx, ctx->input_list("indices", &inds));
    OP_REQUIRES_OK(ctx, ctx->input_list("values", &vals));
    OP_REQUIRES_OK(ctx, ctx->input_list("shapes", &shapes));
    const int n = inds.size();
    for (int i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, inds[i].dims() == 2,
                  errors::InvalidArgument("Input indices should be a matrix but received shape ",
                                          inds[i].shape().DebugString(), " at position ", i));
    }
    for (int i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, vals[i].dims() == 1,
                  errors::InvalidArgument("Input values should be a vector but received shape ",
                                          vals[i].shape().DebugString(), " at position ", i));
    }
    for (int i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, shapes[i].dims() == 1,
                  errors::InvalidArgument("Input shapes should be a vector but received shape ",
                                          shapes[i].shape().DebugString(), " at position ", i));
    }
    const int64_t rank = shapes[0].NumElements();
    for (int i = 1; i < n; ++i) {
      OP_REQUIRES(
          ctx, shapes[i].NumElements() == rank,
          errors::InvalidArgument("Ranks of all input tensors must match: expected ", rank,
                                  " but got ", shapes[i].NumElements(), " at position ", i));
    }
    OP_REQUIRES(ctx, concat_dim_attr_ >= -rank && concat_dim_attr_ < rank,
                errors::InvalidArgument("Concat dimension must be in range [", -rank, ", ", rank,
                                        "), got ", concat_dim_attr_));
    const int64_t dim = concat_dim_attr_ < 0 ? concat_dim_attr_ + rank : concat_dim_attr_;
    // Every shape's element count is checked before the shapes are compared, as TensorFlow
    // does (TFSA-2021-024: an overflowing shape is INTERNAL even when the shapes differ too).
    for (int i = 0; i < n; ++i) {
      int64_t elements = 1;
      for (int64_t d = 0; d < rank; ++d) {
        elements = MultiplyWithoutOverflow(elements, Int64s(shapes[i])[d]);
      }
      OP_REQUIRES(ctx, elements >= 0,
                  errors::Internal("Encountered overflow from large input shape."));
    }
    for (int i = 1; i < n; ++i) {
      for (int64_t d = 0; d < rank; ++d) {
        if (d == dim) continue;
        OP_REQUIRES(ctx, Int64s(shapes[i])[d] == Int64s(shapes[0])[d],
                    errors::InvalidArgument("Input shapes must match: expected ",
                                            Int64s(shapes[0])[d], " for dimension ", d, " but got ",
                                            Int64s(shapes[i])[d], " at position ", i));
      }
    }
    int64_t total = 0;
    int64_t concat_size = 0;
    for (int i = 0; i < n; ++i) {
      OP_REQUIRES_OK(ctx, sparse::ValidateCreate(inds[i], vals[i], rank));
      total += inds[i].dim_size(0);
      concat_size += Int64s(shapes[i])[dim];
    }

    // All entries with offset indices, then sorted.
    ScratchArray<int64_t> ix;
    OP_REQUIRES_OK(ctx, ix.Allocate(ctx, total * rank));
    Tensor all_values;
    // shape-safe: a sum of the inputs' row counts, each a dim of a tensor in memory
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(vals[0].dtype(), TensorShape({total}), &all_values));
    int64_t row = 0;
    uint64_t offset = 0;
    for (int i = 0; i < n; ++i) {
      const int64_t nnz = inds[i].dim_size(0);
      const int64_t* in = Int64s(inds[i]);
      for (int64_t k = 0; k < nnz * rank; ++k) {
        // Wrapping, as TensorFlow's int64 sum does for indices past the shape.
        ix[row * rank + k] =
            static_cast<int64_t>(static_cast<uint64_t>(in[k]) + (k % rank == dim ? offset : 0));
      }
      VisitByElementSize(vals[i].dtype(), [&](auto tag) {
        using U = typename decltype(tag)::type;
        CopyUnits(ElementsAs<U>(vals[i]), MutableElementsAs<U>(&all_values) + row, nnz);
      });
      row += nnz;
      offset += Int64s(shapes[i])[dim];
    }
    ScratchArray<int64_t> perm;
    OP_REQUIRES_OK(ctx, perm.Allocate(ctx, total));
    sparse::SortRows(ix.data(), total, rank, perm.data());
    Tensor* out_indices = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {total, rank}, &out_indices));
    Tensor* out_values = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {total}, &out_values));
    sparse::GatherRows(ix.data(), perm.data(), total, rank,
                       static_cast<int64_t*>(out_indices->raw_data()));
    sparse::GatherElements(all_values, perm.data(), total, out_values);
    Tensor* out_shape = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 2, {rank}, &out_shape));
    int64_t* os = static_cast<int64_t*>(out_shape->raw_data());
    for (int64_t d = 0; d < rank; ++d) os[d] = d == dim ? concat_size : Int64s(shapes[0])[d];
  }

 private:
  int64_t concat_dim_attr_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("SparseConcat")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T",
                                            array_internal::ArrayTypes({DT_RESOURCE, DT_VARIANT})),
                        SparseConcatOp);

}  // namespace
}  // namespace sluice
