// MaxPool and MaxPoolV2 on the CPU: the maximum over each window (TensorFlow's semantics).
//
// MaxPool takes ksize/strides as attrs, MaxPoolV2 as int32 inputs; both pool either over
// the spatial dims (NHWC; NCHW too for float and bfloat16, as TensorFlow's oneDNN kernel
// does) or over groups of channels ("depthwise", NHWC only). Windows start from the
// lowest finite value and take an element only when it is greater, so NaNs never win and a
// window of -inf yields the lowest finite value, as in TensorFlow.
//
// Algorithm: one NHWC walk (pool_params.h maps NCHW onto it); each task owns whole output
// rows (batch, out_row) and, per output pixel, folds the window's input pixels into the
// output's channel vector, which the compiler vectorizes over channels.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

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

template <typename T>
constexpr bool kSupportsNchw = std::is_same_v<T, float> || std::is_same_v<T, bfloat16>;

template <typename T>
void SpatialMaxPoolRows(const PoolGeometry& g, const T* in, T* out, int64_t first_row,
                        int64_t last_row) {
  const T lowest = Eigen::NumTraits<T>::lowest();
  const int64_t depth = g.depth;
  for (int64_t row = first_row; row < last_row; ++row) {
    const int64_t b = row / g.out_rows;
    const int64_t h_start = (row % g.out_rows) * g.row_stride - g.pad_top;
    const int64_t h0 = std::max<int64_t>(h_start, 0);
    const int64_t h1 = std::min(h_start + g.window_rows, g.in_rows);
    for (int64_t ow = 0; ow < g.out_cols; ++ow) {
      const int64_t w_start = ow * g.col_stride - g.pad_left;
      const int64_t w0 = std::max<int64_t>(w_start, 0);
      const int64_t w1 = std::min(w_start + g.window_cols, g.in_cols);
      T* o = out + (row * g.out_cols + ow) * depth;
      std::fill(o, o + depth, lowest);
      for (int64_t h = h0; h < h1; ++h) {
        for (int64_t w = w0; w < w1; ++w) {
          const T* x = in + ((b * g.in_rows + h) * g.in_cols + w) * depth;
          for (int64_t c = 0; c < depth; ++c) o[c] = x[c] > o[c] ? x[c] : o[c];
        }
      }
    }
  }
}

// Pools `input` with `window` (whose sizes were checked) into output 0.
template <typename T>
void ComputeMaxPool(OpKernelContext* ctx, const PoolWindow& window) {
  const Tensor& input = ctx->input(0);
  PoolGeometry g;
  OP_REQUIRES_OK(ctx, ComputePoolGeometry(input.shape(), window, &g));
  OP_REQUIRES(ctx, g.depth_window == 1 || window.padding != EXPLICIT,
              errors::Unimplemented("Depthwise max pooling does not support explicit padding."));
  Tensor* output = nullptr;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, g.output_shape, &output));
  const int64_t n = g.output_shape.num_elements();
  if (n == 0) return;
  const T* in = input.flat<T>().data();
  T* out = output->flat<T>().data();
  if (g.depth_window != 1) {
    const int64_t k = g.depth_window;
    const T lowest = Eigen::NumTraits<T>::lowest();
    ParallelFor(ctx, n, n, Eigen::TensorOpCost(k * sizeof(T), sizeof(T), k),
                [&](int64_t first, int64_t last) {
                  for (int64_t i = first; i < last; ++i) {
                    T m = lowest;
                    for (const T* x = in + i * k; x < in + (i + 1) * k; ++x) m = *x > m ? *x : m;
                    out[i] = m;
                  }
                });
    return;
  }
  const int64_t rows = g.batch * g.out_rows;
  const double window_elements = static_cast<double>(g.window_rows * g.window_cols);
  const double row_elements = static_cast<double>(g.out_cols * g.depth);
  const Eigen::TensorOpCost row_cost(row_elements * window_elements * sizeof(T),
                                     row_elements * sizeof(T), row_elements * window_elements);
  ParallelFor(ctx, rows, n, row_cost,
              [&](int64_t first, int64_t last) { SpatialMaxPoolRows<T>(g, in, out, first, last); });
}

// The data_format rule of TensorFlow's CPU kernels: NHWC always; NCHW only where its oneDNN
// kernel takes over (float and bfloat16, spatial windows, VALID or SAME).
template <typename T>
bool LayoutSupported(const PoolWindow& window) {
  if (window.format == FORMAT_NHWC) return true;
  return kSupportsNchw<T> && window.format == FORMAT_NCHW && window.padding != EXPLICIT &&
         window.ksize.size() == 4 && window.ksize[1] == 1;
}

template <typename T>
class MaxPoolOp : public OpKernel {
 public:
  explicit MaxPoolOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx, FormatFromString(format, &window_.format),
                errors::InvalidArgument("Invalid data format"));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &window_.ksize));
    OP_REQUIRES(ctx, window_.ksize.size() == 4,
                errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions"));
    for (int32_t k : window_.ksize) {
      OP_REQUIRES(ctx, k > 0,
                  errors::InvalidArgument(
                      "Sliding window ksize must be positive. The specified or inferred ksize "
                      "is: ",
                      absl::StrJoin(window_.ksize, ",")));
    }
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &window_.strides));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &window_.padding));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("explicit_paddings", &window_.explicit_paddings));
    OP_REQUIRES(
        ctx, LayoutSupported<T>(window_),
        errors::InvalidArgument("Default MaxPoolingOp only supports NHWC on device type CPU"));
    OP_REQUIRES_OK(ctx, CheckPoolWindowSizes(window_));
    OP_REQUIRES_OK(ctx, CheckExplicitPoolPadding(window_));
  }

  void Compute(OpKernelContext* ctx) override { ComputeMaxPool<T>(ctx, window_); }

 private:
  PoolWindow window_;
};

// ksize and strides come from inputs 1 and 2 (int32, any shape, read flat).
template <typename T>
class MaxPoolV2Op : public OpKernel {
 public:
  explicit MaxPoolV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx, FormatFromString(format, &window_.format),
                errors::InvalidArgument("Invalid data format"));
    OP_REQUIRES(
        ctx, window_.format == FORMAT_NHWC,
        errors::InvalidArgument("MaxPoolingV2Op only supports NHWC or NCHW_VECT_C. Got: ", format));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &window_.padding));
  }

  void Compute(OpKernelContext* ctx) override {
    PoolWindow window = window_;
    const Tensor& ksize = ctx->input(1);
    const Tensor& strides = ctx->input(2);
    const auto k = ksize.flat<int32_t>();
    const auto s = strides.flat<int32_t>();
    // Checked before copying: the inputs' lengths are data, 4 is all a window takes.
    OP_REQUIRES(ctx, k.size() == 4,
                errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions"));
    OP_REQUIRES(ctx, s.size() == 4,
                errors::InvalidArgument("Sliding window stride field must specify 4 dimensions"));
    window.ksize.assign(k.data(), k.data() + k.size());    // heap-ok: 4 values, checked above
    window.strides.assign(s.data(), s.data() + s.size());  // heap-ok: 4 values, checked above
    OP_REQUIRES_OK(ctx, CheckPoolWindowSizes(window));
    for (int32_t v : window.ksize) {
      OP_REQUIRES(ctx, v > 0, errors::InvalidArgument("Sliding window ksize must be positive."));
    }
    ComputeMaxPool<T>(ctx, window);
  }

 private:
  PoolWindow window_;
};

#define REGISTER_MAX_POOL(T)                                                         \
  REGISTER_KERNEL_BUILDER(Name("MaxPool").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          MaxPoolOp<T>);                                             \
  REGISTER_KERNEL_BUILDER(Name("MaxPoolV2")                                          \
                              .Device(DEVICE_CPU)                                    \
                              .TypeConstraint<T>("T")                                \
                              .HostMemory("ksize")                                   \
                              .HostMemory("strides"),                                \
                          MaxPoolV2Op<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_MAX_POOL)
SLUICE_CALL_int32(REGISTER_MAX_POOL) SLUICE_CALL_int64(REGISTER_MAX_POOL)
    SLUICE_CALL_uint8(REGISTER_MAX_POOL) SLUICE_CALL_int16(REGISTER_MAX_POOL)
        SLUICE_CALL_int8(REGISTER_MAX_POOL) SLUICE_CALL_uint16(REGISTER_MAX_POOL)
#undef REGISTER_MAX_POOL

}  // namespace
}  // namespace sluice
