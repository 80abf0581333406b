// _FusedConv2D and _FusedDepthwiseConv2dNative on the CPU: a convolution followed by BiasAdd
// or inference FusedBatchNorm (Conv2D only), for Conv2D optionally a residual Add after the
// BiasAdd, and an optional activation, as the remapper (passes/remapper.h) writes them.
//
// float and bfloat16 run one oneDNN convolution with the bias in the primitive and the
// activation as an eltwise post-op, so the output is written once. A residual Add is a sum
// post-op: the output starts as the addend (its buffer, when no one else holds it, else a
// copy) and the primitive adds the convolution to it. Batch norm is folded into
// the filter and a bias first (batch_norm_folding.h, cached while the weights stay the same).
// bfloat16 falls back to float where the CPU has no bfloat16 convolution. double runs the
// plain-loop convolution of reference_conv.h and the epilogue loop of fused_epilogue.h, NHWC
// only (as TensorFlow's CPU kernel). Registered dtypes are TensorFlow's CPU ones:
// _FusedConv2D float and double, _FusedDepthwiseConv2dNative float and bfloat16.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/batch_norm_folding.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/linalg/fused_args.h"
#include "kernels/cpu/linalg/fused_epilogue.h"
#include "kernels/cpu/linalg/onednn_conv.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/linalg/reference_conv.h"
#include "kernels/cpu/linalg/winograd_conv.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
constexpr bool kOnOneDnn = std::is_same_v<T, float> || std::is_same_v<T, bfloat16>;

template <typename T, bool kDepthwise>
class FusedConvOp : public OpKernel {
 public:
  explicit FusedConvOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), conv_(OneDnnConv::Direction::kForward) {
    OP_REQUIRES_OK(ctx, ParseConv2DAttrs(ctx, absl::StatusCode::kUnimplemented, &attrs_));
    OP_REQUIRES_OK(ctx, ParseFusedConvolution(ctx, kDepthwise, "the CPU", &spec_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    // As DepthwiseConv2dNative, whose fusion this is: first, even for an empty output.
    OP_REQUIRES(ctx, !kDepthwise || filter.NumElements() > 0, ZeroFilterError());
    ConvGeometry geo;
    OP_REQUIRES_OK(ctx,
                   ForwardConvGeometry(attrs_, input.shape(), filter.shape(), kDepthwise, &geo));
    OP_REQUIRES(ctx, kOnOneDnn<T> || attrs_.data_format == FORMAT_NHWC,
                errors::Unimplemented(
                    "Fused conv implementation only supports NHWC tensor format for now."));
    OP_REQUIRES(ctx, kOnOneDnn<T> || kDepthwise || geo.groups == 1,
                errors::Unimplemented("Fused conv implementation does not support grouped "
                                      "convolutions for now."));
    OP_REQUIRES_OK(ctx, CheckFusionArgs(ctx, spec_, geo.out_depth));
    TensorShape output_shape;
    OP_REQUIRES_OK(ctx, geo.OutputShape(&output_shape));
    if (spec_.add) OP_REQUIRES_OK(ctx, CheckFusionAddend(ctx, output_shape));
    OP_REQUIRES(ctx, output_shape.num_elements() == 0 || filter.NumElements() > 0,
                ZeroFilterError());
    const bool sum_into_output =
        kOnOneDnn<T> && spec_.add && input.NumElements() > 0 && filter.NumElements() > 0;
    Tensor* output = nullptr;
    if (sum_into_output) {
      OP_REQUIRES_OK(
          ctx, ctx->forward_input_or_allocate_output({kAddendInput}, 0, output_shape, &output));
    } else {
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));
    }
    if (output->NumElements() == 0) return;
    T* out = output->flat<T>().data();
    const int64_t inner = attrs_.data_format == FORMAT_NHWC ? 1 : geo.out_rows * geo.out_cols;
    if (input.NumElements() == 0 || filter.NumElements() == 0) {
      // No terms: every window sums to zero before the epilogue.
      std::fill_n(out, output->NumElements(), T(0));
      OP_REQUIRES_OK(
          ctx, ApplyFusedEpilogue<T>(ctx, spec_, geo.out_depth, inner, out, output->NumElements()));
      return;
    }
    if constexpr (kOnOneDnn<T>) {
      RunOneDnn(ctx, geo, input, filter, output);
    } else {
      reference_conv::Forward<T>(ctx, geo, input.flat<T>().data(), filter.flat<T>().data(), out);
      OP_REQUIRES_OK(
          ctx, ApplyFusedEpilogue<T>(ctx, spec_, geo.out_depth, inner, out, output->NumElements()));
    }
  }

 private:
  // The filter and bias the primitive takes: the inputs, or batch norm folded into them.
  void RunOneDnn(OpKernelContext* ctx, const ConvGeometry& geo, const Tensor& input,
                 const Tensor& filter, Tensor* output) {
    Tensor conv_filter = filter;
    Tensor bias = ctx->input(2);
    if (spec_.batch_norm) {
      // Only _FusedConv2D takes batch norm, and it is registered for float alone here.
      OP_REQUIRES_OK(ctx, folder_.Fold(ctx, filter, ctx->input(2), ctx->input(3), ctx->input(4),
                                       ctx->input(5), spec_.epsilon, &conv_filter, &bias));
    }
    const Eltwise act = ActivationEltwise(spec_);
    ConvEpilogue epilogue;
    if (spec_.add) {
      // The sum post-op adds the convolution to what the output holds: the addend.
      const Tensor& addend = ctx->input(kAddendInput);
      if (!output->SharesBufferWith(addend)) {
        std::memcpy(output->raw_data(), addend.raw_data(), addend.TotalBytes());
      }
      epilogue.sum = true;
    }
    epilogue.activation = act.algorithm;
    epilogue.alpha = act.alpha;
    epilogue.beta = act.beta;
    epilogue.bias = bias.raw_data();
    if constexpr (std::is_same_v<T, float>) {
      winograd::OutputEpilogue winograd_epilogue;
      if (!kDepthwise && WinogradConv::TileSize(geo) != 0 &&
          WinogradConv::TranslateEpilogue(epilogue, &winograd_epilogue)) {
        OP_REQUIRES_OK(ctx, winograd_.Run(ctx, geo, conv_filter, input.flat<float>().data(),
                                          output->flat<float>().data(), winograd_epilogue));
        return;
      }
    }
    const absl::Status native = conv_.Run(ctx, geo, OneDnnType<T>::value, conv_filter,
                                          input.raw_data(), output->raw_data(), epilogue);
    // CPUs without AVX-512 have no oneDNN bfloat16 convolution: compute it in float instead.
    if (std::is_same_v<T, bfloat16> && !native.ok()) {
      RunWidened(ctx, geo, input, conv_filter, bias, epilogue, output);
    } else {
      OP_REQUIRES_OK(ctx, native);
    }
  }

  void RunWidened(OpKernelContext* ctx, const ConvGeometry& geo, const Tensor& input,
                  const Tensor& filter, const Tensor& bias, ConvEpilogue epilogue, Tensor* output) {
    Tensor input_f, filter_f, bias_f, output_f;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, input.shape(), &input_f));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, filter.shape(), &filter_f));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, bias.shape(), &bias_f));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, output->shape(), &output_f));
    input_f.flat<float>() = input.flat<T>().template cast<float>();
    filter_f.flat<float>() = filter.flat<T>().template cast<float>();
    bias_f.flat<float>() = bias.flat<T>().template cast<float>();
    if (epilogue.sum) output_f.flat<float>() = output->flat<T>().template cast<float>();
    epilogue.bias = bias_f.raw_data();
    OP_REQUIRES_OK(ctx, conv_.Run(ctx, geo, dnnl::memory::data_type::f32, filter_f,
                                  input_f.raw_data(), output_f.raw_data(), epilogue));
    output->flat<T>() = output_f.flat<float>().template cast<T>();
  }

  Conv2DAttrs attrs_;
  FusionSpec spec_;
  OneDnnConv conv_;
  WinogradConv winograd_;  // float _FusedConv2D's stride-1 3x3 convolutions
  BatchNormFolder folder_;
};

#define REGISTER_FUSED_CONV2D(T)                                                          \
  REGISTER_KERNEL_BUILDER(Name("_FusedConv2D").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          FusedConvOp<T, false>);
#define REGISTER_FUSED_DEPTHWISE(T)                                                  \
  REGISTER_KERNEL_BUILDER(                                                           \
      Name("_FusedDepthwiseConv2dNative").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
      FusedConvOp<T, true>);
SLUICE_CALL_float(REGISTER_FUSED_CONV2D) SLUICE_CALL_double(REGISTER_FUSED_CONV2D)
    SLUICE_CALL_float(REGISTER_FUSED_DEPTHWISE) SLUICE_CALL_bfloat16(REGISTER_FUSED_DEPTHWISE)
#undef REGISTER_FUSED_CONV2D
#undef REGISTER_FUSED_DEPTHWISE

}  // namespace
}  // namespace sluice
