// Conv2D, DepthwiseConv2dNative and Conv2DBackpropInput on the CPU.
//
// Each kernel checks attrs at construction and shapes per call (conv_params.h, TensorFlow's
// rules), then runs one convolution: on oneDNN for float and bfloat16 (OneDnnConv caches the
// primitive and the reordered filter), widened to float for half (TensorFlow's CPU kernels
// compute half in float too), and with the plain loops of reference_conv.h for double and
// int32. A depthwise convolution is the grouped one with a group per input channel, and
// Conv2DBackpropInput is the input gradient of Conv2D (the transposed convolution).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/linalg/onednn_conv.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/linalg/reference_conv.h"
#include "kernels/cpu/linalg/winograd_conv.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using Direction = OneDnnConv::Direction;

// TensorFlow runs NCHW only on its oneDNN kernels (float, bfloat16); for the other dtypes its
// own kernels reject NCHW, and so does Sluice, so a graph behaves alike on both.
template <typename T>
constexpr bool kTakesNchw = std::is_same_v<T, float> || std::is_same_v<T, bfloat16>;

// Widens src and filter to float, convolves there and rounds the result back into dst.
template <typename T>
void RunWidened(OpKernelContext* ctx, OneDnnConv* conv, const ConvGeometry& geo,
                const Tensor& filter, const Tensor& src, Tensor* dst) {
  Tensor src_f, filter_f, dst_f;
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, src.shape(), &src_f));
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, filter.shape(), &filter_f));
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, dst->shape(), &dst_f));
  src_f.flat<float>() = src.flat<T>().template cast<float>();
  filter_f.flat<float>() = filter.flat<T>().template cast<float>();
  OP_REQUIRES_OK(ctx, conv->Run(ctx, geo, dnnl::memory::data_type::f32, filter_f, src_f.raw_data(),
                                dst_f.raw_data()));
  dst->flat<T>() = dst_f.flat<float>().template cast<T>();
}

// Convolves src with filter into dst (already allocated, not empty) in `direction`; a forward
// float convolution takes the Winograd path where WinogradConv::TileSize allows it.
template <typename T>
void RunConv(OpKernelContext* ctx, OneDnnConv* conv, WinogradConv* winograd, Direction direction,
             const ConvGeometry& geo, const Tensor& filter, const Tensor& src, Tensor* dst) {
  if (src.NumElements() == 0 || filter.NumElements() == 0) {
    // An empty window (all padding, or no channels) sums to zero.
    std::fill_n(dst->flat<T>().data(), dst->NumElements(), T(0));
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    if (winograd != nullptr && WinogradConv::TileSize(geo) != 0) {
      OP_REQUIRES_OK(ctx, winograd->Run(ctx, geo, filter, src.flat<float>().data(),
                                        dst->flat<float>().data(), {}));
      return;
    }
  }
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, bfloat16>) {
    const absl::Status native =
        conv->Run(ctx, geo, OneDnnType<T>::value, filter, src.raw_data(), dst->raw_data());
    // CPUs without AVX-512 have no oneDNN bfloat16 convolution: compute it in float instead.
    if (std::is_same_v<T, bfloat16> && !native.ok()) {
      RunWidened<T>(ctx, conv, geo, filter, src, dst);
    } else {
      OP_REQUIRES_OK(ctx, native);
    }
  } else if constexpr (std::is_same_v<T, half>) {
    RunWidened<T>(ctx, conv, geo, filter, src, dst);
  } else if (direction == Direction::kForward) {
    reference_conv::Forward<T>(ctx, geo, src.flat<T>().data(), filter.flat<T>().data(),
                               dst->flat<T>().data());
  } else {
    reference_conv::BackwardData<T>(ctx, geo, src.flat<T>().data(), filter.flat<T>().data(),
                                    dst->flat<T>().data());
  }
}

template <typename T, bool kDepthwise>
class Conv2DOp : public OpKernel {
 public:
  explicit Conv2DOp(OpKernelConstruction* ctx) : OpKernel(ctx), conv_(Direction::kForward) {
    OP_REQUIRES_OK(ctx, ParseConv2DAttrs(ctx, absl::StatusCode::kUnimplemented, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    // TensorFlow's depthwise kernel checks this first, before shapes and even for an empty
    // output; Conv2D's only when there is something to compute (below).
    OP_REQUIRES(ctx, !kDepthwise || filter.NumElements() > 0, ZeroFilterError());
    ConvGeometry geo;
    OP_REQUIRES_OK(ctx,
                   ForwardConvGeometry(attrs_, input.shape(), filter.shape(), kDepthwise, &geo));
    if (!kTakesNchw<T> && attrs_.data_format != FORMAT_NHWC) {
      OP_REQUIRES(
          ctx, !kDepthwise,
          errors::Unimplemented("Depthwise convolution on CPU is only supported for NHWC format"));
      OP_REQUIRES(ctx, false,
                  errors::Unimplemented("The Conv2D op currently only supports the NHWC tensor "
                                        "format on the CPU. The op was given the format: ",
                                        ToString(attrs_.data_format)));
    }
    TensorShape output_shape;
    OP_REQUIRES_OK(ctx, geo.OutputShape(&output_shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));
    if (output->NumElements() == 0) return;
    OP_REQUIRES(ctx, filter.NumElements() > 0, ZeroFilterError());
    RunConv<T>(ctx, &conv_, kDepthwise ? nullptr : &winograd_, Direction::kForward, geo, filter,
               input, output);
  }

 private:
  Conv2DAttrs attrs_;
  OneDnnConv conv_;
  WinogradConv winograd_;
};

template <typename T>
class Conv2DBackpropInputOp : public OpKernel {
 public:
  explicit Conv2DBackpropInputOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), conv_(Direction::kBackwardData) {
    OP_REQUIRES_OK(ctx, ParseConv2DAttrs(ctx, absl::StatusCode::kInvalidArgument, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& sizes = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    const Tensor& out_backprop = ctx->input(2);
    TensorShape input_shape;
    OP_REQUIRES_OK(ctx, Conv2DInputShapeFromSizes(sizes, filter.shape(), out_backprop.shape(),
                                                  attrs_.data_format, &input_shape));
    ConvGeometry geo;
    OP_REQUIRES_OK(ctx, BackpropInputGeometry(attrs_, input_shape, filter.shape(),
                                              out_backprop.shape(), &geo));
    OP_REQUIRES(ctx, kTakesNchw<T> || attrs_.data_format == FORMAT_NHWC,
                errors::InvalidArgument("Conv2DCustomBackpropInputOp only supports NHWC."));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input_shape, &output));
    if (output->NumElements() == 0) return;
    RunConv<T>(ctx, &conv_, nullptr, Direction::kBackwardData, geo, filter, out_backprop, output);
  }

 private:
  Conv2DAttrs attrs_;
  OneDnnConv conv_;
};

#define REGISTER_CONV2D(T)                                                          \
  REGISTER_KERNEL_BUILDER(Name("Conv2D").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          Conv2DOp<T, false>);                                      \
  REGISTER_KERNEL_BUILDER(Name("Conv2DBackpropInput")                               \
                              .Device(DEVICE_CPU)                                   \
                              .TypeConstraint<T>("T")                               \
                              .HostMemory("input_sizes"),                           \
                          Conv2DBackpropInputOp<T>);
#define REGISTER_DEPTHWISE(T)                                                                      \
  REGISTER_KERNEL_BUILDER(Name("DepthwiseConv2dNative").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          Conv2DOp<T, true>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CONV2D)
SLUICE_CALL_int32(REGISTER_CONV2D) SLUICE_CALL_FLOAT_TYPES(REGISTER_DEPTHWISE)
#undef REGISTER_CONV2D
#undef REGISTER_DEPTHWISE

}  // namespace
}  // namespace sluice
