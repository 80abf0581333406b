// _Arg and _Retval: the feeds and fetches of a step (or the arguments and results of a
// function call) pass through the step's call frame (runtime/framework/call_frame.h). _DeviceArg
// and _DeviceRetval behave the same on the CPU.
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/call_frame.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckType(const Tensor& value, DataType expected) {
  if (value.dtype() == expected) return absl::OkStatus();
  return errors::InvalidArgument("Type mismatch: actual ", DataTypeString(value.dtype()),
                                 " vs. expect ", DataTypeString(expected));
}

class ArgOp : public OpKernel {
 public:
  explicit ArgOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("index", &index_));
  }

  void Compute(OpKernelContext* ctx) override {
    CallFrameInterface* frame = ctx->call_frame();
    OP_REQUIRES(ctx, frame != nullptr, errors::Internal("no call frame"));
    const Tensor* value = nullptr;
    OP_REQUIRES_OK(ctx, frame->GetArg(index_, &value));
    OP_REQUIRES_OK(ctx, CheckType(*value, dtype_));
    ctx->set_output(0, *value);
  }
  bool IsExpensive() override { return false; }

 private:
  DataType dtype_ = DT_INVALID;
  int index_ = 0;
};

class RetvalOp : public OpKernel {
 public:
  explicit RetvalOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("index", &index_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckType(value, dtype_));
    CallFrameInterface* frame = ctx->call_frame();
    OP_REQUIRES(ctx, frame != nullptr, errors::Internal("no call frame"));
    OP_REQUIRES_OK(ctx, frame->SetRetval(index_, value));
  }
  bool IsExpensive() override { return false; }

 private:
  DataType dtype_ = DT_INVALID;
  int index_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("_Arg").Device(DEVICE_CPU), ArgOp);
REGISTER_KERNEL_BUILDER(Name("_DeviceArg").Device(DEVICE_CPU), ArgOp);
REGISTER_KERNEL_BUILDER(Name("_Retval").Device(DEVICE_CPU), RetvalOp);
REGISTER_KERNEL_BUILDER(Name("_DeviceRetval").Device(DEVICE_CPU), RetvalOp);

// On GPUs, the feeds and fetches a callable keeps in device memory (CallableOptions.feed_devices
// and fetch_devices; the session assigns every other _Arg and _Retval to the host CPU): the
// caller's tensor passes through as it is. int32 lives in host memory there, as TensorFlow keeps
// it; strings and resources cannot be in device memory.
constexpr DataType kGpuFrameTypes[] = {DT_FLOAT, DT_DOUBLE,    DT_HALF,      DT_BFLOAT16,
                                       DT_INT8,  DT_INT16,     DT_INT64,     DT_UINT8,
                                       DT_BOOL,  DT_COMPLEX64, DT_COMPLEX128};
REGISTER_KERNEL_BUILDER(Name("_Arg").Device(DEVICE_GPU).TypeConstraint("T", kGpuFrameTypes), ArgOp);
REGISTER_KERNEL_BUILDER(
    Name("_Arg").Device(DEVICE_GPU).HostMemory("output").TypeConstraint<int32_t>("T"), ArgOp);
REGISTER_KERNEL_BUILDER(Name("_Retval").Device(DEVICE_GPU).TypeConstraint("T", kGpuFrameTypes),
                        RetvalOp);
REGISTER_KERNEL_BUILDER(
    Name("_Retval").Device(DEVICE_GPU).HostMemory("input").TypeConstraint<int32_t>("T"), RetvalOp);

}  // namespace
}  // namespace sluice
