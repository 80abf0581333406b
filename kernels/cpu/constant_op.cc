// Const: the `value` attr, parsed once when the kernel is built; every step outputs a tensor
// sharing that one buffer (no copy, no allocation per step).
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/types.h"
#include "proto/tensor.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class ConstantOp : public OpKernel {
 public:
  explicit ConstantOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    const TensorProto* proto = nullptr;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value", &proto));
    OP_REQUIRES_OK(ctx, TensorFromProto(ctx->allocator(), *proto, &value_));
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

}  // namespace
}  // namespace sluice
