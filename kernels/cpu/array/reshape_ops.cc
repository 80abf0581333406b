// Reshape, Squeeze and ExpandDims: the output is the input's buffer under a new shape; no
// element is copied. Only the new shape is computed and checked here, with TensorFlow's
// rules and messages.
//
// No element is read, so the same kernels serve GPUs: values in device memory, except int32,
// which GPUs keep in host memory, and the shape arguments, always in host memory
// (TensorFlow's registrations).
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Outputs `input` with `shape` (same element count), sharing its buffer.
void SetReshapedOutput(OpKernelContext* ctx, const Tensor& input, const TensorShape& shape) {
  Tensor output;
  CHECK(output.CopyFrom(input, shape));
  ctx->set_output(0, output);
}

class ReshapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& sizes = ctx->input(1);
    OP_REQUIRES(
        ctx, sizes.dims() <= 1,
        errors::InvalidArgument("sizes input must be 1-D, not ", sizes.shape().DebugString()));
    IntegerValues dims;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(sizes, &dims));
    // As in TensorFlow, zero sizes are left out of `product` so that a -1 next to a 0 can
    // still be inferred from the input's non-zero dims.
    int64_t product = 1;
    int unknown_index = -1;
    bool sizes_has_zero_dim = false;
    for (int d = 0; d < static_cast<int>(dims.size()); ++d) {
      const int64_t size = dims[d];
      if (size == -1) {
        OP_REQUIRES(ctx, unknown_index == -1,
                    errors::InvalidArgument("Only one input size may be -1, not both ",
                                            unknown_index, " and ", d));
        unknown_index = d;
      } else if (size == 0) {
        sizes_has_zero_dim = true;
      } else {
        OP_REQUIRES(ctx, size > 0,
                    errors::InvalidArgument("Size ", d, " must be non-negative, not ", size));
        OP_REQUIRES(ctx, product <= std::numeric_limits<int64_t>::max() / size,
                    errors::InvalidArgument("Shape [", absl::StrJoin(dims, ","),
                                            "] has too many elements"));
        product *= size;
      }
    }
    if (unknown_index != -1) {
      int64_t input_elements = 1;
      bool input_has_zero_dims = false;
      for (int64_t d : input.shape().dim_sizes()) {
        if (d > 0 || !sizes_has_zero_dim) {
          input_elements *= d;
        } else {
          input_has_zero_dims = true;
        }
      }
      const int64_t missing = input_elements / product;
      OP_REQUIRES(ctx, input_has_zero_dims || product * missing == input_elements,
                  errors::InvalidArgument("Input to reshape is a tensor with ", input_elements,
                                          " values, but the requested shape requires a "
                                          "multiple of ",
                                          product));
      dims[unknown_index] = missing;
    }
    TensorShape shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(dims, &shape));
    OP_REQUIRES(
        ctx, shape.num_elements() == input.NumElements(),
        errors::InvalidArgument("Input to reshape is a tensor with ", input.NumElements(),
                                " values, but the requested shape has ", shape.num_elements()));
    SetReshapedOutput(ctx, input, shape);
  }
};

class SqueezeOp : public OpKernel {
 public:
  explicit SqueezeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("squeeze_dims", &squeeze_dims_));
  }
  bool IsExpensive() override { return false; }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const int rank = input.dims();
    // heap-ok: one per dim of the input (rank <= 254)
    absl::InlinedVector<bool, 8> wanted(rank, false);
    for (int64_t dim : squeeze_dims_) {
      OP_REQUIRES(ctx, -rank <= dim && dim < rank,
                  errors::InvalidArgument("Tried to squeeze dim index ", dim, " for tensor with ",
                                          rank, " dimensions."));
      wanted[dim < 0 ? dim + rank : dim] = true;
    }
    std::vector<int64_t> dims;  // on the heap, bounded: at most the input's rank entries
    for (int d = 0; d < rank; ++d) {
      const int64_t size = input.dim_size(d);
      if (squeeze_dims_.empty()) {
        if (size != 1) dims.push_back(size);
      } else if (wanted[d]) {
        OP_REQUIRES(ctx, size == 1,
                    errors::InvalidArgument("Can not squeeze dim[", d,
                                            "], expected a dimension of 1, got ", size));
      } else {
        dims.push_back(size);
      }
    }
    // shape-safe: the input's dims, some of its 1s left out
    SetReshapedOutput(ctx, input, TensorShape(dims));
  }

 private:
  std::vector<int64_t> squeeze_dims_;  // on the heap, bounded: the squeeze_dims attr's list
};

class ExpandDimsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& dim_t = ctx->input(1);
    OP_REQUIRES(ctx, dim_t.NumElements() == 1,
                errors::InvalidArgument("'dim' must be a tensor with a single value"));
    int64_t dim = 0;
    OP_REQUIRES_OK(ctx, IntegerTensorScalar(dim_t, &dim));
    const int rank = input.dims();
    OP_REQUIRES(ctx, -1 - rank <= dim && dim <= rank,
                errors::InvalidArgument("Tried to expand dim index ", dim, " for tensor with ",
                                        rank, " dimensions."));
    if (dim < 0) dim += rank + 1;
    TensorShape shape = input.shape();
    OP_REQUIRES_OK(ctx, shape.InsertDimWithStatus(static_cast<int>(dim), 1));
    SetReshapedOutput(ctx, input, shape);
  }
};

REGISTER_KERNEL_BUILDER(
    Name("Reshape").Device(DEVICE_CPU).HostMemory("shape").TypeConstraint<int32_t>("Tshape"),
    ReshapeOp);
REGISTER_KERNEL_BUILDER(
    Name("Reshape").Device(DEVICE_CPU).HostMemory("shape").TypeConstraint<int64_t>("Tshape"),
    ReshapeOp);
REGISTER_KERNEL_BUILDER(Name("Squeeze").Device(DEVICE_CPU), SqueezeOp);
REGISTER_KERNEL_BUILDER(
    Name("ExpandDims").Device(DEVICE_CPU).HostMemory("dim").TypeConstraint<int32_t>("Tdim"),
    ExpandDimsOp);
REGISTER_KERNEL_BUILDER(
    Name("ExpandDims").Device(DEVICE_CPU).HostMemory("dim").TypeConstraint<int64_t>("Tdim"),
    ExpandDimsOp);

#define REGISTER_GPU_RESHAPES(T)                                                                 \
  REGISTER_KERNEL_BUILDER(Name("Reshape")                                                        \
                              .Device(DEVICE_GPU)                                                \
                              .HostMemory("shape")                                               \
                              .TypeConstraint<T>("T")                                            \
                              .TypeConstraint<int32_t>("Tshape"),                                \
                          ReshapeOp);                                                            \
  REGISTER_KERNEL_BUILDER(Name("Reshape")                                                        \
                              .Device(DEVICE_GPU)                                                \
                              .HostMemory("shape")                                               \
                              .TypeConstraint<T>("T")                                            \
                              .TypeConstraint<int64_t>("Tshape"),                                \
                          ReshapeOp);                                                            \
  REGISTER_KERNEL_BUILDER(Name("Squeeze").Device(DEVICE_GPU).TypeConstraint<T>("T"), SqueezeOp); \
  REGISTER_KERNEL_BUILDER(Name("ExpandDims")                                                     \
                              .Device(DEVICE_GPU)                                                \
                              .HostMemory("dim")                                                 \
                              .TypeConstraint<T>("T")                                            \
                              .TypeConstraint<int32_t>("Tdim"),                                  \
                          ExpandDimsOp);                                                         \
  REGISTER_KERNEL_BUILDER(Name("ExpandDims")                                                     \
                              .Device(DEVICE_GPU)                                                \
                              .HostMemory("dim")                                                 \
                              .TypeConstraint<T>("T")                                            \
                              .TypeConstraint<int64_t>("Tdim"),                                  \
                          ExpandDimsOp);
REGISTER_GPU_RESHAPES(float)
REGISTER_GPU_RESHAPES(half)
REGISTER_GPU_RESHAPES(bfloat16)
REGISTER_GPU_RESHAPES(double)
REGISTER_GPU_RESHAPES(int64_t)
REGISTER_GPU_RESHAPES(bool)
#undef REGISTER_GPU_RESHAPES
REGISTER_KERNEL_BUILDER(Name("Squeeze")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        SqueezeOp);
REGISTER_KERNEL_BUILDER(Name("Reshape")
                            .Device(DEVICE_GPU)
                            .HostMemory("tensor")
                            .HostMemory("shape")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        ReshapeOp);

}  // namespace
}  // namespace sluice
