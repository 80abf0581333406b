// MaxPoolGrad and MaxPoolGradV2 on the CPU: the gradient of MaxPool with respect to its input.
//
// Each output's gradient goes to the input element its window's maximum came from, recomputed
// from orig_input (orig_output is only checked for its shape, as in TensorFlow). The window
// is scanned row by row from its first element, which starts the maximum; a later element
// replaces it only when strictly greater, so a tie keeps the first and a NaN is chosen only
// when it comes first: TensorFlow's choice. Gradients reaching the same input element add up
// in output order, in T (wrapping for integers), as TensorFlow adds them, so results match
// it bit for bit.
//
// ksize and strides are attrs (MaxPoolGrad) or int32 inputs read flat (MaxPoolGradV2). NHWC
// only and spatial windows only, with TensorFlow's errors otherwise. Work splits over the
// batch: no two images share an input element.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// A channel's running maximum and the offset (within the image) it came from.
template <typename T>
struct Best {
  T value;
  int64_t offset;
};

// The gradient of one image: `in` and `out` are its [in_rows, in_cols, depth] input and
// gradient, `grad` its [out_rows, out_cols, depth] output gradient; `best` holds depth
// entries of scratch.
template <typename T>
void MaxPoolGradImage(const PoolGeometry& g, const T* in, const T* grad, T* out, Best<T>* best) {
  const int64_t depth = g.depth;
  std::fill_n(out, g.in_rows * g.in_cols * depth, T(0));
  for (int64_t oh = 0; oh < g.out_rows; ++oh) {
    const int64_t h_start = oh * g.row_stride - g.pad_top;
    const int64_t h0 = std::max<int64_t>(h_start, 0);
    const int64_t h1 = std::min(h_start + g.window_rows, g.in_rows);
    for (int64_t ow = 0; ow < g.out_cols; ++ow) {
      const int64_t w_start = ow * g.col_stride - g.pad_left;
      const int64_t w0 = std::max<int64_t>(w_start, 0);
      const int64_t w1 = std::min(w_start + g.window_cols, g.in_cols);
      // Cannot happen for a geometry of ComputePoolGeometry (padding is smaller than the
      // window), but an empty window must not read outside it.
      if (h0 >= h1 || w0 >= w1) continue;
      const int64_t first = (h0 * g.in_cols + w0) * depth;
      for (int64_t c = 0; c < depth; ++c) best[c] = {in[first + c], first + c};
      for (int64_t h = h0; h < h1; ++h) {
        for (int64_t w = (h == h0 ? w0 + 1 : w0); w < w1; ++w) {
          const int64_t base = (h * g.in_cols + w) * depth;
          for (int64_t c = 0; c < depth; ++c) {
            if (in[base + c] > best[c].value) best[c] = {in[base + c], base + c};
          }
        }
      }
      const T* dy = grad + (oh * g.out_cols + ow) * depth;
      for (int64_t c = 0; c < depth; ++c) {
        T& target = out[best[c].offset];
        target = WrappingAdd(target, dy[c]);
      }
    }
  }
}

// Checks the inputs against `window` (whose sizes were checked) and computes output 0.
template <typename T>
void ComputeMaxPoolGrad(OpKernelContext* ctx, const PoolWindow& window) {
  const Tensor& orig_input = ctx->input(0);
  const Tensor& orig_output = ctx->input(1);
  const Tensor& grad = ctx->input(2);
  OP_REQUIRES(ctx, window.ksize[3] == 1 && window.strides[3] == 1,
              errors::Unimplemented("MaxPoolingGrad is not yet supported on the depth dimension."));
  PoolGeometry g;
  OP_REQUIRES_OK(ctx, ComputePoolGeometry(orig_input.shape(), window, &g));
  OP_REQUIRES(
      ctx, orig_output.shape() == g.output_shape,
      errors::InvalidArgument("Expected orig_output shape to be ", g.output_shape.DebugString(),
                              ", but got ", orig_output.shape().DebugString()));
  OP_REQUIRES(ctx, grad.shape() == g.output_shape,
              errors::InvalidArgument("Expected grad shape to be ", g.output_shape.DebugString(),
                                      ", but got ", grad.shape().DebugString()));
  Tensor* output = nullptr;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, orig_input.shape(), &output));
  if (output->NumElements() == 0) return;
  const T* in = orig_input.flat<T>().data();
  const T* dy = grad.flat<T>().data();
  T* out = output->flat<T>().data();
  const int64_t image = g.in_rows * g.in_cols * g.depth;
  const int64_t out_image = g.out_rows * g.out_cols * g.depth;
  const double window_elements = static_cast<double>(g.window_rows * g.window_cols);
  const Eigen::TensorOpCost image_cost(out_image * window_elements * sizeof(T), image * sizeof(T),
                                       out_image * (window_elements + 1));
  OP_REQUIRES_OK(ctx, ParallelForWithScratch<Best<T>>(
                          ctx, g.batch, output->NumElements(), image_cost, g.depth,
                          [&](int64_t first, int64_t last, Best<T>* best) {
                            for (int64_t b = first; b < last; ++b) {
                              MaxPoolGradImage<T>(g, in + b * image, dy + b * out_image,
                                                  out + b * image, best);
                            }
                          }));
}

// The rank checks every MaxPoolGrad makes first.
absl::Status CheckRanks(OpKernelContext* ctx) {
  if (ctx->input(0).dims() != 4) {
    return errors::InvalidArgument("tensor_in must be 4-dimensional");
  }
  if (ctx->input(1).dims() != 4) {
    return errors::InvalidArgument("tensor_out must be 4-dimensional");
  }
  if (ctx->input(2).dims() != 4) {
    return errors::InvalidArgument("out_backprop must be 4-dimensional");
  }
  return absl::OkStatus();
}

// TensorFlow's grad kernels do not check this; a window of no element has no maximum.
absl::Status CheckPositiveKsize(const PoolWindow& window) {
  for (int32_t k : window.ksize) {
    if (k <= 0) return errors::InvalidArgument("Sliding window ksize must be positive.");
  }
  return absl::OkStatus();
}

// data_format and padding, the attrs both ops have.
absl::Status ParseFormatAndPadding(OpKernelConstruction* ctx, PoolWindow* window) {
  std::string format;
  RETURN_IF_ERROR(ctx->GetAttr("data_format", &format));
  if (!FormatFromString(format, &window->format)) {
    return errors::InvalidArgument("Invalid data format");
  }
  if (window->format != FORMAT_NHWC) {
    return errors::InvalidArgument(
        "Default MaxPoolingGradOp only supports NHWC on device type CPU");
  }
  std::string padding;
  RETURN_IF_ERROR(ctx->GetAttr("padding", &padding));
  return GetPaddingFromString(padding, &window->padding);
}

template <typename T>
class MaxPoolGradOp : public OpKernel {
 public:
  explicit MaxPoolGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseFormatAndPadding(ctx, &window_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &window_.ksize));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &window_.strides));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("explicit_paddings", &window_.explicit_paddings));
    OP_REQUIRES(ctx, window_.ksize.size() == 4,
                errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions"));
    OP_REQUIRES(ctx, window_.strides.size() == 4,
                errors::InvalidArgument("Sliding window strides field must specify 4 dimensions"));
    OP_REQUIRES_OK(ctx, CheckPoolWindowSizes(window_));
    OP_REQUIRES_OK(ctx, CheckPositiveKsize(window_));
    OP_REQUIRES_OK(ctx, CheckExplicitPoolPadding(window_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckRanks(ctx));
    ComputeMaxPoolGrad<T>(ctx, window_);
  }

 private:
  PoolWindow window_;
};

// ksize and strides come from inputs 3 and 4 (int32, any shape, read flat).
template <typename T>
class MaxPoolGradV2Op : public OpKernel {
 public:
  explicit MaxPoolGradV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseFormatAndPadding(ctx, &window_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckRanks(ctx));
    PoolWindow window = window_;
    const auto k = ctx->input(3).flat<int32_t>();
    const auto s = ctx->input(4).flat<int32_t>();
    // Checked before copying: the inputs' lengths are data, 4 is all a window takes.
    OP_REQUIRES(ctx, k.size() == 4,
                errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions"));
    OP_REQUIRES(ctx, s.size() == 4,
                errors::InvalidArgument("Sliding window strides field must specify 4 dimensions"));
    window.ksize.assign(k.data(), k.data() + k.size());    // heap-ok: 4 values, checked above
    window.strides.assign(s.data(), s.data() + s.size());  // heap-ok: 4 values, checked above
    OP_REQUIRES_OK(ctx, CheckPoolWindowSizes(window));
    OP_REQUIRES_OK(ctx, CheckPositiveKsize(window));
    ComputeMaxPoolGrad<T>(ctx, window);
  }

 private:
  PoolWindow window_;
};

#define REGISTER_CPU(T)                                                                  \
  REGISTER_KERNEL_BUILDER(Name("MaxPoolGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          MaxPoolGradOp<T>);                                             \
  REGISTER_KERNEL_BUILDER(Name("MaxPoolGradV2")                                          \
                              .Device(DEVICE_CPU)                                        \
                              .TypeConstraint<T>("T")                                    \
                              .HostMemory("ksize")                                       \
                              .HostMemory("strides"),                                    \
                          MaxPoolGradV2Op<T>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
