#include "kernels/cpu/image/image_resizer_state.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"

namespace sluice {
namespace {

// As TensorFlow's CalculateResizeScale: align_corners maps corners onto corners only when both
// sizes exceed 1 (a 1-pixel image keeps in / out, which gradients see in their weights).
float ResizeScale(int64_t in_size, int64_t out_size, bool align_corners) {
  return (align_corners && in_size > 1 && out_size > 1)
             ? static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1)
             : static_cast<float>(in_size) / static_cast<float>(out_size);
}

}  // namespace

void ReadResizeAttrs(OpKernelConstruction* ctx, bool* align_corners, bool* half_pixel_centers) {
  OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", align_corners));
  OP_REQUIRES_OK(ctx, ctx->GetAttr("half_pixel_centers", half_pixel_centers));
}

bool ImageResizerState::Validate(OpKernelContext* ctx) {
  auto fail = [ctx](const absl::Status& status) {
    ctx->CtxFailure(status);
    return false;
  };
  if (half_pixel_centers && align_corners) {
    return fail(
        errors::InvalidArgument("If half_pixel_centers is True, align_corners must be False."));
  }
  const Tensor& input = ctx->input(0);
  if (input.dims() != 4) {
    return fail(
        errors::InvalidArgument("input must be 4-dimensional", input.shape().DebugString()));
  }
  batch_size = input.dim_size(0);
  in_height = input.dim_size(1);
  in_width = input.dim_size(2);
  channels = input.dim_size(3);
  if (channels <= 0) {
    return fail(errors::InvalidArgument("image must have at least one channel"));
  }
  if (in_height <= 0 || in_width <= 0) {
    return fail(errors::InvalidArgument("input image must be of non-zero size"));
  }
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  if (in_height >= kInt32Max || in_width >= kInt32Max) {
    return fail(errors::InvalidArgument("input sizes must be between 0 and max int32"));
  }
  const Tensor& size = ctx->input(1);
  if (size.dims() != 1) {
    return fail(errors::InvalidArgument("shape_t must be 1-D", size.shape().DebugString()));
  }
  if (size.NumElements() != 2) {
    return fail(
        errors::InvalidArgument("shape_t must have two elements", size.shape().DebugString()));
  }
  out_height = size.base<int32_t>()[0];
  out_width = size.base<int32_t>()[1];
  if (out_height <= 0 || out_width <= 0) {
    return fail(errors::InvalidArgument("output dimensions must be positive"));
  }
  height_scale = ResizeScale(in_height, out_height, align_corners);
  width_scale = ResizeScale(in_width, out_width, align_corners);
  if (std::ceil(static_cast<float>(out_height - 1) * height_scale) >
      static_cast<float>(std::numeric_limits<int64_t>::max())) {
    return fail(errors::InvalidArgument("input image height scale would cause an overflow"));
  }
  if (std::ceil(static_cast<float>(out_width - 1) * width_scale) >
      static_cast<float>(std::numeric_limits<int32_t>::max())) {
    return fail(errors::InvalidArgument("input image width scale would cause an overflow"));
  }
  TensorShape shape;
  absl::Status status =
      TensorShape::BuildTensorShape({batch_size, out_height, out_width, channels}, &shape);
  if (status.ok()) status = ctx->allocate_output(0, shape, &output);
  if (!status.ok()) return fail(status);
  return true;
}

bool ImageResizerGradientState::Validate(OpKernelContext* ctx) {
  auto fail = [ctx](const absl::Status& status) {
    ctx->CtxFailure(status);
    return false;
  };
  if (half_pixel_centers && align_corners) {
    return fail(
        errors::InvalidArgument("If half_pixel_centers is True, align_corners must be False."));
  }
  const Tensor& grads = ctx->input(0);
  if (grads.dims() != 4) {
    return fail(
        errors::InvalidArgument("input_grad must be 4-dimensional", grads.shape().DebugString()));
  }
  batch_size = grads.dim_size(0);
  resized_height = grads.dim_size(1);
  resized_width = grads.dim_size(2);
  channels = grads.dim_size(3);
  if (resized_height <= 0 || resized_width <= 0) {
    return fail(errors::InvalidArgument("resized dimensions must be positive"));
  }
  const TensorShape& original = ctx->input(1).shape();
  if (original.dims() != 4) {
    return fail(
        errors::InvalidArgument("original_image must be 4-dimensional", original.DebugString()));
  }
  original_height = original.dim_size(1);
  original_width = original.dim_size(2);
  if (original_height <= 0 || original_width <= 0) {
    return fail(errors::InvalidArgument("original dimensions must be positive"));
  }
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  if (original_height >= kInt32Max || original_width >= kInt32Max) {
    return fail(errors::InvalidArgument("original sizes must be between 0 and max int32"));
  }
  height_scale = ResizeScale(original_height, resized_height, align_corners);
  width_scale = ResizeScale(original_width, resized_width, align_corners);
  TensorShape shape;
  absl::Status status = TensorShape::BuildTensorShape(
      {batch_size, original_height, original_width, channels}, &shape);
  if (status.ok()) status = ctx->allocate_output(0, shape, &output);
  if (!status.ok()) return fail(status);
  return true;
}

}  // namespace sluice
