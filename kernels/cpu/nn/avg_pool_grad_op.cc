// AvgPoolGrad on the CPU: the gradient of AvgPool with respect to its input, given the
// input's shape (orig_input_shape, 4 int32 values) and the output's gradient.
//
// Each output's gradient is spread evenly over the input elements its window covers: it is
// multiplied by 1 / count, count being the number of input elements in the window (padding
// does not count, as in AvgPool), and added to each of them, in output order. double and half
// accumulate in their own type as TensorFlow's CPU kernel does (the 1 / count factor rounded
// to the type first), float and bfloat16 in float, rounded once (TensorFlow's oneDNN kernel).
//
// Where a window is larger than the padded input on both sides, TensorFlow's own kernel
// (double, half) counts it as min(input size, window) rather than the elements it covers, so
// its gradient differs from AvgPool's derivative; Sluice gives the derivative for every
// dtype, as TensorFlow's float kernel does.
//
// NHWC always; NCHW for float and bfloat16 (pool_params.h walks it as NHWC of depth 1), as
// in TensorFlow. A grad whose shape is not AvgPool's output shape is INVALID_ARGUMENT
// (TensorFlow reads such a grad with the wrong strides). Work splits over images: no two
// share an input element.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// The type the input gradient accumulates in (see the file comment).
template <typename T>
using AccumulatorOf = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;

template <typename T>
constexpr bool kTakesNchw = std::is_same_v<T, float> || std::is_same_v<T, bfloat16>;

// The gradient of one image: `grad` is its [out_rows, out_cols, depth] output gradient, `out`
// its [in_rows, in_cols, depth] input gradient.
template <typename T, typename Acc>
void AvgPoolGradImage(const PoolGeometry& g, const T* grad, Acc* out) {
  const int64_t depth = g.depth;
  std::fill_n(out, g.in_rows * g.in_cols * depth, Acc(0));
  for (int64_t oh = 0; oh < g.out_rows; ++oh) {
    const int64_t h_start = oh * g.row_stride - g.pad_top;
    const int64_t h0 = std::max<int64_t>(h_start, 0);
    const int64_t h1 = std::min(h_start + g.window_rows, g.in_rows);
    for (int64_t ow = 0; ow < g.out_cols; ++ow) {
      const int64_t w_start = ow * g.col_stride - g.pad_left;
      const int64_t w0 = std::max<int64_t>(w_start, 0);
      const int64_t w1 = std::min(w_start + g.window_cols, g.in_cols);
      if (h0 >= h1 || w0 >= w1) continue;  // no input element to spread over
      const Acc scale = static_cast<Acc>(1.0 / static_cast<double>((h1 - h0) * (w1 - w0)));
      const T* dy = grad + (oh * g.out_cols + ow) * depth;
      for (int64_t h = h0; h < h1; ++h) {
        for (int64_t w = w0; w < w1; ++w) {
          Acc* x = out + (h * g.in_cols + w) * depth;
          for (int64_t c = 0; c < depth; ++c) x[c] += static_cast<Acc>(dy[c]) * scale;
        }
      }
    }
  }
}

template <typename T>
class AvgPoolGradOp : public OpKernel {
 public:
  explicit AvgPoolGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx, FormatFromString(format, &window_.format),
                errors::InvalidArgument("Invalid data format"));
    OP_REQUIRES(
        ctx, window_.format == FORMAT_NHWC || (kTakesNchw<T> && window_.format == FORMAT_NCHW),
        errors::InvalidArgument("Default AvgPoolingGradOp only supports NHWC on device type CPU"));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &window_.ksize));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &window_.strides));
    OP_REQUIRES(ctx, window_.ksize.size() == 4,
                errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions"));
    OP_REQUIRES(ctx, window_.strides.size() == 4,
                errors::InvalidArgument("Sliding window strides field must specify 4 dimensions"));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &window_.padding));
    OP_REQUIRES_OK(ctx, CheckPoolWindowSizes(window_));
    for (int32_t k : window_.ksize) {
      OP_REQUIRES(ctx, k > 0,
                  errors::InvalidArgument(
                      "Sliding window ksize must be positive. The specified or inferred ksize "
                      "is: ",
                      absl::StrJoin(window_.ksize, ",")));
    }
    // Only a depth window is refused: TensorFlow's AvgPoolGrad ignores the depth stride (a
    // window of 1 reads each channel once whatever it is), unlike AvgPool's forward kernel.
    const int c = GetTensorDimIndex(window_.format, 'C', 4);
    OP_REQUIRES(ctx, window_.ksize[c] == 1,
                errors::Unimplemented("Non-spatial pooling is not yet supported. Volunteers? :)"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& sizes = ctx->input(0);
    const Tensor& grad = ctx->input(1);
    OP_REQUIRES(ctx, sizes.dims() == 1 && sizes.NumElements() == 4,
                errors::InvalidArgument("out_backprop must be 1-dimensional and 4 elements"));
    OP_REQUIRES(ctx, grad.dims() == 4,
                errors::InvalidArgument("out_backprop must be 4-dimensional"));
    const int32_t* v = sizes.flat<int32_t>().data();
    for (int i = 0; i < 4; ++i) {
      OP_REQUIRES(ctx, v[i] >= 0,
                  errors::InvalidArgument("Expected a non-negative size, got ", v[i]));
    }
    TensorShape input_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({v[0], v[1], v[2], v[3]}, &input_shape));
    PoolGeometry g;
    OP_REQUIRES_OK(ctx, ComputePoolGeometry(input_shape, window_, &g));
    OP_REQUIRES(ctx, grad.dim_size(0) == input_shape.dim_size(0),
                errors::InvalidArgument(
                    "Expected first dimension of orig_input and diff_dst to match, got ",
                    input_shape.dim_size(0), " and ", grad.dim_size(0)));
    OP_REQUIRES(ctx, grad.shape() == g.output_shape,
                errors::InvalidArgument("Expected grad shape to be ", g.output_shape.DebugString(),
                                        ", but got ", grad.shape().DebugString()));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input_shape, &output));
    if (output->NumElements() == 0) return;
    using Acc = AccumulatorOf<T>;
    Acc* out = nullptr;
    Tensor wide;
    if constexpr (std::is_same_v<Acc, T>) {
      out = output->flat<T>().data();
    } else {
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<Acc>::value, input_shape, &wide));
      out = wide.flat<Acc>().data();
    }
    const T* dy = grad.flat<T>().data();
    const int64_t image = g.in_rows * g.in_cols * g.depth;
    const int64_t out_image = g.out_rows * g.out_cols * g.depth;
    const double window_elements = static_cast<double>(g.window_rows * g.window_cols);
    const Eigen::TensorOpCost image_cost(out_image * sizeof(T), image * sizeof(Acc),
                                         out_image * window_elements * 2);
    ParallelFor(ctx, g.batch, output->NumElements(), image_cost, [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b) {
        AvgPoolGradImage<T, Acc>(g, dy + b * out_image, out + b * image);
      }
    });
    if constexpr (!std::is_same_v<Acc, T>) {
      output->flat<T>() = wide.flat<Acc>().template cast<T>();
    }
  }

 private:
  PoolWindow window_;
};

#define REGISTER_CPU(T)                                        \
  REGISTER_KERNEL_BUILDER(Name("AvgPoolGrad")                  \
                              .Device(DEVICE_CPU)              \
                              .TypeConstraint<T>("T")          \
                              .HostMemory("orig_input_shape"), \
                          AvgPoolGradOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
