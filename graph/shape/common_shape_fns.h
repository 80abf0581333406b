// Shape functions shared by many ops, with TensorFlow's semantics and error messages.
//
// Each `XxxShape(c)` is an OpShapeInferenceFn: register it with SetShapeFn(XxxShape), or
// call it from a larger shape function. They read the op's attrs by TensorFlow's names
// (transpose_a, data_format, strides, padding, dilations, keep_dims, ...) and never crash on
// bad attrs or inputs: wrong-length strides, zero strides, unknown formats, out-of-range
// axes all return INVALID_ARGUMENT.
#ifndef SLUICE_GRAPH_SHAPE_COMMON_SHAPE_FNS_H_
#define SLUICE_GRAPH_SHAPE_COMMON_SHAPE_FNS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/padding.h"
#include "graph/core/tensor_format.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace shape_inference {

// ---- Windowed ops (convolution, pooling) -----------------------------------------------

// The output size of one spatial dimension of a windowed op:
//   VALID:    ceil((input - effective_filter + 1) / stride)
//   SAME:     ceil(input / stride)
//   EXPLICIT: (input + before + after - effective_filter) / stride + 1
// where effective_filter = (filter - 1) * dilation + 1. Unknown input or filter gives an
// unknown size. INVALID_ARGUMENT for stride or dilation <= 0, or a negative result.
absl::Status GetWindowedOutputSizeFromDimsV2(InferenceContext* c, DimensionHandle input_size,
                                             DimensionOrConstant filter_size, int64_t dilation_rate,
                                             int64_t stride, Padding padding_type,
                                             int64_t padding_before, int64_t padding_after,
                                             DimensionHandle* output_size);
// As above with dilation 1 and no explicit padding (padding_type must not be EXPLICIT).
absl::Status GetWindowedOutputSizeFromDims(InferenceContext* c, DimensionHandle input_size,
                                           DimensionOrConstant filter_size, int64_t stride,
                                           Padding padding_type, DimensionHandle* output_size);

// The shape of a tensor in `format` with batch N, spatial dims `spatial` and features C
// (for NCHW_VECT_C, C is split into C/4 and an inner 4).
absl::Status MakeShapeFromFormat(TensorFormat format, DimensionOrConstant N,
                                 const std::vector<DimensionOrConstant>& spatial,
                                 DimensionOrConstant C, ShapeHandle* out, InferenceContext* c);

// ---- Trivial shape functions -----------------------------------------------------------

// Output 0 has input 0's shape (and handle data).
absl::Status UnchangedShape(InferenceContext* c);
// As UnchangedShape, requiring input 0 to be of (at least / at most) `rank`.
absl::Status UnchangedShapeWithRank(InferenceContext* c, int32_t rank);
absl::Status UnchangedShapeWithRankAtLeast(InferenceContext* c, int32_t rank);
absl::Status UnchangedShapeWithRankAtMost(InferenceContext* c, int32_t rank);
// Sets nothing: for ops without outputs.
absl::Status NoOutputs(InferenceContext* c);
// Output 0 is a scalar.
absl::Status ScalarShape(InferenceContext* c);
// Every output is of unknown shape.
absl::Status UnknownShape(InferenceContext* c);
// Output 0 is the merge of inputs 0 and 1 (they must be compatible).
absl::Status MergeBothInputsShapeFn(InferenceContext* c);
// Output 0 is the shape given by the `shape` attr (a PartialTensorShape).
absl::Status ExplicitShape(InferenceContext* c);
// Output i is the shape given by element i of the `shapes` attr.
absl::Status ExplicitShapes(InferenceContext* c);
// Output 0 is the shape denoted by shape tensor input 0 (RandomUniform and friends).
absl::Status RandomShape(InferenceContext* c);

// ---- Elementwise and linear algebra ----------------------------------------------------

// Numpy broadcasting of `shape_x` and `shape_y`. With `incompatible_shape_error` false,
// incompatible known dims give an unknown shape instead of the error
// "Dimensions must be equal, but are 2 and 4".
absl::Status BroadcastBinaryOpOutputShapeFnHelper(InferenceContext* c, ShapeHandle shape_x,
                                                  ShapeHandle shape_y,
                                                  bool incompatible_shape_error, ShapeHandle* out);
// Output `output_index` is the broadcast of inputs 0 and 1.
absl::Status BroadcastBinaryOpOutputShapeFn(InferenceContext* c, int output_index);
// Output 0 is the broadcast of inputs 0 and 1 (Add, Mul, Maximum, Equal, ...).
absl::Status BroadcastBinaryOpShapeFn(InferenceContext* c);

// MatMul: two matrices, attrs transpose_a / transpose_b.
absl::Status MatMulShape(InferenceContext* c);
// BatchMatMul (V1): same rank >= 2 on both sides, batch dims merged; attrs adj_x / adj_y.
absl::Status BatchMatMulShape(InferenceContext* c);
// BatchMatMulV2/V3: rank >= 2, batch dims broadcast; attrs adj_x / adj_y.
absl::Status BatchMatMulV2Shape(InferenceContext* c);
// BiasAdd: value of rank >= 2 and a vector bias matching its feature dim (data_format).
absl::Status BiasAddShape(InferenceContext* c);
// BiasAddGrad: a vector of the feature dim of input 0 (data_format).
absl::Status BiasAddGradShape(InferenceContext* c);

// ---- Convolution and pooling -----------------------------------------------------------

// Conv2D: input 4-D in data_format (NHWC, NCHW; NCHW_VECT_C with a 5-D input), filter
// [H, W, in/groups, out] (HWIO) or per filter_format; attrs strides, dilations, padding
// (SAME / VALID), and for the explicit form padding EXPLICIT with explicit_paddings.
absl::Status Conv2DShape(InferenceContext* c);
absl::Status Conv2DShapeWithExplicitPadding(InferenceContext* c);
// Conv3D: 5-D input (NDHWC / NCDHW), filter [D, H, W, in/groups, out].
absl::Status Conv3DShape(InferenceContext* c);
// DepthwiseConv2dNative: filter [H, W, in, multiplier]; output depth in * multiplier.
absl::Status DepthwiseConv2DNativeShape(InferenceContext* c);
absl::Status DepthwiseConv2DNativeShapeWithExplicitPadding(InferenceContext* c);
// Conv2DBackpropInput (input_sizes as a shape tensor, input 0), and the Filter variant.
absl::Status Conv2DBackpropInputShape(InferenceContext* c);
absl::Status Conv2DBackpropFilterShape(InferenceContext* c);

// AvgPool / MaxPool: 4-D input in data_format, attrs ksize, strides (length 4), padding.
absl::Status AvgPoolShape(InferenceContext* c);
absl::Status MaxPoolShape(InferenceContext* c);
absl::Status MaxPoolShapeWithExplicitPadding(InferenceContext* c);
// MaxPoolV2: ksize and strides come from inputs 1 and 2 (known values) when
// num_inputs == 3, else from attrs.
absl::Status MaxPoolV2Shape(InferenceContext* c, int num_inputs);
// AvgPool3D / MaxPool3D: 5-D input in data_format (NDHWC / NCDHW), ksize, strides (length 5).
absl::Status Pool3DShape(InferenceContext* c);
// AvgPoolGrad: output is the shape tensor input 0 (rank 4).
absl::Status AvgPoolGradShape(InferenceContext* c);
// MaxPoolGrad: output is input 0's shape (rank 4).
absl::Status MaxPoolGradShape(InferenceContext* c);

// FusedBatchNorm (V1/V2): x 4-D in data_format, scale/offset/mean/variance vectors of the
// feature dim (mean/variance only checked when is_training is false). Outputs: y like x, then
// four vectors of the feature dim.
absl::Status FusedBatchNormShape(InferenceContext* c);
// FusedBatchNormV3: as above plus a sixth output of unknown shape (reserve space 3).
absl::Status FusedBatchNormV3Shape(InferenceContext* c);
// FusedBatchNormGrad (V1/V2/V3): y_backprop and x 4-D; x_backprop like x, scale/offset
// backprops vectors of the feature dim, reserve outputs empty vectors.
absl::Status FusedBatchNormGradShape(InferenceContext* c);

// ---- Reductions, concatenation, slicing ------------------------------------------------

// Sum, Mean, Max, ...: input 0 the data, input 1 the reduction indices (value may be
// known), attr keep_dims. Known indices remove (or set to 1) those dims; negative indices
// count from the end; out-of-range indices are INVALID_ARGUMENT.
absl::Status ReductionShape(InferenceContext* c);
// Concat: input 0 is the scalar axis, then `num_inputs_to_concat` values.
absl::Status ConcatShape(InferenceContext* c, int num_inputs_to_concat);
// ConcatV2: the values first, the axis last; attr N.
absl::Status ConcatV2Shape(InferenceContext* c);
// Slice: input, begin, size (size -1 means "to the end").
absl::Status SliceShape(InferenceContext* c);
// GatherNd: params, indices.
absl::Status GatherNdShape(InferenceContext* c);

}  // namespace shape_inference
}  // namespace sluice

#endif  // SLUICE_GRAPH_SHAPE_COMMON_SHAPE_FNS_H_
