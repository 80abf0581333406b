// Tile and BroadcastTo: outputs that repeat the input. Both are StridedCopy views: Tile
// splits each output dim into (multiple, input dim) with the multiple at stride 0;
// BroadcastTo gives each broadcast dim stride 0. Outputs equal to the input share its
// buffer.
#include <cstdint>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using array_internal::ArrayTypes;
using array_internal::GpuArrayTypes;

class TileOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& multiples_t = ctx->input(1);
    const int rank = input.dims();
    // TensorFlow registers Tile for every dtype but implements only these.
    const DataType dtype = input.dtype();
    OP_REQUIRES(ctx, dtype != DT_UINT16 && dtype != DT_RESOURCE,
                errors::Unimplemented("TileOp : The input data type is not supported, "
                                      "DataType : ",
                                      DataTypeString(dtype), ", Dimension : ", rank));
    OP_REQUIRES(ctx, multiples_t.dims() == 1,
                errors::InvalidArgument("Expected multiples argument to be a vector of length ",
                                        rank, " but got length ",
                                        multiples_t.dims() == 0 ? 0 : multiples_t.dim_size(0)));
    OP_REQUIRES(ctx, multiples_t.NumElements() == rank,
                errors::InvalidArgument("Expected multiples argument to be a vector of length ",
                                        rank, " but got length ", multiples_t.dim_size(0)));
    IntegerValues multiples;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(multiples_t, &multiples));
    const auto in_strides = RowMajorStrides(input.shape());
    TensorShape shape;
    IntegerValues dims;
    IntegerValues strides;
    bool identity = true;
    for (int d = 0; d < rank; ++d) {
      OP_REQUIRES(
          ctx, multiples[d] >= 0,
          errors::InvalidArgument("Expected multiples[", d, "] >= 0, but got ", multiples[d]));
      OP_REQUIRES(
          ctx,
          multiples[d] == 0 ||
              input.dim_size(d) <= std::numeric_limits<int64_t>::max() / multiples[d],
          errors::InvalidArgument("Encountered overflow when multiplying ", input.dim_size(d),
                                  " with ", multiples[d], ", result: -1"));
      OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(input.dim_size(d) * multiples[d]));
      identity &= multiples[d] == 1;
      dims.push_back(multiples[d]);
      strides.push_back(0);
      dims.push_back(input.dim_size(d));
      strides.push_back(in_strides[d]);
    }
    if (identity) {
      ctx->set_output(0, input);
      return;
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    StridedCopy(ctx, input, 0, dims, strides, out);
  }
};

class BroadcastToOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& shape_t = ctx->input(1);
    OP_REQUIRES(ctx, shape_t.dims() == 1,
                errors::InvalidArgument("Shape must be a 1-D tensor, got shape ",
                                        shape_t.shape().DebugString()));
    IntegerValues sizes;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(shape_t, &sizes));
    for (int64_t size : sizes) {
      OP_REQUIRES(ctx, size >= 0, errors::InvalidArgument("Dimension ", size, " must be >= 0"));
    }
    TensorShape shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(sizes, &shape));
    const int rank = shape.dims();
    const int in_rank = input.dims();
    OP_REQUIRES(
        ctx, in_rank <= rank,
        errors::InvalidArgument("Rank of input (", in_rank,
                                ") must be no greater than rank of output shape (", rank, ")."));
    const auto in_strides = RowMajorStrides(input.shape());
    // heap-ok: one per dim of the input (rank <= 254)
    IntegerValues strides(rank, 0);
    for (int d = 0; d < rank; ++d) {
      const int in_d = d - (rank - in_rank);
      const int64_t in_size = in_d < 0 ? 1 : input.dim_size(in_d);
      OP_REQUIRES(ctx, in_size == shape.dim_size(d) || in_size == 1,
                  errors::InvalidArgument("Incompatible shapes: ", input.shape().DebugString(),
                                          " vs. ", shape.DebugString()));
      if (in_d >= 0 && in_size == shape.dim_size(d)) strides[d] = in_strides[in_d];
    }
    if (shape.num_elements() == input.NumElements()) {
      Tensor view;
      CHECK(view.CopyFrom(input, shape));
      ctx->set_output(0, view);
      return;
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    StridedCopy(ctx, input, 0, shape.dim_sizes(), strides, out);
  }
};

REGISTER_KERNEL_BUILDER(Name("Tile").Device(DEVICE_CPU).HostMemory("multiples"), TileOp);
REGISTER_KERNEL_BUILDER(Name("BroadcastTo")
                            .Device(DEVICE_CPU)
                            .HostMemory("shape")
                            .TypeConstraint("T", ArrayTypes({DT_RESOURCE})),
                        BroadcastToOp);

// On GPUs the same kernel copies with the GPU's strided copy (strided_copy.h).
REGISTER_KERNEL_BUILDER(
    Name("Tile").Device(DEVICE_GPU).HostMemory("multiples").TypeConstraint("T", GpuArrayTypes()),
    TileOp);
REGISTER_KERNEL_BUILDER(
    Name("BroadcastTo").Device(DEVICE_GPU).HostMemory("shape").TypeConstraint("T", GpuArrayTypes()),
    BroadcastToOp);

}  // namespace
}  // namespace sluice
