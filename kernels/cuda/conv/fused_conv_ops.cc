// _FusedConv2D and _FusedDepthwiseConv2dNative on a GPU, float32, float16 and bfloat16, NHWC
// and NCHW: the convolution through cuDNN (gpu_convolution.h), then one pass over its output
// that applies the bias or inference batch norm, the residual addend and the activation
// (conv_epilogue.cu). Two launches where the unfused graph takes three or four, and the
// values of the unfused GPU ops on that convolution's output (conv_epilogue.h).
//
// The fusions taken and their errors are the CPU kernels' (kernels/cpu/linalg/fused_args.h:
// ParseFusion, CheckFusionArgs, CheckFusionAddend), so whatever the remapper fuses for one
// device runs on the other: BiasAdd or FusedBatchNorm (Conv2D only), BiasAdd then a residual
// Add (Conv2D only), each optionally followed by Relu, Relu6, Elu, LeakyRelu or _FusedSwish
// (not after the residual add). The extra arguments are of the convolution's dtype, as the
// op's TArgs say.
//
// TensorFlow's GPU kernel takes the BiasAdd forms alone (cuDNN's fused convolution); the
// others are Sluice's, for the graphs its remapper writes.
#include <string>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/linalg/fused_args.h"
#include "kernels/cuda/conv/gpu_convolution.h"
#include "kernels/cuda/conv_epilogue_launch.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

static_assert(static_cast<int>(cuda::ConvActivation::kRelu) ==
                      static_cast<int>(FusedActivation::kRelu) &&
                  static_cast<int>(cuda::ConvActivation::kSwish) ==
                      static_cast<int>(FusedActivation::kSwish),
              "cuda::ConvActivation must follow FusedActivation");

template <typename T, bool kDepthwise>
class GpuFusedConvOp : public OpKernel {
 public:
  explicit GpuFusedConvOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseConv2DAttrs(ctx, absl::StatusCode::kUnimplemented, &attrs_));
    OP_REQUIRES_OK(ctx, ParseFusedConvolution(ctx, kDepthwise, "GPUs", &spec_));
    OP_REQUIRES_OK(ctx, cuda::ToElementType(DataTypeToEnum<T>::value, &type_));
    epilogue_.batch_norm = spec_.batch_norm;
    epilogue_.add = spec_.add;
    epilogue_.activation = static_cast<cuda::ConvActivation>(spec_.activation);
    epilogue_.leakyrelu_alpha = spec_.leakyrelu_alpha;
    epilogue_.epsilon = spec_.epsilon;
  }

  void Compute(OpKernelContext* ctx) override {
    GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
    OP_REQUIRES(
        ctx, gpu != nullptr,
        errors::Internal("A GPU kernel ran on ", ctx->device()->name(), ", which is not a GPU"));
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    // The CPU kernel's order of checks.
    OP_REQUIRES(ctx, !kDepthwise || filter.NumElements() > 0, ZeroFilterError());
    ConvGeometry geo;
    OP_REQUIRES_OK(ctx,
                   ForwardConvGeometry(attrs_, input.shape(), filter.shape(), kDepthwise, &geo));
    OP_REQUIRES_OK(ctx, CheckFusionArgs(ctx, spec_, geo.out_depth));
    TensorShape output_shape;
    OP_REQUIRES_OK(ctx, geo.OutputShape(&output_shape));
    if (spec_.add) OP_REQUIRES_OK(ctx, CheckFusionAddend(ctx, output_shape));
    OP_REQUIRES(ctx, output_shape.num_elements() == 0 || filter.NumElements() > 0,
                ZeroFilterError());
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));
    if (output->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, conv_.Run(ctx, *gpu, geo, input, filter, output));

    cuda::ConvEpilogueOperands operands;
    const int argument_count = spec_.batch_norm ? 4 : 1;
    for (int k = 0; k < argument_count; ++k) operands.args[k] = ctx->input(2 + k).raw_data();
    if (spec_.add) operands.addend = ctx->input(kAddendInput).raw_data();
    operands.elements = output->NumElements();
    operands.channels = geo.out_depth;
    operands.inner = attrs_.data_format == FORMAT_NHWC ? 1 : geo.out_rows * geo.out_cols;
    OP_REQUIRES_OK(
        ctx, cuda::LaunchStatus(cuda::LaunchConvEpilogue(type_, epilogue_, operands,
                                                         output->raw_data(), gpu->compute_stream()),
                                *this));
  }

 private:
  Conv2DAttrs attrs_;
  FusionSpec spec_;
  cuda::ElementType type_ = cuda::ElementType::kFloat;
  cuda::ConvEpilogue epilogue_;
  cuda::GpuForwardConvolution conv_;
};

#define REGISTER_GPU_FUSED_CONV(T)                                                        \
  REGISTER_KERNEL_BUILDER(Name("_FusedConv2D").Device(DEVICE_GPU).TypeConstraint<T>("T"), \
                          GpuFusedConvOp<T, false>);                                      \
  REGISTER_KERNEL_BUILDER(                                                                \
      Name("_FusedDepthwiseConv2dNative").Device(DEVICE_GPU).TypeConstraint<T>("T"),      \
      GpuFusedConvOp<T, true>);
REGISTER_GPU_FUSED_CONV(float)
REGISTER_GPU_FUSED_CONV(half)
REGISTER_GPU_FUSED_CONV(bfloat16)
#undef REGISTER_GPU_FUSED_CONV

}  // namespace
}  // namespace sluice
