// Gradient functions of the image resizes (UpSampling2D and Resizing layers): ResizeBilinear,
// ResizeNearestNeighbor and ResizeBicubic, as TensorFlow defines them (the size input gets no
// gradient); CropAndResize's, and no gradient through the non-max suppressions.
#include <string>
#include <vector>

#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

absl::Status ReadResizeAttrs(const Operation& op, bool* align_corners, bool* half_pixel_centers) {
  const AttrSlice a = op.node()->attrs();
  RETURN_IF_ERROR(GetNodeAttr(a, "align_corners", align_corners));
  return GetNodeAttr(a, "half_pixel_centers", half_pixel_centers);
}

// The interpolating resizes differentiate through the image they resized (only its shape is
// read).
absl::Status ResizeBilinearGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                GradList* out) {
  bool align_corners = false, half_pixel_centers = false;
  RETURN_IF_ERROR(ReadResizeAttrs(op, &align_corners, &half_pixel_centers));
  out->push_back(ops::internal::ResizeBilinearGrad(
      scope, grads[0], op.input(0),
      ops::internal::ResizeBilinearGrad::AlignCorners(align_corners)
          .HalfPixelCenters(half_pixel_centers)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("ResizeBilinear", ResizeBilinearGrad);

absl::Status ResizeBicubicGrad(const Scope& scope, const Operation& op, const GradList& grads,
                               GradList* out) {
  bool align_corners = false, half_pixel_centers = false;
  RETURN_IF_ERROR(ReadResizeAttrs(op, &align_corners, &half_pixel_centers));
  out->push_back(
      ops::internal::ResizeBicubicGrad(scope, grads[0], op.input(0),
                                       ops::internal::ResizeBicubicGrad::AlignCorners(align_corners)
                                           .HalfPixelCenters(half_pixel_centers)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("ResizeBicubic", ResizeBicubicGrad);

// The nearest-neighbour gradient takes the image's [rows, cols].
absl::Status ResizeNearestNeighborGrad(const Scope& scope, const Operation& op,
                                       const GradList& grads, GradList* out) {
  bool align_corners = false, half_pixel_centers = false;
  RETURN_IF_ERROR(ReadResizeAttrs(op, &align_corners, &half_pixel_centers));
  const Output rows_cols = ops::Slice(scope, ops::Shape(scope, op.input(0)), {1}, {2});
  out->push_back(ops::internal::ResizeNearestNeighborGrad(
      scope, grads[0], rows_cols,
      ops::internal::ResizeNearestNeighborGrad::AlignCorners(align_corners)
          .HalfPixelCenters(half_pixel_centers)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("ResizeNearestNeighbor", ResizeNearestNeighborGrad);

// CropAndResize: the image (its shape read at run time) and the boxes get gradients; the box
// indices and the crop size none. Boxes always differentiate the bilinear crop, the only
// method CropAndResizeGradBoxes has.
absl::Status CropAndResizeGrad(const Scope& scope, const Operation& op, const GradList& grads,
                               GradList* out) {
  std::string method;
  DataType image_type;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "method", &method));
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "T", &image_type));
  out->push_back(ops::CropAndResizeGradImage(scope, grads[0], op.input(1), op.input(2),
                                             ops::Shape(scope, op.input(0)), image_type,
                                             ops::CropAndResizeGradImage::Method(method)));
  out->push_back(
      ops::CropAndResizeGradBoxes(scope, grads[0], op.input(0), op.input(1), op.input(2)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("CropAndResize", CropAndResizeGrad);

REGISTER_NO_GRADIENT_OP("NonMaxSuppression");
REGISTER_NO_GRADIENT_OP("NonMaxSuppressionV2");
REGISTER_NO_GRADIENT_OP("NonMaxSuppressionV3");
REGISTER_NO_GRADIENT_OP("NonMaxSuppressionV4");
REGISTER_NO_GRADIENT_OP("NonMaxSuppressionV5");

}  // namespace
}  // namespace gradients
}  // namespace sluice
