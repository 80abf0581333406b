// A custom-op library that cannot be loaded beside zero_out.cc: it registers ZeroOut again
// with another definition (a type attr), next to a new op of its own. Loading it after
// ZeroOut must fail with ALREADY_EXISTS and register nothing, ZeroOutExtra included.
#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"

using namespace tensorflow;  // NOLINT(build/namespaces): as users write it

REGISTER_OP("ZeroOutExtra")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("ZeroOut")
    .Attr("T: {float, int32}")
    .Input("to_zero: T")
    .Output("zeroed: T")
    .SetShapeFn(shape_inference::UnchangedShape);

class PassThroughOp : public OpKernel {
 public:
  explicit PassThroughOp(OpKernelConstruction* context) : OpKernel(context) {}
  void Compute(OpKernelContext* context) override { context->set_output(0, context->input(0)); }
};

REGISTER_KERNEL_BUILDER(Name("ZeroOutExtra").Device(DEVICE_CPU), PassThroughOp);
