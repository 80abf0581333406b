// ZeroOut's polymorphic form from TensorFlow's "Create an op" guide: one op for float and
// int32 (attr T), one kernel class template registered per type with TypeConstraint.
// Registered as ZeroOutTyped so that it can be loaded beside zero_out.cc's ZeroOut.
//
// Builds unchanged with Bazel and with
//   g++ -std=c++17 -shared -fPIC zero_out_typed.cc -o zero_out_typed.so $(pkg-config --cflags
//   --libs tensorflow_framework)
#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"

using namespace tensorflow;  // NOLINT(build/namespaces): as the guide writes it

REGISTER_OP("ZeroOutTyped")
    .Attr("T: {float, int32}")
    .Input("to_zero: T")
    .Output("zeroed: T")
    .SetShapeFn(shape_inference::UnchangedShape);

template <typename T>
class ZeroOutTypedOp : public OpKernel {
 public:
  explicit ZeroOutTypedOp(OpKernelConstruction* context) : OpKernel(context) {}

  void Compute(OpKernelContext* context) override {
    const Tensor& input_tensor = context->input(0);
    auto input = input_tensor.flat<T>();

    Tensor* output = nullptr;
    OP_REQUIRES_OK(context, context->allocate_output(0, input_tensor.shape(), &output));
    auto output_flat = output->template flat<T>();

    const int64 n = input.size();
    for (int64 i = 1; i < n; ++i) output_flat(i) = T(0);
    if (n > 0) output_flat(0) = input(0);
  }
};

#define REGISTER_KERNEL(type)                                                                \
  REGISTER_KERNEL_BUILDER(Name("ZeroOutTyped").Device(DEVICE_CPU).TypeConstraint<type>("T"), \
                          ZeroOutTypedOp<type>)

REGISTER_KERNEL(float);
REGISTER_KERNEL(int32);

#undef REGISTER_KERNEL
