// Index arithmetic of the GPU convolutions and pooling, shared by the device code
// (conv_kernels.cu), the kernel classes and their host-compiled tests.
//
//  - HwioSourceIndex: where element i of a cuDNN filter (KRSC or KCRS) comes from in a
//    TensorFlow filter (HWIO). A depthwise filter [H, W, C, M] is the HWIO filter
//    [H, W, 1, C*M] of a grouped convolution with C groups, since TensorFlow numbers its
//    output channels c*M + m, group by group, as cuDNN does.
//  - PadSourceIndex: where element i of a padded 4-D tensor comes from, or -1 for padding.
//  - PlanSpatialPadding: cuDNN pads both sides of a spatial dim alike, TensorFlow's SAME and
//    EXPLICIT paddings may differ before and after; this splits TensorFlow's pads into the
//    symmetric part cuDNN applies and the rest, which the input gets explicitly.
//  - PoolOutput: one output of a max or average pooling, exactly as the CPU kernels compute
//    it (float accumulation, windows clipped to the input, averages over the cells covered).
//
// Plain C++ without dependencies: indices are int64_t, the structs travel to the device by
// value in a kernel's arguments, and every function runs in host or device code.
#ifndef SLUICE_KERNELS_CUDA_CONV_CONV_INDEX_H_
#define SLUICE_KERNELS_CUDA_CONV_CONV_INDEX_H_

#include <cstdint>

// Functions callable from host and device code (the same definition as kernels/cuda's).
#ifndef SLUICE_HOST_DEVICE
#if defined(__CUDACC__)
#define SLUICE_HOST_DEVICE __host__ __device__
#else
#define SLUICE_HOST_DEVICE
#endif
#endif

namespace sluice {
namespace cuda {

// A TensorFlow filter [rows, cols, in_depth, out_depth] (HWIO). in_depth is the input
// channels of one group.
struct FilterDims {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t in_depth = 0;
  int64_t out_depth = 0;
};

// The filter layouts cuDNN takes: [out, rows, cols, in] (cuDNN's KRSC, CUDNN_TENSOR_NHWC),
// which its NHWC convolutions prefer, and [out, in, rows, cols] (KCRS, CUDNN_TENSOR_NCHW).
enum class FilterLayout { kOhwi, kOihw };

// The offset in the HWIO filter `f` of element i of the same filter in `layout`.
// REQUIRES: 0 <= i < the filter's element count.
SLUICE_HOST_DEVICE inline int64_t HwioSourceIndex(int64_t i, const FilterDims& f,
                                                  FilterLayout layout) {
  int64_t o, r, s, c;
  if (layout == FilterLayout::kOhwi) {
    c = i % f.in_depth;
    i /= f.in_depth;
    s = i % f.cols;
    i /= f.cols;
    r = i % f.rows;
    o = i / f.rows;
  } else {
    s = i % f.cols;
    i /= f.cols;
    r = i % f.rows;
    i /= f.rows;
    c = i % f.in_depth;
    o = i / f.in_depth;
  }
  return ((r * f.cols + s) * f.in_depth + c) * f.out_depth + o;
}

// A 4-D tensor `in` placed at offset `before` in a larger tensor `out` (dims outermost
// first); out[d] >= in[d] + before[d].
struct PadDims {
  int64_t in[4] = {};
  int64_t out[4] = {};
  int64_t before[4] = {};
};

// The offset in the input of element i of the padded tensor, or -1 where i is padding.
SLUICE_HOST_DEVICE inline int64_t PadSourceIndex(int64_t i, const PadDims& p) {
  int64_t source = 0;
  int64_t step = 1;
  for (int d = 3; d >= 0; --d) {
    const int64_t coord = i % p.out[d] - p.before[d];
    i /= p.out[d];
    if (coord < 0 || coord >= p.in[d]) return -1;
    source += coord * step;
    step *= p.in[d];
  }
  return source;
}

// One spatial dim's padding as cuDNN runs it: `symmetric` on both sides by cuDNN, the rest
// added to the input beforehand (extra_before, extra_after).
struct SpatialPadding {
  int64_t symmetric = 0;
  int64_t extra_before = 0;
  int64_t extra_after = 0;
};

// The number of windows cuDNN computes over `size` elements padded by `pad` on both sides:
// 1 + (size + 2 * pad - window) / stride, or 0 where not even one window fits.
inline int64_t SymmetricOutputSize(int64_t size, int64_t window, int64_t stride, int64_t pad) {
  const int64_t span = size + 2 * pad - window;
  return span < 0 ? 0 : span / stride + 1;
}

// Splits TensorFlow's padding of one dim (`before`, `after`, giving `out` windows of the
// dilated extent `window` over `size` elements) for cuDNN. Window k starts at k * stride -
// before in TensorFlow's coordinates; cuDNN padding `before` on both sides starts it at the
// same place, so when that yields `out` windows nothing else is needed: the windows differ
// at most in how far past the input they may reach, where both read only padding. Otherwise
// cuDNN pads min(before, after) and the input gets the difference.
// REQUIRES: out > 0, stride > 0, and before, after >= 0.
inline SpatialPadding PlanSpatialPadding(int64_t size, int64_t window, int64_t stride,
                                         int64_t before, int64_t after, int64_t out) {
  SpatialPadding plan;
  if (SymmetricOutputSize(size, window, stride, before) == out) {
    plan.symmetric = before;
    return plan;
  }
  plan.symmetric = before < after ? before : after;
  plan.extra_before = before - plan.symmetric;
  plan.extra_after = after - plan.symmetric;
  return plan;
}

// A 2-D pooling as an NHWC walk (kernels/cpu/nn/pool_params.h's PoolGeometry: an NCHW
// tensor is an NHWC one of batch N*C and depth 1).
struct PoolDims {
  int64_t batch = 0;
  int64_t in_rows = 0;
  int64_t in_cols = 0;
  int64_t depth = 0;
  int64_t window_rows = 1;
  int64_t window_cols = 1;
  int64_t row_stride = 1;
  int64_t col_stride = 1;
  int64_t pad_top = 0;
  int64_t pad_left = 0;
  int64_t out_rows = 0;
  int64_t out_cols = 0;
};

enum class PoolMode { kMax, kAverage };

// Output i (NHWC order) of pooling the input that load(j) reads (element j, NHWC order, as
// float). kMax starts from `lowest` (the element type's lowest finite value) and takes an
// element only when it is greater, so NaN never wins and a window of -inf gives `lowest`;
// kAverage sums the cells of the window inside the input, rows then columns, and divides by
// their count. Both are the CPU kernels' rules and order, so results round alike.
template <typename Load>
SLUICE_HOST_DEVICE float PoolOutput(const PoolDims& p, int64_t i, PoolMode mode, float lowest,
                                    const Load& load) {
  const int64_t c = i % p.depth;
  int64_t rest = i / p.depth;
  const int64_t ow = rest % p.out_cols;
  rest /= p.out_cols;
  const int64_t oh = rest % p.out_rows;
  const int64_t b = rest / p.out_rows;
  const int64_t h_start = oh * p.row_stride - p.pad_top;
  const int64_t w_start = ow * p.col_stride - p.pad_left;
  const int64_t h0 = h_start > 0 ? h_start : 0;
  const int64_t w0 = w_start > 0 ? w_start : 0;
  const int64_t h1 = h_start + p.window_rows < p.in_rows ? h_start + p.window_rows : p.in_rows;
  const int64_t w1 = w_start + p.window_cols < p.in_cols ? w_start + p.window_cols : p.in_cols;
  float acc = mode == PoolMode::kMax ? lowest : 0.0f;
  for (int64_t h = h0; h < h1; ++h) {
    for (int64_t w = w0; w < w1; ++w) {
      const float x = load(((b * p.in_rows + h) * p.in_cols + w) * p.depth + c);
      if (mode == PoolMode::kMax) {
        acc = x > acc ? x : acc;
      } else {
        acc += x;
      }
    }
  }
  if (mode == PoolMode::kMax) return acc;
  const int64_t rows = h1 > h0 ? h1 - h0 : 0;
  const int64_t cols = w1 > w0 ? w1 - w0 : 0;
  return acc / static_cast<float>(rows * cols);
}

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CONV_CONV_INDEX_H_
