// Ops of object detection: cropping boxes out of images and resizing them (CropAndResize),
// and the non-max suppression forms that image_ops.cc does not hold (the original one, V2,
// one over a precomputed overlap matrix, and the batched per-class CombinedNonMaxSuppression).
#include <algorithm>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// crops [num_boxes, crop_height, crop_width, depth]: num_boxes merged from boxes [n, 4] and
// box_ind [n], the crop size from the 2-element crop_size when it is known.
absl::Status CropAndResizeShape(InferenceContext* c) {
  ShapeHandle image;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &image));
  ShapeHandle boxes;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &boxes));
  ShapeHandle box_ind;
  RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &box_ind));
  DimensionHandle num_boxes;
  RETURN_IF_ERROR(c->Merge(c->Dim(boxes, 0), c->Dim(box_ind, 0), &num_boxes));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithValue(c->Dim(boxes, 1), 4, &unused));
  ShapeHandle size;
  RETURN_IF_ERROR(c->WithRank(c->input(3), 1, &size));
  RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 2, &unused));
  DimensionHandle height = c->UnknownDim();
  DimensionHandle width = c->UnknownDim();
  if (const Tensor* size_tensor = c->input_tensor(3)) {
    IntegerValues values;
    RETURN_IF_ERROR(IntegerTensorValues(*size_tensor, &values));
    if (values.size() != 2) return errors::InvalidArgument("crop_size must have two elements");
    // -1 stands for an unknown size; other negatives are errors.
    for (int64_t v : values) {
      if (v < -1) return errors::InvalidArgument("Dimension ", v, " must be >= 0");
    }
    height = c->MakeDim(values[0]);
    width = c->MakeDim(values[1]);
  }
  c->set_output(0, c->MakeShape({num_boxes, height, width, c->Dim(image, 3)}));
  return absl::OkStatus();
}

// boxes [n, 4] (or overlaps [n, n] when `overlaps`), scores [n], then `scalars` scalar inputs;
// the selected indices are a vector of unknown length.
absl::Status NmsShape(InferenceContext* c, int scalars, bool overlaps) {
  ShapeHandle boxes;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &boxes));
  ShapeHandle scores;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &scores));
  ShapeHandle unused;
  for (int i = 2; i < 2 + scalars; ++i) RETURN_IF_ERROR(c->WithRank(c->input(i), 0, &unused));
  DimensionHandle unused_dim;
  RETURN_IF_ERROR(c->Merge(c->Dim(boxes, 0), c->Dim(scores, 0), &unused_dim));
  if (overlaps) {
    RETURN_IF_ERROR(c->Merge(c->Dim(boxes, 0), c->Dim(boxes, 1), &unused_dim));
  } else {
    RETURN_IF_ERROR(c->WithValue(c->Dim(boxes, 1), 4, &unused_dim));
  }
  c->set_output(0, c->Vector(c->UnknownDim()));
  return absl::OkStatus();
}

absl::Status NmsV1Shape(InferenceContext* c) { return NmsShape(c, 1, false); }
absl::Status NmsV2Shape(InferenceContext* c) { return NmsShape(c, 2, false); }
absl::Status NmsWithOverlapsShape(InferenceContext* c) { return NmsShape(c, 3, true); }

// boxes [batch, anchors, q, 4] (q 1 or classes), scores [batch, anchors, classes]: the
// outputs hold max_total_size detections per image, or with pad_per_class at most
// max_output_size_per_class per class.
absl::Status CombinedNmsShape(InferenceContext* c) {
  ShapeHandle boxes;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &boxes));
  ShapeHandle scores;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &scores));
  ShapeHandle unused;
  for (int i = 2; i < 6; ++i) RETURN_IF_ERROR(c->WithRank(c->input(i), 0, &unused));
  DimensionHandle unused_dim;
  RETURN_IF_ERROR(c->Merge(c->Dim(boxes, 0), c->Dim(scores, 0), &unused_dim));
  RETURN_IF_ERROR(c->Merge(c->Dim(boxes, 1), c->Dim(scores, 1), &unused_dim));
  RETURN_IF_ERROR(c->WithValue(c->Dim(boxes, 3), 4, &unused_dim));
  const DimensionHandle q = c->Dim(boxes, 2);
  const DimensionHandle classes = c->Dim(scores, 2);
  if (c->ValueKnown(q) && c->ValueKnown(classes) && c->Value(q) != 1 &&
      c->Value(q) != c->Value(classes)) {
    return errors::InvalidArgument(
        "third dimension of boxes must be either 1 or equal to the third dimension of scores");
  }
  DimensionHandle total;
  RETURN_IF_ERROR(c->MakeDimForScalarInput(3, &total));
  if (c->ValueKnown(total) && c->Value(total) <= 0) {
    return errors::InvalidArgument("max_total_size should be > 0 ");
  }
  DimensionHandle per_class;
  RETURN_IF_ERROR(c->MakeDimForScalarInput(2, &per_class));
  bool pad_per_class = false;
  RETURN_IF_ERROR(c->GetAttr("pad_per_class", &pad_per_class));
  int64_t detections = InferenceContext::kUnknownDim;
  if (!pad_per_class) {
    detections = c->Value(total);
  } else {
    if (c->ValueKnown(per_class) && c->Value(per_class) <= 0) {
      return errors::InvalidArgument(
          "max_output_size_per_class must be > 0 if pad_per_class is set to true ");
    }
    if (c->ValueKnown(per_class) && c->ValueKnown(classes)) {
      detections = std::min(c->Value(total), c->Value(per_class) * c->Value(classes));
    }
  }
  const DimensionHandle batch = c->Dim(boxes, 0);
  c->set_output(0, c->MakeShape({batch, detections, 4}));
  c->set_output(1, c->MakeShape({batch, detections}));
  c->set_output(2, c->MakeShape({batch, detections}));
  c->set_output(3, c->Vector(batch));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("CropAndResize")
    .Input("image: T")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Input("crop_size: int32")
    .Output("crops: float")
    .Attr("T: {uint8, uint16, int8, int16, int32, int64, half, float, double}")
    .Attr("method: {'bilinear', 'nearest'} = 'bilinear'")
    .Attr("extrapolation_value: float = 0")
    .SetShapeFn(CropAndResizeShape);

// CropAndResize's gradients. GradImage's output is the image shape `image_size` holds (rank
// 4); GradBoxes' is the boxes' shape.
REGISTER_OP("CropAndResizeGradImage")
    .Input("grads: float")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Input("image_size: int32")
    .Output("output: T")
    .Attr("T: {float, half, double}")
    .Attr("method: {'bilinear', 'nearest'} = 'bilinear'")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle out;
      RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(3, &out));
      RETURN_IF_ERROR(c->WithRank(out, 4, &out));
      c->set_output(0, out);
      return absl::OkStatus();
    });

REGISTER_OP("CropAndResizeGradBoxes")
    .Input("grads: float")
    .Input("image: T")
    .Input("boxes: float")
    .Input("box_ind: int32")
    .Output("output: float")
    .Attr("T: {uint8, uint16, int8, int16, int32, int64, half, float, double}")
    .Attr("method: {'bilinear'} = 'bilinear'")
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->input(2));
      return absl::OkStatus();
    });

REGISTER_OP("NonMaxSuppression")
    .Input("boxes: float")
    .Input("scores: float")
    .Input("max_output_size: int32")
    .Output("selected_indices: int32")
    .Attr("iou_threshold: float = 0.5")
    .SetShapeFn(NmsV1Shape);

REGISTER_OP("NonMaxSuppressionV2")
    .Input("boxes: T")
    .Input("scores: T")
    .Input("max_output_size: int32")
    .Input("iou_threshold: T_threshold")
    .Output("selected_indices: int32")
    .Attr("T: {half, float} = DT_FLOAT")
    .Attr("T_threshold: {half, float} = DT_FLOAT")
    .SetShapeFn(NmsV2Shape);

REGISTER_OP("NonMaxSuppressionWithOverlaps")
    .Input("overlaps: float")
    .Input("scores: float")
    .Input("max_output_size: int32")
    .Input("overlap_threshold: float")
    .Input("score_threshold: float")
    .Output("selected_indices: int32")
    .SetShapeFn(NmsWithOverlapsShape);

REGISTER_OP("CombinedNonMaxSuppression")
    .Input("boxes: float")
    .Input("scores: float")
    .Input("max_output_size_per_class: int32")
    .Input("max_total_size: int32")
    .Input("iou_threshold: float")
    .Input("score_threshold: float")
    .Output("nmsed_boxes: float")
    .Output("nmsed_scores: float")
    .Output("nmsed_classes: float")
    .Output("valid_detections: int32")
    .Attr("pad_per_class: bool = false")
    .Attr("clip_boxes: bool = true")
    .SetShapeFn(CombinedNmsShape);

}  // namespace sluice
