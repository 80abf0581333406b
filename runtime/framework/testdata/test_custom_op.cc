// A custom-op library for load_library_test: registers SluiceTestAddOne and its CPU kernel
// (y = x + 1 elementwise, reusing x's buffer when it can). Written as a user's library
// would be: outside namespace sluice, against the public headers only, through the paths
// the README's custom-op example names (kept as forwarding headers; //runtime:custom_op_headers).
#include "graph/common_shape_fns.h"
#include "graph/op_registry.h"
#include "runtime/op_kernel.h"

REGISTER_OP("SluiceTestAddOne")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {float, int32}")
    .SetShapeFn(sluice::shape_inference::UnchangedShape);

namespace {

template <typename T>
class AddOneOp : public sluice::OpKernel {
 public:
  explicit AddOneOp(sluice::OpKernelConstruction* ctx) : sluice::OpKernel(ctx) {}

  void Compute(sluice::OpKernelContext* ctx) override {
    const sluice::Tensor& x = ctx->input(0);
    sluice::Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, x.shape(), &y));
    const T* in = x.base<T>();
    T* out = y->base<T>();
    for (int64_t i = 0; i < x.NumElements(); ++i) out[i] = in[i] + T(1);
  }
};

}  // namespace

REGISTER_KERNEL_BUILDER(
    Name("SluiceTestAddOne").Device(::sluice::DEVICE_CPU).TypeConstraint<float>("T"),
    AddOneOp<float>);
REGISTER_KERNEL_BUILDER(
    Name("SluiceTestAddOne").Device(::sluice::DEVICE_CPU).TypeConstraint<int32_t>("T"),
    AddOneOp<int32_t>);
