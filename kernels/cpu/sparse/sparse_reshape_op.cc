// SparseReshape on the CPU: the indices of a SparseTensor re-expressed for a new dense shape
// (one -1 entry inferred), each row through its row-major offset. A reshape to the same shape
// passes the inputs through. Checks and messages are TensorFlow's (reshape_util.cc); indices
// are not bounds-checked there either, and one outside the shape maps to whatever its offset
// gives (computed with wrap-around, never undefined behaviour).
#include <array>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The requested shape with its -1 filled in, with TensorFlow's checks and messages.
absl::Status TargetShape(const Tensor& target, const TensorShape& input_shape,
                         TensorShape* output_shape, int64_t* product) {
  const int64_t* sizes = static_cast<const int64_t*>(target.raw_data());
  const int64_t dense_size = input_shape.num_elements();
  int unknown = -1;
  *product = 1;
  for (int d = 0; d < target.NumElements(); ++d) {
    int64_t size = sizes[d];
    if (size == -1) {
      if (unknown != -1) {
        return errors::InvalidArgument("only one output dimension may be -1, not both ", unknown,
                                       " and ", d);
      }
      unknown = d;
      size = 1;
    } else if (size < 0) {
      return errors::InvalidArgument("size ", d, " must be non-negative, not ", size);
    } else {
      *product = MultiplyWithoutOverflow(*product, size);
    }
    RETURN_IF_ERROR(output_shape->AddDimWithStatus(size));
  }
  if (unknown != -1) {
    if (*product <= 0) {
      return errors::InvalidArgument(
          "reshape cannot infer the missing input size for an empty tensor unless all "
          "specified input sizes are non-zero");
    }
    const int64_t missing = dense_size / *product;
    if (*product * missing != dense_size) {
      return errors::InvalidArgument(
          "Input to reshape is a SparseTensor with ", dense_size,
          " dense values, but the requested shape requires a multiple of ", *product,
          ". input_shape=", input_shape.DebugString(),
          " output_shape=", output_shape->DebugString());
    }
    RETURN_IF_ERROR(output_shape->SetDimWithStatus(unknown, missing));
  }
  if (output_shape->num_elements() != dense_size) {
    return errors::InvalidArgument(
        "Input to reshape is a tensor with ", dense_size,
        " dense values, but the requested shape has ", output_shape->num_elements(),
        ". input_shape=", input_shape.DebugString(), " output_shape=", output_shape->DebugString());
  }
  return absl::OkStatus();
}

// Row-major strides of `shape` (rank <= TensorShape::kMaxDims).
void Strides(const TensorShape& shape, uint64_t* strides) {
  uint64_t stride = 1;
  for (int d = shape.dims() - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= static_cast<uint64_t>(shape.dim_size(d));
  }
}

class SparseReshapeOp : public OpKernel {
 public:
  explicit SparseReshapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& input_shape_t = ctx->input(1);
    const Tensor& target = ctx->input(2);
    OP_REQUIRES(ctx, indices.dims() == 2, errors::InvalidArgument("Input must be a matrix."));
    OP_REQUIRES(ctx, input_shape_t.dims() == 1,
                errors::InvalidArgument("Input shape must be a vector."));
    OP_REQUIRES(ctx, indices.dim_size(1) == input_shape_t.dim_size(0),
                errors::InvalidArgument("Input tensor rank must match input shape length."));
    OP_REQUIRES(ctx, target.dims() == 1,
                errors::InvalidArgument("Target shape should be a vector but received shape ",
                                        target.shape().DebugString()));
    TensorShape input_shape;
    OP_REQUIRES_OK(ctx, sparse::DenseShape(input_shape_t, &input_shape));
    TensorShape output_shape;
    int64_t product = 1;
    OP_REQUIRES_OK(ctx, TargetShape(target, input_shape, &output_shape, &product));
    if (input_shape == output_shape) {
      ctx->set_output(0, indices);
      ctx->set_output(1, input_shape_t);
      return;
    }
    OP_REQUIRES_OK(ctx, sparse::OutputShapeVector(ctx, 1, output_shape.dim_sizes()));
    const int64_t nnz = indices.dim_size(0);
    const int in_rank = input_shape.dims();
    const int out_rank = output_shape.dims();
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {nnz, out_rank}, &out));
    if (nnz == 0) return;
    OP_REQUIRES(
        ctx, input_shape.num_elements() > 0 && product > 0,
        errors::InvalidArgument("Input tensor has ", nnz, " non zero elements but input shape (",
                                input_shape.DebugString(), ") or output shape (",
                                output_shape.DebugString(), ") is empty"));
    std::array<uint64_t, TensorShape::kMaxDims> in_strides;
    std::array<uint64_t, TensorShape::kMaxDims> out_strides;
    Strides(input_shape, in_strides.data());
    Strides(output_shape, out_strides.data());
    const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());
    int64_t* ox = static_cast<int64_t*>(out->raw_data());
    for (int64_t i = 0; i < nnz; ++i) {
      uint64_t offset = 0;
      for (int d = 0; d < in_rank; ++d) {
        offset += static_cast<uint64_t>(ix[i * in_rank + d]) * in_strides[d];
      }
      int64_t id = static_cast<int64_t>(offset);
      for (int d = 0; d < out_rank; ++d) {
        const int64_t stride = static_cast<int64_t>(out_strides[d]);
        ox[i * out_rank + d] = id / stride;
        id %= stride;
      }
    }
  }
};

REGISTER_KERNEL_BUILDER(Name("SparseReshape").Device(DEVICE_CPU), SparseReshapeOp);

}  // namespace
}  // namespace sluice
