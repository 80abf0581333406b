// SparseSplit on the CPU: a SparseTensor cut into num_split pieces along split_dim (negative
// counts from the end); the first dim % num_split pieces are one longer. Each entry goes to
// the piece holding its split_dim coordinate, in input order, with that coordinate made
// relative to the piece. Index bounds are checked first, as TensorFlow's kernel does. Values
// are moved by element size, so one kernel serves every dtype.
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

absl::Status CheckSplitInputs(const Tensor& axis, const Tensor& indices, const Tensor& values,
                              const Tensor& shape) {
  if (axis.dims() != 0) {
    return errors::InvalidArgument("Input axis should be a scalar but received shape ",
                                   axis.shape().DebugString());
  }
  if (indices.dims() != 2) {
    return errors::InvalidArgument("Input indices should be a matrix but received shape ",
                                   indices.shape().DebugString());
  }
  if (values.dims() != 1) {
    // TensorFlow's message names the indices' shape here.
    return errors::InvalidArgument("Input values should be a vector but received shape ",
                                   indices.shape().DebugString());
  }
  if (shape.dims() != 1) {
    return errors::InvalidArgument("Input shape should be a vector but received shape ",
                                   shape.shape().DebugString());
  }
  return sparse::ValidateSparseTensorShapes(indices, values, shape);
}

class SparseSplitOp : public OpKernel {
 public:
  explicit SparseSplitOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_split", &num_split_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& axis_t = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    const Tensor& values = ctx->input(2);
    const Tensor& shape_t = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckSplitInputs(axis_t, indices, values, shape_t));
    const int64_t rank = shape_t.NumElements();
    const int64_t axis_in = axis_t.scalar<int64_t>()();
    OP_REQUIRES(ctx, axis_in >= -rank && axis_in < rank,
                errors::InvalidArgument("Input axis should be in range [", -rank, ", ", rank,
                                        "), got ", axis_in));
    const int64_t axis = axis_in < 0 ? axis_in + rank : axis_in;
    const int64_t dim_size = static_cast<const int64_t*>(shape_t.raw_data())[axis];
    OP_REQUIRES(ctx, num_split_ >= 1 && num_split_ <= dim_size,
                errors::InvalidArgument("Input num_split should be between 1 and the splitting "
                                        "dimension size (",
                                        dim_size, "), got ", num_split_));
    OP_REQUIRES_OK(ctx, sparse::ValidateIndicesInBounds(indices, shape_t));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, sparse::DenseShape(shape_t, &shape));

    const int64_t split_size = dim_size / num_split_;
    const int64_t residual = dim_size % num_split_;
    const int64_t boundary = residual * (split_size + 1);  // where the longer pieces end
    auto piece_of = [&](int64_t x) {
      return x < boundary ? x / (split_size + 1) : residual + (x - boundary) / split_size;
    };
    auto start_of = [&](int64_t p) {
      return p < residual ? p * (split_size + 1) : boundary + (p - residual) * split_size;
    };
    const int64_t nnz = indices.dim_size(0);
    const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());
    ScratchArray<int64_t> piece;
    OP_REQUIRES_OK(ctx, piece.Allocate(ctx, nnz));
    ScratchArray<int64_t> counts;
    OP_REQUIRES_OK(ctx, counts.Allocate(ctx, num_split_));
    for (int64_t i = 0; i < nnz; ++i) {
      piece[i] = piece_of(ix[i * rank + axis]);
      ++counts[piece[i]];
    }
    ScratchArray<int64_t> members;  // the entries of one piece, in input order
    OP_REQUIRES_OK(ctx, members.Allocate(ctx, nnz));
    for (int p = 0; p < num_split_; ++p) {
      const int64_t count = counts[p];
      Tensor* out_indices = nullptr;
      OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, p, {count, rank}, &out_indices));
      Tensor* out_values = nullptr;
      OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, num_split_ + p, {count}, &out_values));
      int64_t k = 0;
      for (int64_t i = 0; i < nnz; ++i) {
        if (piece[i] == p) members[k++] = i;
      }
      sparse::GatherRows(ix, members.data(), count, rank,
                         static_cast<int64_t*>(out_indices->raw_data()));
      int64_t* ox = static_cast<int64_t*>(out_indices->raw_data());
      for (int64_t j = 0; j < count; ++j) ox[j * rank + axis] -= start_of(p);
      sparse::GatherElements(values, members.data(), count, out_values);
      Tensor* out_shape = nullptr;
      OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 2 * num_split_ + p, {rank}, &out_shape));
      int64_t* os = static_cast<int64_t*>(out_shape->raw_data());
      for (int64_t d = 0; d < rank; ++d) {
        os[d] = d == axis ? split_size + (p < residual ? 1 : 0) : shape.dim_size(d);
      }
    }
  }

 private:
  int num_split_ = 1;
};

REGISTER_KERNEL_BUILDER(Name("SparseSplit")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T",
                                            array_internal::ArrayTypes({DT_RESOURCE, DT_VARIANT})),
                        SparseSplitOp);

}  // namespace
}  // namespace sluice
