// Shape, ShapeN, Size and Rank: facts about the input's shape, written to host memory as
// int32 or int64 (out_type). An int32 output that cannot hold the value is
// INVALID_ARGUMENT, as in TensorFlow.
//
// The input's elements are never read, so the same kernels serve GPUs, where the input stays
// in device memory (int32 in host memory, where GPUs keep it) and the output is written to
// host memory, as TensorFlow registers them: a GPU value's shape costs no copy.
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// Writes `shape`'s dims to output `index` (a vector of the output's dtype).
void OutputShape(OpKernelContext* ctx, int index, const TensorShape& shape) {
  const DataType out_type = ctx->expected_output_dtype(index);
  if (out_type == DT_INT32) {
    for (int d = 0; d < shape.dims(); ++d) {
      OP_REQUIRES(ctx, shape.dim_size(d) <= kInt32Max,
                  errors::InvalidArgument("Shape output type is 32-bit ", " but dim ", d, " is ",
                                          shape.dim_size(d)));
    }
  }
  Tensor* out = nullptr;
  // shape-safe: one dim, the rank of a valid shape
  OP_REQUIRES_OK(ctx, ctx->allocate_output(index, TensorShape({shape.dims()}), &out));
  for (int d = 0; d < shape.dims(); ++d) {
    if (out_type == DT_INT32) {
      out->base<int32_t>()[d] = static_cast<int32_t>(shape.dim_size(d));
    } else {
      out->base<int64_t>()[d] = shape.dim_size(d);
    }
  }
}

class ShapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override { OutputShape(ctx, 0, ctx->input(0).shape()); }
};

class ShapeNOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override {
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      OutputShape(ctx, i, ctx->input(i).shape());
      if (!ctx->status().ok()) return;
    }
  }
};

class SizeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override {
    const int64_t size = ctx->input(0).NumElements();
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    if (out->dtype() == DT_INT32) {
      OP_REQUIRES(ctx, size <= kInt32Max,
                  errors::InvalidArgument("Number of elements was larger than "
                                          "representable by 32-bit output type"));
      out->base<int32_t>()[0] = static_cast<int32_t>(size);
    } else {
      out->base<int64_t>()[0] = size;
    }
  }
};

class RankOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override {
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    out->base<int32_t>()[0] = ctx->input(0).dims();
  }
};

#define REGISTER_SHAPE_OPS(T)                                                               \
  REGISTER_KERNEL_BUILDER(                                                                  \
      Name("Shape").Device(DEVICE_CPU).HostMemory("output").TypeConstraint<T>("out_type"),  \
      ShapeOp);                                                                             \
  REGISTER_KERNEL_BUILDER(                                                                  \
      Name("ShapeN").Device(DEVICE_CPU).HostMemory("output").TypeConstraint<T>("out_type"), \
      ShapeNOp);                                                                            \
  REGISTER_KERNEL_BUILDER(                                                                  \
      Name("Size").Device(DEVICE_CPU).HostMemory("output").TypeConstraint<T>("out_type"), SizeOp);
SLUICE_CALL_int32(REGISTER_SHAPE_OPS) SLUICE_CALL_int64(REGISTER_SHAPE_OPS)
#undef REGISTER_SHAPE_OPS
    REGISTER_KERNEL_BUILDER(Name("Rank").Device(DEVICE_CPU).HostMemory("output"), RankOp);

#define REGISTER_GPU_SHAPE_OPS_FOR(T, OutT, INPUT_ON_HOST)               \
  REGISTER_KERNEL_BUILDER(Name("Shape")                                  \
                              .Device(DEVICE_GPU) INPUT_ON_HOST("input") \
                              .HostMemory("output")                      \
                              .TypeConstraint<T>("T")                    \
                              .TypeConstraint<OutT>("out_type"),         \
                          ShapeOp);                                      \
  REGISTER_KERNEL_BUILDER(Name("ShapeN")                                 \
                              .Device(DEVICE_GPU) INPUT_ON_HOST("input") \
                              .HostMemory("output")                      \
                              .TypeConstraint<T>("T")                    \
                              .TypeConstraint<OutT>("out_type"),         \
                          ShapeNOp);                                     \
  REGISTER_KERNEL_BUILDER(Name("Size")                                   \
                              .Device(DEVICE_GPU) INPUT_ON_HOST("input") \
                              .HostMemory("output")                      \
                              .TypeConstraint<T>("T")                    \
                              .TypeConstraint<OutT>("out_type"),         \
                          SizeOp);
#define SLUICE_ON_DEVICE(arg)
#define SLUICE_ON_HOST(arg) .HostMemory(arg)
#define REGISTER_GPU_SHAPE_OPS(T)                          \
  REGISTER_GPU_SHAPE_OPS_FOR(T, int32_t, SLUICE_ON_DEVICE) \
  REGISTER_GPU_SHAPE_OPS_FOR(T, int64_t, SLUICE_ON_DEVICE) \
  REGISTER_KERNEL_BUILDER(                                 \
      Name("Rank").Device(DEVICE_GPU).HostMemory("output").TypeConstraint<T>("T"), RankOp);
REGISTER_GPU_SHAPE_OPS(float)
REGISTER_GPU_SHAPE_OPS(half)
REGISTER_GPU_SHAPE_OPS(bfloat16)
REGISTER_GPU_SHAPE_OPS(double)
REGISTER_GPU_SHAPE_OPS(int64_t)
REGISTER_GPU_SHAPE_OPS(bool)
REGISTER_GPU_SHAPE_OPS_FOR(int32_t, int32_t, SLUICE_ON_HOST)
REGISTER_GPU_SHAPE_OPS_FOR(int32_t, int64_t, SLUICE_ON_HOST)
REGISTER_KERNEL_BUILDER(Name("Rank")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        RankOp);
#undef REGISTER_GPU_SHAPE_OPS
#undef SLUICE_ON_HOST
#undef SLUICE_ON_DEVICE
#undef REGISTER_GPU_SHAPE_OPS_FOR

}  // namespace
}  // namespace sluice
