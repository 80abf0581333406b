// EnsureShape on the CPU: forwards its input when the input's shape is compatible with the
// `shape` attr (unknown dims and an unknown rank match anything); otherwise INVALID_ARGUMENT
// "Shape of tensor x [2,3] is not compatible with expected shape [2,4].", naming the input
// as the NodeDef does, in TensorFlow's words. Any dtype.
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class EnsureShapeOp : public OpKernel {
 public:
  explicit EnsureShapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &expected_shape_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    OP_REQUIRES(ctx, expected_shape_.IsCompatibleWith(x.shape()),
                errors::InvalidArgument(
                    "Shape of tensor ", def().input(0), " ", x.shape().DebugString(),
                    " is not compatible with expected shape ", expected_shape_.DebugString(), "."));
    ctx->set_output(0, x);
  }

  bool IsExpensive() override { return false; }

 private:
  PartialTensorShape expected_shape_;
};

REGISTER_KERNEL_BUILDER(Name("EnsureShape").Device(DEVICE_CPU), EnsureShapeOp);

}  // namespace
}  // namespace sluice
