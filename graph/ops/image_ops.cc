// Ops on images: moving blocks between space and depth, resizing, and non-max suppression
// of scored boxes.
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "graph/ops/resize_shape.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::DimensionOrConstant;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// Space-to-depth divides height and width by block_size and multiplies depth by its
// square; depth-to-space does the reverse. Both require exact division.
absl::Status SpaceDepthShape(InferenceContext* c, bool space_to_depth) {
  std::string format_str;
  RETURN_IF_ERROR(c->GetAttr("data_format", &format_str));
  TensorFormat format;
  if (!FormatFromString(format_str, &format)) {
    return errors::InvalidArgument("Invalid data format string: ", format_str);
  }
  constexpr int kSpatialDims = 2;
  const int rank = GetTensorDimsFromSpatialDims(kSpatialDims, format);
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), rank, &input));
  int32_t block_size;
  RETURN_IF_ERROR(c->GetAttr("block_size", &block_size));
  if (block_size < 2) {
    return errors::InvalidArgument("block_size must be at least 2, got ", block_size);
  }
  const int64_t block_area = int64_t{block_size} * block_size;
  DimensionHandle batch = c->Dim(input, GetTensorDimIndex(format, 'N', rank));
  DimensionHandle height = c->Dim(input, GetTensorDimIndex(format, 'H', rank));
  DimensionHandle width = c->Dim(input, GetTensorDimIndex(format, 'W', rank));
  DimensionHandle depth = c->Dim(input, GetTensorDimIndex(format, 'C', rank));
  if (space_to_depth) {
    RETURN_IF_ERROR(c->Divide(height, block_size, /*evenly_divisible=*/true, &height));
    RETURN_IF_ERROR(c->Divide(width, block_size, /*evenly_divisible=*/true, &width));
    RETURN_IF_ERROR(c->Multiply(depth, block_area, &depth));
  } else {
    RETURN_IF_ERROR(c->Multiply(height, block_size, &height));
    RETURN_IF_ERROR(c->Multiply(width, block_size, &width));
    RETURN_IF_ERROR(c->Divide(depth, block_area, /*evenly_divisible=*/true, &depth));
  }
  ShapeHandle out;
  RETURN_IF_ERROR(
      shape_inference::MakeShapeFromFormat(format, batch, {height, width}, depth, &out, c));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status SpaceToDepthShape(InferenceContext* c) { return SpaceDepthShape(c, true); }
absl::Status DepthToSpaceShape(InferenceContext* c) { return SpaceDepthShape(c, false); }

// NonMaxSuppressionV3/V4: boxes [num_boxes, 4], scores [num_boxes] and three scalars
// (max_output_size, iou_threshold, score_threshold); the selected indices are a vector of
// unknown length. `extra_scalars` more scalar inputs follow (V5's soft_nms_sigma).
absl::Status NmsInputsShape(InferenceContext* c, int extra_scalars) {
  ShapeHandle boxes;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &boxes));
  ShapeHandle scores;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &scores));
  ShapeHandle unused;
  for (int i = 2; i < 5 + extra_scalars; ++i) {
    RETURN_IF_ERROR(c->WithRank(c->input(i), 0, &unused));
  }
  DimensionHandle unused_dim;
  RETURN_IF_ERROR(c->Merge(c->Dim(boxes, 0), c->Dim(scores, 0), &unused_dim));
  RETURN_IF_ERROR(c->WithValue(c->Dim(boxes, 1), 4, &unused_dim));
  return absl::OkStatus();
}

// `padded_outputs` vector outputs of unknown length, or of length max_output_size (input 2,
// when known) with pad_to_max_output_size; then a scalar valid_outputs when `valid_output`.
absl::Status NmsOutputsShape(InferenceContext* c, int padded_outputs, bool valid_output) {
  bool pad_to_max = false;
  if (valid_output) RETURN_IF_ERROR(c->GetAttr("pad_to_max_output_size", &pad_to_max));
  DimensionHandle length = c->UnknownDim();
  if (pad_to_max) RETURN_IF_ERROR(c->MakeDimForScalarInput(2, &length));
  for (int i = 0; i < padded_outputs; ++i) c->set_output(i, c->Vector(length));
  if (valid_output) c->set_output(padded_outputs, c->Scalar());
  return absl::OkStatus();
}

absl::Status NmsV3Shape(InferenceContext* c) {
  RETURN_IF_ERROR(NmsInputsShape(c, 0));
  return NmsOutputsShape(c, 1, /*valid_output=*/false);
}

absl::Status NmsV4Shape(InferenceContext* c) {
  RETURN_IF_ERROR(NmsInputsShape(c, 0));
  return NmsOutputsShape(c, 1, /*valid_output=*/true);
}

absl::Status NmsV5Shape(InferenceContext* c) {
  RETURN_IF_ERROR(NmsInputsShape(c, 1));
  return NmsOutputsShape(c, 2, /*valid_output=*/true);
}

}  // namespace

REGISTER_OP("SpaceToDepth")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("block_size: int >= 2")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .SetShapeFn(SpaceToDepthShape);

REGISTER_OP("DepthToSpace")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("block_size: int >= 2")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .SetShapeFn(DepthToSpaceShape);

// ResizeBilinear always produces float, whatever the input type.
REGISTER_OP("ResizeBilinear")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr(
        "T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double, "
        "bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ResizeNearestNeighbor")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: T")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

// Greedy selection of boxes by descending score, dropping those that overlap an already
// selected box by more than iou_threshold (intersection over union). V4 can pad the indices
// to max_output_size and says how many are valid; V5 also decays overlapping scores
// (soft-NMS, when soft_nms_sigma > 0) and returns the selected scores.
REGISTER_OP("NonMaxSuppressionV3")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Input("score_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Attr("T: {half, float} = DT_FLOAT")
    .Attr("T_threshold: {half, float} = DT_FLOAT")
    .SetShapeFn(NmsV3Shape);

REGISTER_OP("NonMaxSuppressionV4")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Input("score_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Output("valid_outputs: int32")
    .Attr("T: {half, float} = DT_FLOAT")
    .Attr("T_threshold: {half, float} = DT_FLOAT")
    .Attr("pad_to_max_output_size: bool = false")
    .SetShapeFn(NmsV4Shape);

REGISTER_OP("NonMaxSuppressionV5")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T")
    .Input("score_threshold: T")
    .Input("soft_nms_sigma: T")
    .Output("selected_indices: int32")
    .Output("selected_scores: T")
    .Output("valid_outputs: int32")
    .Attr("T: {half, float} = DT_FLOAT")
    .Attr("pad_to_max_output_size: bool = false")
    .SetShapeFn(NmsV5Shape);

}  // namespace sluice
