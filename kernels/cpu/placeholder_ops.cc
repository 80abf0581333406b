// Placeholder: its kernel runs only when the placeholder was not fed (a fed placeholder is
// replaced by the feed before execution), so running it is always TensorFlow's
// INVALID_ARGUMENT "You must feed a value for placeholder tensor 'x' with dtype float and
// shape [?,3]" (the shape part only when the shape attr has rank > 0).
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class PlaceholderOp : public OpKernel {
 public:
  explicit PlaceholderOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    PartialTensorShape shape;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &shape));
    message_ = absl::StrCat("You must feed a value for placeholder tensor '", name(),
                            "' with dtype ", DataTypeString(output_type(0)));
    if (shape.dims() > 0) absl::StrAppend(&message_, " and shape ", shape.DebugString());
  }

  void Compute(OpKernelContext* ctx) override {
    ctx->CtxFailure(errors::InvalidArgument(message_));
  }
  bool IsExpensive() override { return false; }

 private:
  std::string message_;
};

REGISTER_KERNEL_BUILDER(Name("Placeholder").Device(DEVICE_CPU), PlaceholderOp);

}  // namespace
}  // namespace sluice
