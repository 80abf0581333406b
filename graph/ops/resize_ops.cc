// Image resizing by bicubic convolution, by area averaging and by a sampling kernel with scale
// and translation (ScaleAndTranslate, which Keras's Resizing emits for lanczos3/lanczos5), and
// the gradients of the bilinear, nearest-neighbour and bicubic resizes (training graphs of
// UpSampling2D and Resizing). (ResizeBilinear and ResizeNearestNeighbor live in image_ops.cc.)
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// TensorFlow's ResizeShapeFn: [batch, new_height, new_width, channels] from a 4-D NHWC image
// and the 2-element int32 `size` (its values when known). The same rule as image_ops.cc's
// ResizeShape for ResizeBilinear.
absl::Status ResizeShape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &input));
  ShapeHandle size;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &size));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 2, &unused));
  DimensionHandle height = c->UnknownDim();
  DimensionHandle width = c->UnknownDim();
  const Tensor* size_tensor = c->input_tensor(1);
  if (size_tensor != nullptr) {
    if (size_tensor->dtype() != DT_INT32 || size_tensor->NumElements() != 2) {
      return errors::InvalidArgument("size must be a vector of 2 int32 values");
    }
    auto values = size_tensor->unaligned_flat<int32_t>();
    // -1 stands for an unknown size; other negatives are errors.
    for (int i = 0; i < 2; ++i) {
      if (values(i) < -1) {
        return errors::InvalidArgument("Dimension ", values(i), " must be >= 0");
      }
    }
    height = c->MakeDim(int64_t{values(0)});
    width = c->MakeDim(int64_t{values(1)});
  }
  c->set_output(0, c->MakeShape({c->Dim(input, 0), height, width, c->Dim(input, 3)}));
  return absl::OkStatus();
}

// TensorFlow's ResizeNearestNeighborGrad shape: grads' shape with its rows and columns
// replaced by the values of the 2-element `size` (unknown when they are).
absl::Status ResizeNearestGradShape(InferenceContext* c) {
  ShapeHandle grads;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &grads));
  ShapeHandle size;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &size));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 2, &unused));
  DimensionHandle height = c->UnknownDim();
  DimensionHandle width = c->UnknownDim();
  const Tensor* size_tensor = c->input_tensor(1);
  if (size_tensor != nullptr) {
    if (size_tensor->dtype() != DT_INT32 || size_tensor->NumElements() != 2) {
      return errors::InvalidArgument("size must be a vector of 2 int32 values");
    }
    auto values = size_tensor->unaligned_flat<int32_t>();
    for (int i = 0; i < 2; ++i) {
      if (values(i) < -1) {
        return errors::InvalidArgument("Dimension ", values(i), " must be >= 0");
      }
    }
    height = c->MakeDim(int64_t{values(0)});
    width = c->MakeDim(int64_t{values(1)});
  }
  c->set_output(0, c->MakeShape({c->Dim(grads, 0), height, width, c->Dim(grads, 3)}));
  return absl::OkStatus();
}

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
    .SetShapeFn(ResizeNearestGradShape);

}  // namespace sluice
