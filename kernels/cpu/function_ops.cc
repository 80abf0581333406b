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

}  // namespace
}  // namespace sluice
