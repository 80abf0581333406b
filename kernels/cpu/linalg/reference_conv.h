// Plain-loop 2-D convolutions for the element types oneDNN does not run here (double,
// int32): the forward convolution and its input gradient, in NHWC or NCHW, grouped or not,
// with strides, dilations and padding from a ConvGeometry.
//
// Each output element is computed by one gather over its window, so work splits over the
// intra-op pool without write conflicts. Integers accumulate in uint64_t and are truncated,
// which is TensorFlow's wrap-around result without signed overflow.
#ifndef SLUICE_KERNELS_CPU_LINALG_REFERENCE_CONV_H_
#define SLUICE_KERNELS_CPU_LINALG_REFERENCE_CONV_H_

#include <cstdint>
#include <type_traits>

#include "graph/core/tensor_types.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reference_conv {

template <typename T>
using Accum = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;

// Element strides of an activation [batch, depth, rows, cols] stored in geo.data_format.
struct Strides {
  int64_t n, c, h, w;
};

inline Strides ActivationStrides(const ConvGeometry& geo, int64_t depth, int64_t rows,
                                 int64_t cols) {
  if (geo.data_format == FORMAT_NHWC) return {rows * cols * depth, 1, cols * depth, depth};
  return {depth * rows * cols, rows * cols, cols, 1};
}

// Calls fn(n, c, h, w, offset) for every element of an activation, split over the pool.
template <typename Fn>
void ForEachElement(OpKernelContext* ctx, const ConvGeometry& geo, int64_t depth, int64_t rows,
                    int64_t cols, int64_t window, Fn&& fn) {
  const Strides s = ActivationStrides(geo, depth, rows, cols);
  const int64_t total = geo.batch * depth * rows * cols;
  const Eigen::TensorOpCost cost(8.0 * window, 8.0, 2.0 * window);
  ParallelFor(ctx, total, total * window, cost, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      // i enumerates (n, c, h, w) in NCHW order; the offset follows the real layout.
      const int64_t w = i % cols;
      const int64_t h = (i / cols) % rows;
      const int64_t c = (i / (cols * rows)) % depth;
      const int64_t n = i / (cols * rows * depth);
      fn(n, c, h, w, n * s.n + c * s.c + h * s.h + w * s.w);
    }
  });
}

// out = conv(in, filter); filter is [rows, cols, in_depth / groups, out_depth].
template <typename T>
void Forward(OpKernelContext* ctx, const ConvGeometry& g, const T* in, const T* filter, T* out) {
  const Strides is = ActivationStrides(g, g.in_depth, g.in_rows, g.in_cols);
  const int64_t in_g = g.in_depth / g.groups;
  const int64_t out_g = g.out_depth / g.groups;
  ForEachElement(ctx, g, g.out_depth, g.out_rows, g.out_cols, in_g * g.filter_rows * g.filter_cols,
                 [&](int64_t n, int64_t oc, int64_t oh, int64_t ow, int64_t offset) {
                   const int64_t first_ic = (oc / out_g) * in_g;
                   Accum<T> sum = 0;
                   for (int64_t kh = 0; kh < g.filter_rows; ++kh) {
                     const int64_t ih = oh * g.stride_rows - g.pad_top + kh * g.dilation_rows;
                     if (ih < 0 || ih >= g.in_rows) continue;
                     for (int64_t kw = 0; kw < g.filter_cols; ++kw) {
                       const int64_t iw = ow * g.stride_cols - g.pad_left + kw * g.dilation_cols;
                       if (iw < 0 || iw >= g.in_cols) continue;
                       const T* x = in + n * is.n + ih * is.h + iw * is.w + first_ic * is.c;
                       const T* f = filter + ((kh * g.filter_cols + kw) * in_g) * g.out_depth + oc;
                       for (int64_t ic = 0; ic < in_g; ++ic) {
                         sum += static_cast<Accum<T>>(x[ic * is.c]) *
                                static_cast<Accum<T>>(f[ic * g.out_depth]);
                       }
                     }
                   }
                   out[offset] = static_cast<T>(sum);
                 });
}

// in_grad = the gradient of conv(in, filter) with respect to `in`, given out_grad.
template <typename T>
void BackwardData(OpKernelContext* ctx, const ConvGeometry& g, const T* out_grad, const T* filter,
                  T* in_grad) {
  const Strides os = ActivationStrides(g, g.out_depth, g.out_rows, g.out_cols);
  const int64_t in_g = g.in_depth / g.groups;
  const int64_t out_g = g.out_depth / g.groups;
  ForEachElement(ctx, g, g.in_depth, g.in_rows, g.in_cols, out_g * g.filter_rows * g.filter_cols,
                 [&](int64_t n, int64_t ic, int64_t ih, int64_t iw, int64_t offset) {
                   const int64_t group = ic / in_g;
                   const int64_t first_oc = group * out_g;
                   Accum<T> sum = 0;
                   for (int64_t kh = 0; kh < g.filter_rows; ++kh) {
                     const int64_t th = ih + g.pad_top - kh * g.dilation_rows;
                     if (th < 0 || th % g.stride_rows != 0 || th / g.stride_rows >= g.out_rows)
                       continue;
                     const int64_t oh = th / g.stride_rows;
                     for (int64_t kw = 0; kw < g.filter_cols; ++kw) {
                       const int64_t tw = iw + g.pad_left - kw * g.dilation_cols;
                       if (tw < 0 || tw % g.stride_cols != 0 || tw / g.stride_cols >= g.out_cols)
                         continue;
                       const int64_t ow = tw / g.stride_cols;
                       const T* dy = out_grad + n * os.n + oh * os.h + ow * os.w + first_oc * os.c;
                       const T* f =
                           filter +
                           ((kh * g.filter_cols + kw) * in_g + (ic - group * in_g)) * g.out_depth +
                           first_oc;
                       for (int64_t oc = 0; oc < out_g; ++oc) {
                         sum += static_cast<Accum<T>>(dy[oc * os.c]) * static_cast<Accum<T>>(f[oc]);
                       }
                     }
                   }
                   in_grad[offset] = static_cast<T>(sum);
                 });
}

}  // namespace reference_conv
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_REFERENCE_CONV_H_
