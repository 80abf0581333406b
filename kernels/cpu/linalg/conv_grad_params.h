// Argument checks of the convolution gradients that conv_params.h does not cover, with
// TensorFlow's rules and messages: the filter_sizes vector of the filter gradients, and the
// geometry of a depthwise convolution's gradients.
//
// A depthwise convolution is the grouped one with a group per input channel: its geometry
// has groups = in_depth and out_depth = in_depth * multiplier, and its filter
// [rows, cols, in_depth, multiplier] is, element for element, the grouped convolution's
// filter [rows, cols, 1, in_depth * multiplier], so the grouped machinery runs it as is.
#ifndef SLUICE_KERNELS_CPU_LINALG_CONV_GRAD_PARAMS_H_
#define SLUICE_KERNELS_CPU_LINALG_CONV_GRAD_PARAMS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/linalg/conv_params.h"

namespace sluice {

// The filter gradient's shape from an int32 filter_sizes tensor: INVALID_ARGUMENT naming
// `label` unless it is a vector, and for a negative size. Its length is checked with the
// geometry ("filter must be 4-dimensional").
absl::Status FilterShapeFromSizes(absl::string_view label, const Tensor& sizes, TensorShape* shape);

// DepthwiseConv2dNativeBackpropInput's and ...BackpropFilter's checks (messages start with
// `label`): input, filter [rows, cols, in_depth, multiplier] and out_backprop must be 4-D
// and describe a depthwise convolution whose output is out_backprop.
absl::Status DepthwiseBackpropGeometry(absl::string_view label, const Conv2DAttrs& attrs,
                                       const TensorShape& input, const TensorShape& filter,
                                       const TensorShape& out_backprop, ConvGeometry* geo);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_CONV_GRAD_PARAMS_H_
