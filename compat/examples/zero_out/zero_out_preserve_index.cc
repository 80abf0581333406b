// ZeroOut's third form from TensorFlow's "Create an op" guide: a `preserve_index` attr (with a
// default) validated once in the kernel's constructor, and the input validated in Compute
// before any memory is touched. Registered as ZeroOutPreserveIndex so that it can be loaded
// beside the other two forms.
//
// Builds unchanged with Bazel and with
//   flags=$(pkg-config --cflags --libs tensorflow_framework)
//   g++ -std=c++17 -shared -fPIC zero_out_preserve_index.cc -o zero_out_preserve_index.so $flags
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

using namespace tensorflow;  // NOLINT(build/namespaces): as the guide writes it

REGISTER_OP("ZeroOutPreserveIndex")
    .Attr("preserve_index: int = 0")
    .Input("to_zero: int32")
    .Output("zeroed: int32")
    .SetShapeFn([](shape_inference::InferenceContext* c) {
      shape_inference::ShapeHandle vector;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &vector));
      c->set_output(0, vector);
      return OkStatus();
    });

class ZeroOutPreserveIndexOp : public OpKernel {
 public:
  explicit ZeroOutPreserveIndexOp(OpKernelConstruction* context) : OpKernel(context) {
    OP_REQUIRES_OK(context, context->GetAttr("preserve_index", &preserve_index_));
    OP_REQUIRES(context, preserve_index_ >= 0,
                errors::InvalidArgument("Need preserve_index >= 0, got ", preserve_index_));
  }

  void Compute(OpKernelContext* context) override {
    const Tensor& input_tensor = context->input(0);
    OP_REQUIRES(context, TensorShapeUtils::IsVector(input_tensor.shape()),
                errors::InvalidArgument("ZeroOut expects a 1-D vector."));
    auto input = input_tensor.flat<int32>();
    OP_REQUIRES(context, preserve_index_ < input.dimension(0),
                errors::InvalidArgument("preserve_index out of range"));

    Tensor* output_tensor = nullptr;
    OP_REQUIRES_OK(context, context->allocate_output(0, input_tensor.shape(), &output_tensor));
    auto output_flat = output_tensor->template flat<int32>();

    const int64 n = input.size();
    for (int64 i = 0; i < n; ++i) output_flat(i) = 0;
    output_flat(preserve_index_) = input(preserve_index_);
  }

 private:
  int preserve_index_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("ZeroOutPreserveIndex").Device(DEVICE_CPU), ZeroOutPreserveIndexOp);
