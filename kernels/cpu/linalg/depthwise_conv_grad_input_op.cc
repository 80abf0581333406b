// DepthwiseConv2dNativeBackpropInput on the CPU: the gradient of DepthwiseConv2dNative with
// respect to its input, given input_sizes (the input's shape: 4 values, or its 2 spatial
// dims), the filter [rows, cols, in_depth, multiplier] and out_backprop.
//
// A depthwise convolution is the grouped one with a group per input channel, and its filter
// is already that convolution's HWIO filter (conv_grad_params.h), so this runs the grouped
// input gradient of conv_ops.cc: OneDnnConv for float and bfloat16 (bfloat16 in float where
// the CPU has no bfloat16 convolution), widened to float for half, reference_conv.h's loop
// for double. NCHW for float and bfloat16 only (TensorFlow's other kernels say UNIMPLEMENTED).
// Dilations are honoured for every dtype (TensorFlow's CPU kernels have none here). A filter
// without elements gives a zero gradient.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/conv_grad_params.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/linalg/onednn_conv.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/linalg/reference_conv.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
constexpr bool kTakesNchw = std::is_same_v<T, float> || std::is_same_v<T, bfloat16>;

// Runs the float gradient on the filter and dy cast to float, and rounds it into `out`.
template <typename T>
void RunWidened(OpKernelContext* ctx, OneDnnConv* conv, const ConvGeometry& geo,
                const Tensor& filter, const Tensor& dy, Tensor* out) {
  Tensor filter_f, dy_f, out_f;
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, filter.shape(), &filter_f));
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, dy.shape(), &dy_f));
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, out->shape(), &out_f));
  filter_f.flat<float>() = filter.flat<T>().template cast<float>();
  dy_f.flat<float>() = dy.flat<T>().template cast<float>();
  OP_REQUIRES_OK(ctx, conv->Run(ctx, geo, dnnl::memory::data_type::f32, filter_f, dy_f.raw_data(),
                                out_f.raw_data()));
  out->flat<T>() = out_f.flat<float>().template cast<T>();
}

template <typename T>
class DepthwiseConv2dNativeBackpropInputOp : public OpKernel {
 public:
  explicit DepthwiseConv2dNativeBackpropInputOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), conv_(OneDnnConv::Direction::kBackwardData) {
    OP_REQUIRES_OK(ctx, ParseConv2DAttrs(ctx, absl::StatusCode::kInvalidArgument, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& sizes = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    const Tensor& dy = ctx->input(2);
    TensorShape input_shape;
    OP_REQUIRES_OK(ctx, Conv2DInputShapeFromSizes(sizes, filter.shape(), dy.shape(),
                                                  attrs_.data_format, &input_shape));
    ConvGeometry geo;
    OP_REQUIRES_OK(ctx, DepthwiseBackpropGeometry("DepthwiseConv2DBackpropInput", attrs_,
                                                  input_shape, filter.shape(), dy.shape(), &geo));
    OP_REQUIRES(
        ctx, kTakesNchw<T> || attrs_.data_format == FORMAT_NHWC,
        errors::Unimplemented("Depthwise convolution on CPU is only supported for NHWC format"));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input_shape, &output));
    if (output->NumElements() == 0) return;
    if (filter.NumElements() == 0 || dy.NumElements() == 0) {
      // No output channel reads the input: its gradient is zero.
      std::fill_n(output->flat<T>().data(), output->NumElements(), T(0));
      return;
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, bfloat16>) {
      const absl::Status native =
          conv_.Run(ctx, geo, OneDnnType<T>::value, filter, dy.raw_data(), output->raw_data());
      // CPUs without AVX-512 have no oneDNN bfloat16 convolution: compute it in float instead.
      if (std::is_same_v<T, bfloat16> && !native.ok()) {
        RunWidened<T>(ctx, &conv_, geo, filter, dy, output);
      } else {
        OP_REQUIRES_OK(ctx, native);
      }
    } else if constexpr (std::is_same_v<T, half>) {
      RunWidened<T>(ctx, &conv_, geo, filter, dy, output);
    } else {
      reference_conv::BackwardData<T>(ctx, geo, dy.flat<T>().data(), filter.flat<T>().data(),
                                      output->flat<T>().data());
    }
  }

 private:
  Conv2DAttrs attrs_;
  OneDnnConv conv_;
};

#define REGISTER_CPU(T)                                              \
  REGISTER_KERNEL_BUILDER(Name("DepthwiseConv2dNativeBackpropInput") \
                              .Device(DEVICE_CPU)                    \
                              .TypeConstraint<T>("T")                \
                              .HostMemory("input_sizes"),            \
                          DepthwiseConv2dNativeBackpropInputOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
