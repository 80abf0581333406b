// Conv2D and DepthwiseConv2dNative on a GPU through cuDNN, float32, float16 and bfloat16,
// NHWC and NCHW.
//
// Attrs and shapes are checked by the CPU kernels' code (kernels/cpu/linalg/conv_params.h),
// so errors and output shapes are theirs and TensorFlow's. Per call:
//  1. PlanCudnnConv (conv_plan.h) puts the convolution in cuDNN's terms: a depthwise filter
//     [H, W, C, M] is the HWIO filter [H, W, 1, C*M] of a convolution with C groups, and
//     padding cuDNN cannot express (it pads both sides alike) is added to the input;
//  2. where the plan says so, the input is copied into a temp with that padding as zeros;
//  3. the filter is rewritten from HWIO into cuDNN's layout for the data format (a temp);
//  4. CudnnConvolution runs it, with the algorithm chosen on the node's first call per shape.
// An empty output launches nothing; an empty input under a non-empty output (windows of
// padding only) gives zeros, as on the CPU.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cuda/conv/conv_launch.h"
#include "kernels/cuda/conv/conv_plan.h"
#include "kernels/cuda/conv/cudnn_conv.h"
#include "runtime/framework/gpu/cuda_status.h"
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
    CUstream_st* stream = gpu->compute_stream();
    if (input.NumElements() == 0) {
      OP_REQUIRES_OK(ctx, CudaStatus(cudaMemsetAsync(output->raw_data(), 0,
                                                     output->NumElements() * sizeof(T), stream),
                                     "cudaMemsetAsync"));
      return;
    }
    OP_REQUIRES_OK(ctx, Convolve(ctx, *gpu, geo, input, filter, output));
  }

 private:
  absl::Status Convolve(OpKernelContext* ctx, GpuDeviceContext& gpu, const ConvGeometry& geo,
                        const Tensor& input, const Tensor& filter, Tensor* output) {
    CUstream_st* stream = gpu.compute_stream();
    cuda::CudnnConvPlan plan;
    RETURN_IF_ERROR(cuda::PlanCudnnConv(geo, input.shape(), &plan));
    const Tensor* x = &input;
    Tensor padded;
    if (plan.pad_input) {
      RETURN_IF_ERROR(ctx->allocate_temp(input.dtype(), plan.padded, &padded));
      if (!cuda::LaunchZeroPad(input.raw_data(), padded.raw_data(), plan.pad, sizeof(T), stream)) {
        return errors::Internal("No CUDA padding kernel for ", DataTypeString(input.dtype()));
      }
      RETURN_IF_ERROR(LastLaunchStatus("ZeroPad"));
      x = &padded;
    }
    // The rewritten filter has the filter's elements; its shape is only a size here.
    Tensor cudnn_filter;
    RETURN_IF_ERROR(ctx->allocate_temp(filter.dtype(), filter.shape(), &cudnn_filter));
    if (!cuda::LaunchFilterToCudnn(filter.raw_data(), cudnn_filter.raw_data(), plan.filter,
                                   plan.filter_layout, sizeof(T), stream)) {
      return errors::Internal("No CUDA filter kernel for ", DataTypeString(filter.dtype()));
    }
    RETURN_IF_ERROR(LastLaunchStatus("FilterToCudnn"));
    return conv_.Run(gpu, DataTypeToEnum<T>::value, plan.shape, x->raw_data(),
                     cudnn_filter.raw_data(), output->raw_data());
  }

  Conv2DAttrs attrs_;
  cuda::CudnnConvolution conv_;
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
