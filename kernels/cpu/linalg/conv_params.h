// The attrs and geometry of 2-D convolutions, shared by Conv2D, DepthwiseConv2dNative and
// Conv2DBackpropInput, validated with TensorFlow's rules and messages.
//
// Conv2DAttrs is read once per kernel (ParseConv2DAttrs fails construction on bad strides,
// dilations, data_format or explicit_paddings). ConvGeometry is the per-call shape of one
// convolution in layout-free terms: it is what both the oneDNN path and the reference loops
// consume, and (as a flat list of ints) the key of the kernels' primitive caches.
//
// A grouped convolution has `groups` = in_depth / filter in-depth; a depthwise convolution
// is the grouped case with one input channel per group and `filter` [H, W, C, multiplier].
#ifndef SLUICE_KERNELS_CPU_LINALG_CONV_PARAMS_H_
#define SLUICE_KERNELS_CPU_LINALG_CONV_PARAMS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_shape.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

struct Conv2DAttrs {
  std::vector<int32_t> strides;
  std::vector<int32_t> dilations;
  Padding padding = VALID;
  std::vector<int64_t> explicit_paddings;
  TensorFormat data_format = FORMAT_NHWC;
};

// Reads and checks the attrs: 4 strides and dilations, 1 in the batch and depth dims, positive
// in the spatial dims, and explicit_paddings valid for `padding`. Strides in the batch or
// depth dims fail with `batch_stride_code` (TensorFlow's forward kernels say UNIMPLEMENTED,
// its gradient kernels INVALID_ARGUMENT); dilations there with INVALID_ARGUMENT.
absl::Status ParseConv2DAttrs(OpKernelConstruction* ctx, absl::StatusCode batch_stride_code,
                              Conv2DAttrs* attrs);

struct ConvGeometry {
  int64_t batch = 0;
  int64_t in_depth = 0, in_rows = 0, in_cols = 0;
  int64_t out_depth = 0, out_rows = 0, out_cols = 0;
  int64_t filter_rows = 0, filter_cols = 0;
  int64_t groups = 1;
  int64_t stride_rows = 1, stride_cols = 1;
  int64_t dilation_rows = 1, dilation_cols = 1;
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  TensorFormat data_format = FORMAT_NHWC;

  // The output's shape in data_format. INVALID_ARGUMENT when it has more elements than int64
  // holds: explicit pads of up to INT32_MAX make out_rows and out_cols each about 2**32 even
  // for a 1x1 input.
  absl::Status OutputShape(TensorShape* shape) const;
  // Every field as one list, for cache keys.
  std::vector<int64_t> Key() const;
};

// TensorFlow's windowed output size (VALID, SAME, or EXPLICIT with the given pads; SAME
// computes the pads). INVALID_ARGUMENT for a stride or dilation below 1 or a negative size.
absl::Status WindowedOutputSize(int64_t input_size, int64_t filter_size, int64_t dilation,
                                int64_t stride, Padding padding, int64_t* output_size,
                                int64_t* pad_before, int64_t* pad_after);

// Conv2D's and DepthwiseConv2dNative's checks of input and filter, and the geometry.
absl::Status ForwardConvGeometry(const Conv2DAttrs& attrs, const TensorShape& input,
                                 const TensorShape& filter, bool depthwise, ConvGeometry* geo);

// TensorFlow's INVALID_ARGUMENT for a filter with a zero dim ("filter must not have zero
// elements ..."), which the convolutions raise where TensorFlow's do.
absl::Status ZeroFilterError();

// The checks of a convolution's gradients (TensorFlow's ConvBackpropComputeDimensionsV2):
// `input_shape`, `filter` and `out_backprop` must describe a convolution whose output is
// out_backprop. Messages start with `label`, the op's name.
absl::Status ConvBackpropGeometry(absl::string_view label, const Conv2DAttrs& attrs,
                                  const TensorShape& input_shape, const TensorShape& filter,
                                  const TensorShape& out_backprop, ConvGeometry* geo);

// Conv2DBackpropInput's checks: `input_shape` (from input_sizes), filter and out_backprop
// must describe a convolution whose output is out_backprop.
absl::Status BackpropInputGeometry(const Conv2DAttrs& attrs, const TensorShape& input_shape,
                                   const TensorShape& filter, const TensorShape& out_backprop,
                                   ConvGeometry* geo);

// The input gradient's shape from an int32 input_sizes tensor: 4 values, or its 2 spatial
// dims (batch from out_backprop, depth from the filter's dim 2), as Conv2DBackpropInput and
// DepthwiseConv2dNativeBackpropInput read it. INVALID_ARGUMENT for any other length or rank.
absl::Status Conv2DInputShapeFromSizes(const Tensor& sizes, const TensorShape& filter,
                                       const TensorShape& out_backprop, TensorFormat format,
                                       TensorShape* shape);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_CONV_PARAMS_H_
