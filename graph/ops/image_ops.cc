// Ops that reshape images spatially: moving blocks between space and depth, and resizing.
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/op/op_registry.h"
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

// [batch, new_height, new_width, channels] from a 4-D NHWC image and the 2-element `size`.
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

}  // namespace sluice
