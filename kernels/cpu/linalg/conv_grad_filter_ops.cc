// Conv2DBackpropFilter and DepthwiseConv2dNativeBackpropFilter on the CPU: the gradient of a
// 2-D convolution (regular or grouped; depthwise) with respect to its filter,
//
//   filter_grad[kh, kw, ic, oc] = sum over n, oh, ow of
//       input[n, oh * stride - pad + kh * dilation, ..., group(oc) * in_g + ic] * dy[n, oh, ow, oc]
//
// given the input, filter_sizes (the filter's shape, int32) and out_backprop (dy).
//
// Each kernel checks attrs at construction and shapes per call (conv_params.h and
// conv_grad_params.h: TensorFlow's rules; its messages, as its own kernels give them), then
// computes: on oneDNN's backward-weights convolution for float and bfloat16 (bfloat16 in
// float where the CPU has no bfloat16 convolution), widened to float for half, and with a
// plain gather for double. Strides, dilations, SAME/VALID/EXPLICIT padding and grouped
// filters work for every dtype; NCHW for float and bfloat16 only, as in TensorFlow (its other
// kernels reject NCHW, and so does Sluice, so a graph behaves alike on both). An empty batch
// or out_backprop gives a zero gradient.
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
#include "kernels/cpu/linalg/onednn_conv_filter_grad.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/linalg/reference_conv.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
constexpr bool kTakesNchw = std::is_same_v<T, float> || std::is_same_v<T, bfloat16>;

// The gradient as one gather per filter element (no two tasks write the same element), for
// the dtypes oneDNN does not run.
template <typename T>
void ReferenceFilterGrad(OpKernelContext* ctx, const ConvGeometry& g, const T* in, const T* dy,
                         T* out) {
  const reference_conv::Strides is =
      reference_conv::ActivationStrides(g, g.in_depth, g.in_rows, g.in_cols);
  const reference_conv::Strides os =
      reference_conv::ActivationStrides(g, g.out_depth, g.out_rows, g.out_cols);
  const int64_t in_g = g.in_depth / g.groups;
  const int64_t out_g = g.out_depth / g.groups;
  const int64_t total = g.filter_rows * g.filter_cols * in_g * g.out_depth;
  const int64_t window = g.batch * g.out_rows * g.out_cols;
  const Eigen::TensorOpCost cost(16.0 * window, sizeof(T), 2.0 * window);
  ParallelFor(ctx, total, total * window, cost, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      const int64_t oc = i % g.out_depth;
      const int64_t ic = (i / g.out_depth) % in_g;
      const int64_t kw = (i / (g.out_depth * in_g)) % g.filter_cols;
      const int64_t kh = i / (g.out_depth * in_g * g.filter_cols);
      const int64_t c = (oc / out_g) * in_g + ic;
      T sum = T(0);
      for (int64_t n = 0; n < g.batch; ++n) {
        for (int64_t oh = 0; oh < g.out_rows; ++oh) {
          const int64_t ih = oh * g.stride_rows - g.pad_top + kh * g.dilation_rows;
          if (ih < 0 || ih >= g.in_rows) continue;
          for (int64_t ow = 0; ow < g.out_cols; ++ow) {
            const int64_t iw = ow * g.stride_cols - g.pad_left + kw * g.dilation_cols;
            if (iw < 0 || iw >= g.in_cols) continue;
            sum += in[n * is.n + c * is.c + ih * is.h + iw * is.w] *
                   dy[n * os.n + oc * os.c + oh * os.h + ow * os.w];
          }
        }
      }
      out[i] = sum;
    }
  });
}

// Runs the float gradient on src and diff_dst cast to float, and rounds it into `out`.
template <typename T>
void RunWidened(OpKernelContext* ctx, OneDnnConvFilterGrad* grad, const ConvGeometry& geo,
                const Tensor& input, const Tensor& dy, Tensor* out) {
  Tensor input_f, dy_f, out_f;
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, input.shape(), &input_f));
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, dy.shape(), &dy_f));
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, out->shape(), &out_f));
  input_f.flat<float>() = input.flat<T>().template cast<float>();
  dy_f.flat<float>() = dy.flat<T>().template cast<float>();
  OP_REQUIRES_OK(ctx, grad->Run(ctx, geo, dnnl::memory::data_type::f32, input_f.raw_data(),
                                dy_f.raw_data(), out_f.raw_data()));
  out->flat<T>() = out_f.flat<float>().template cast<T>();
}

template <typename T>
void RunFilterGrad(OpKernelContext* ctx, OneDnnConvFilterGrad* grad, const ConvGeometry& geo,
                   const Tensor& input, const Tensor& dy, Tensor* out) {
  if (input.NumElements() == 0 || dy.NumElements() == 0) {
    // No window holds anything: every sum is empty.
    std::fill_n(out->flat<T>().data(), out->NumElements(), T(0));
    return;
  }
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, bfloat16>) {
    const absl::Status native =
        grad->Run(ctx, geo, OneDnnType<T>::value, input.raw_data(), dy.raw_data(), out->raw_data());
    // CPUs without AVX-512 have no oneDNN bfloat16 convolution: compute it in float instead.
    if (std::is_same_v<T, bfloat16> && !native.ok()) {
      RunWidened<T>(ctx, grad, geo, input, dy, out);
    } else {
      OP_REQUIRES_OK(ctx, native);
    }
  } else if constexpr (std::is_same_v<T, half>) {
    RunWidened<T>(ctx, grad, geo, input, dy, out);
  } else {
    ReferenceFilterGrad<T>(ctx, geo, input.flat<T>().data(), dy.flat<T>().data(),
                           out->flat<T>().data());
  }
}

template <typename T, bool kDepthwise>
class ConvBackpropFilterOp : public OpKernel {
 public:
  explicit ConvBackpropFilterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseConv2DAttrs(ctx, absl::StatusCode::kInvalidArgument, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& sizes = ctx->input(1);
    const Tensor& dy = ctx->input(2);
    constexpr const char* kLabel =
        kDepthwise ? "DepthwiseConv2DBackpropFilter" : "Conv2DBackpropFilter";
    TensorShape filter_shape;
    OP_REQUIRES_OK(ctx, FilterShapeFromSizes(kLabel, sizes, &filter_shape));
    ConvGeometry geo;
    if (kDepthwise) {
      OP_REQUIRES_OK(ctx, DepthwiseBackpropGeometry(kLabel, attrs_, input.shape(), filter_shape,
                                                    dy.shape(), &geo));
    } else {
      OP_REQUIRES_OK(
          ctx, ConvBackpropGeometry(kLabel, attrs_, input.shape(), filter_shape, dy.shape(), &geo));
    }
    if (!kTakesNchw<T> && attrs_.data_format != FORMAT_NHWC) {
      OP_REQUIRES(
          ctx, !kDepthwise,
          errors::Unimplemented("Depthwise convolution on CPU is only supported for NHWC format"));
      OP_REQUIRES(ctx, false,
                  errors::InvalidArgument("Conv2DCustomBackpropFilterOp only supports NHWC."));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, filter_shape, &output));
    if (output->NumElements() == 0) return;
    RunFilterGrad<T>(ctx, &grad_, geo, input, dy, output);
  }

 private:
  Conv2DAttrs attrs_;
  OneDnnConvFilterGrad grad_;
};

#define REGISTER_CPU(T)                                               \
  REGISTER_KERNEL_BUILDER(Name("Conv2DBackpropFilter")                \
                              .Device(DEVICE_CPU)                     \
                              .TypeConstraint<T>("T")                 \
                              .HostMemory("filter_sizes"),            \
                          (ConvBackpropFilterOp<T, false>));          \
  REGISTER_KERNEL_BUILDER(Name("DepthwiseConv2dNativeBackpropFilter") \
                              .Device(DEVICE_CPU)                     \
                              .TypeConstraint<T>("T")                 \
                              .HostMemory("filter_sizes"),            \
                          (ConvBackpropFilterOp<T, true>));
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
