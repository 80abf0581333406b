// ZeroOut, the first form of TensorFlow's "Create an op" guide, written as a user writes it:
// TensorFlow's include paths, namespace tensorflow, an int32-only op whose output is its input
// with every element but the first set to zero.
//
// Builds unchanged with Bazel (//compat:examples/zero_out/zero_out.so) and with
//   flags=$(pkg-config --cflags --libs tensorflow_framework)
//   g++ -std=c++17 -shared -fPIC zero_out.cc -o zero_out.so $flags
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

using namespace tensorflow;  // NOLINT(build/namespaces): as the guide writes it

REGISTER_OP("ZeroOut")
    .Input("to_zero: int32")
    .Output("zeroed: int32")
    .SetShapeFn([](::tensorflow::shape_inference::InferenceContext* c) {
      c->set_output(0, c->input(0));
      return OkStatus();
    })
    .Doc(R"doc(
Copies the input with every element but the first set to zero.

zeroed: A tensor of the input's shape: the input's first element, then zeros.
)doc");

class ZeroOutOp : public OpKernel {
 public:
  explicit ZeroOutOp(OpKernelConstruction* context) : OpKernel(context) {}

  void Compute(OpKernelContext* context) override {
    const Tensor& input_tensor = context->input(0);
    auto input = input_tensor.flat<int32>();

    Tensor* output_tensor = nullptr;
    OP_REQUIRES_OK(context, context->allocate_output(0, input_tensor.shape(), &output_tensor));
    auto output_flat = output_tensor->flat<int32>();

    const int64 n = input.size();
    for (int64 i = 1; i < n; ++i) output_flat(i) = 0;
    if (n > 0) output_flat(0) = input(0);
  }
};

REGISTER_KERNEL_BUILDER(Name("ZeroOut").Device(DEVICE_CPU), ZeroOutOp);
