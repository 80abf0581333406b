// Const: the `value` attr, parsed once when the kernel is built; every step outputs a tensor
// sharing that one buffer (no copy, no allocation per step). On a GPU the value is parsed in
// host memory and uploaded once; int32 stays in host memory there (TensorFlow's HostMemory
// registration).
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/types.h"
#include "proto/tensor.pb.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class ConstantOp : public OpKernel {
 public:
  explicit ConstantOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    const TensorProto* proto = nullptr;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value", &proto));
    GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
    if (gpu == nullptr) {
      OP_REQUIRES_OK(ctx, TensorFromProto(ctx->allocator(), *proto, &value_));
    } else if (output_memory_types()[0] == HOST_MEMORY) {
      OP_REQUIRES_OK(ctx, TensorFromProto(ctx->device()->GetHostAllocator(), *proto, &value_));
    } else {
      Tensor host;
      OP_REQUIRES_OK(ctx, TensorFromProto(ctx->device()->GetHostAllocator(), *proto, &host));
      absl::StatusOr<Tensor> device =
          Tensor::Allocate(ctx->allocator(), host.dtype(), host.shape());
      OP_REQUIRES_OK(ctx, device.status());
      value_ = *std::move(device);
      OP_REQUIRES_OK(ctx, gpu->CopyHostToDevice(host, &value_));
    }
    OP_REQUIRES(
        ctx, ctx->output_type(0) == value_.dtype(),
        errors::InvalidArgument("Type mismatch between value (", DataTypeString(value_.dtype()),
                                ") and dtype (", DataTypeString(ctx->output_type(0)), ")"));
    // No kernel writes a Const's value, so caches of what was derived from it (reordered
    // convolution filters) need not check its contents each step.
    value_.MarkReadOnly();
  }

  void Compute(OpKernelContext* ctx) override { ctx->set_output(0, value_); }

  // Producing the value costs nothing: run inline.
  bool IsExpensive() override { return false; }

  const Tensor* const_tensor() const override { return &value_; }

 private:
  Tensor value_;
};

REGISTER_KERNEL_BUILDER(Name("Const").Device(DEVICE_CPU), ConstantOp);

#define REGISTER_GPU_CONST(T) \
  REGISTER_KERNEL_BUILDER(Name("Const").Device(DEVICE_GPU).TypeConstraint<T>("dtype"), ConstantOp);
REGISTER_GPU_CONST(float)
REGISTER_GPU_CONST(half)
REGISTER_GPU_CONST(bfloat16)
REGISTER_GPU_CONST(double)
REGISTER_GPU_CONST(int64_t)
REGISTER_GPU_CONST(bool)
#undef REGISTER_GPU_CONST
REGISTER_KERNEL_BUILDER(
    Name("Const").Device(DEVICE_GPU).HostMemory("output").TypeConstraint<int32_t>("dtype"),
    ConstantOp);

}  // namespace
}  // namespace sluice
