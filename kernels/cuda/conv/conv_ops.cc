// Conv2D and DepthwiseConv2dNative on a GPU through cuDNN, float32, float16 and bfloat16,
// NHWC and NCHW.
//
// Attrs and shapes are checked by the CPU kernels' code (kernels/cpu/linalg/conv_params.h),
// so errors and output shapes are theirs and TensorFlow's; the convolution itself is
// GpuForwardConvolution's (gpu_convolution.h). An empty output launches nothing.
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cuda/conv/gpu_convolution.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T, bool kDepthwise>
class GpuConv2DOp : public OpKernel {
 public:
  explicit GpuConv2DOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseConv2DAttrs(ctx, absl::StatusCode::kUnimplemented, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
    OP_REQUIRES(
        ctx, gpu != nullptr,
        errors::Internal("A GPU kernel ran on ", ctx->device()->name(), ", which is not a GPU"));
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    // The CPU kernels' order of checks (conv_ops.cc there): depthwise rejects an empty
    // filter first, Conv2D only when there is something to compute.
    OP_REQUIRES(ctx, !kDepthwise || filter.NumElements() > 0, ZeroFilterError());
    ConvGeometry geo;
    OP_REQUIRES_OK(ctx,
                   ForwardConvGeometry(attrs_, input.shape(), filter.shape(), kDepthwise, &geo));
    TensorShape output_shape;
    OP_REQUIRES_OK(ctx, geo.OutputShape(&output_shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));
    if (output->NumElements() == 0) return;
    OP_REQUIRES(ctx, filter.NumElements() > 0, ZeroFilterError());
    OP_REQUIRES_OK(ctx, conv_.Run(ctx, *gpu, geo, input, filter, output));
  }

 private:
  Conv2DAttrs attrs_;
  cuda::GpuForwardConvolution conv_;
};

// cuDNN convolves bfloat16 (with float accumulation) on the GPUs Sluice builds for (sm_90).
#define REGISTER_GPU_CONV(T)                                                                       \
  REGISTER_KERNEL_BUILDER(Name("Conv2D").Device(DEVICE_GPU).TypeConstraint<T>("T"),                \
                          GpuConv2DOp<T, false>);                                                  \
  REGISTER_KERNEL_BUILDER(Name("DepthwiseConv2dNative").Device(DEVICE_GPU).TypeConstraint<T>("T"), \
                          GpuConv2DOp<T, true>);
REGISTER_GPU_CONV(float)
REGISTER_GPU_CONV(half)
REGISTER_GPU_CONV(bfloat16)
#undef REGISTER_GPU_CONV

}  // namespace
}  // namespace sluice
