// Image resizing by bicubic convolution, by area averaging and by a sampling kernel with scale
// and translation (ScaleAndTranslate, which Keras's Resizing emits for lanczos3/lanczos5), and
// the gradients of the bilinear, nearest-neighbour and bicubic resizes (training graphs of
// UpSampling2D and Resizing). (ResizeBilinear and ResizeNearestNeighbor live in image_ops.cc.)
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "graph/ops/resize_shape.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The gradient of an interpolating resize has the shape of the image that was resized.
absl::Status OriginalImageShape(InferenceContext* c) {
  c->set_output(0, c->input(1));
  return absl::OkStatus();
}

}  // namespace

// Both always produce float, whatever the input type.
REGISTER_OP("ResizeBicubic")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

REGISTER_OP("ResizeArea")
    .Input("images: T")
    .Input("size: int32")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .SetShapeFn(ResizeShape);

// The output is [batch, size[0], size[1], channels], as for the resizes above; scale and
// translation are float pairs (rows, columns) the kernel checks.
REGISTER_OP("ScaleAndTranslate")
    .Input("images: T")
    .Input("size: int32")
    .Input("scale: float")
    .Input("translation: float")
    .Output("resized_images: float")
    .Attr("T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double}")
    .Attr("kernel_type: string = 'lanczos3'")
    .Attr("antialias: bool = true")
    .SetShapeFn(ResizeShape);

// The gradients of the resizes: grads [batch, resized rows, resized cols, channels] (float for
// the interpolating ones) spread back over the original image's pixels.
REGISTER_OP("ResizeBilinearGrad")
    .Input("grads: float")
    .Input("original_image: T")
    .Output("output: T")
    .Attr("T: {float, bfloat16, half, double}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(OriginalImageShape);

REGISTER_OP("ResizeBicubicGrad")
    .Input("grads: float")
    .Input("original_image: T")
    .Output("output: T")
    .Attr("T: {float, double}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(OriginalImageShape);

// `size` is the original image's [rows, cols].
REGISTER_OP("ResizeNearestNeighborGrad")
    .Input("grads: T")
    .Input("size: int32")
    .Output("output: T")
    .Attr("T: {uint8, int8, int32, half, float, double, bfloat16}")
    .Attr("align_corners: bool = false")
    .Attr("half_pixel_centers: bool = false")
    .SetShapeFn(ResizeShape);

}  // namespace sluice
