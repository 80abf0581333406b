// Ops on the colors of images whose last dim holds the channels: conversion between RGB and
// HSV, and the contrast, saturation and hue adjustments of tf.image.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The input's shape, whose last dim must be 3.
absl::Status ColorspaceShape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &input));
  DimensionHandle channels;
  RETURN_IF_ERROR(c->WithValue(c->Dim(input, -1), 3, &channels));
  ShapeHandle out;
  RETURN_IF_ERROR(c->ReplaceDim(input, -1, channels, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// The images' shape, of rank >= 3 ([..., height, width, channels]).
absl::Status AdjustShape(InferenceContext* c) {
  return shape_inference::UnchangedShapeWithRankAtLeast(c, 3);
}

// As AdjustShape; the contrast factor must be a scalar.
absl::Status AdjustContrastShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  return AdjustShape(c);
}

}  // namespace

REGISTER_OP("RGBToHSV")
    .Input("images: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double} = DT_FLOAT")
    .SetShapeFn(ColorspaceShape);

REGISTER_OP("HSVToRGB")
    .Input("images: T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double} = DT_FLOAT")
    .SetShapeFn(ColorspaceShape);

REGISTER_OP("AdjustContrastv2")
    .Input("images: T")
    .Input("contrast_factor: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn(AdjustContrastShape);

REGISTER_OP("AdjustSaturation")
    .Input("images: T")
    .Input("scale: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn(AdjustShape);

REGISTER_OP("AdjustHue")
    .Input("images: T")
    .Input("delta: float")
    .Output("output: T")
    .Attr("T: {half, float} = DT_FLOAT")
    .SetShapeFn(AdjustShape);

}  // namespace sluice
