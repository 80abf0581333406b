// Empty on the CPU: a tensor of the given shape whose contents are unspecified unless `init`
// asks for zeros (empty strings for DT_STRING, which the allocation constructs anyway).
//
// Checked as TensorFlow does, with its messages: shape an int32 vector of non-negative dims.
#include <cstdint>
#include <cstring>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class EmptyShapeOp : public OpKernel {
 public:
  explicit EmptyShapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("init", &init_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& shape_t = ctx->input(0);
    OP_REQUIRES(ctx, shape_t.dims() == 1,
                errors::InvalidArgument("shape must be a vector of int32, got shape ",
                                        shape_t.shape().DebugString()));
    const int32_t* dims = shape_t.base<int32_t>();
    TensorShape shape;
    for (int64_t i = 0; i < shape_t.NumElements(); ++i) {
      OP_REQUIRES(ctx, dims[i] >= 0,
                  errors::InvalidArgument("Dimension ", dims[i], " must be >= 0"));
      OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(dims[i]));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    if (init_ && output->dtype() != DT_STRING && output->NumElements() > 0) {
      std::memset(output->raw_data(), 0,
                  static_cast<size_t>(output->NumElements()) * DataTypeSize(output->dtype()));
    }
  }

 private:
  bool init_ = false;
};

// TensorFlow's CPU registrations: every number type, bool and string.
DataTypeVector EmptyTypes() {
  return {DT_FLOAT,     DT_DOUBLE,     DT_HALF,  DT_BFLOAT16, DT_INT8,   DT_INT16,
          DT_INT32,     DT_INT64,      DT_UINT8, DT_UINT16,   DT_UINT32, DT_UINT64,
          DT_COMPLEX64, DT_COMPLEX128, DT_BOOL,  DT_STRING};
}

REGISTER_KERNEL_BUILDER(Name("Empty").Device(DEVICE_CPU).TypeConstraint("dtype", EmptyTypes()),
                        EmptyShapeOp);

}  // namespace
}  // namespace sluice
