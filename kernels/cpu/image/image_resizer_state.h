// ImageResizerState: the validation and size arithmetic shared by the resize kernels
// (ResizeBilinear, ResizeNearestNeighbor), with TensorFlow's checks and texts.
//
// Validate(ctx) checks the attrs' combination (half_pixel_centers excludes align_corners),
// the images ([batch, height, width, channels], non-empty image, a channel) and the size
// input (two positive int32s), computes the scales and allocates output 0 of shape
// [batch, out_height, out_width, channels]. On failure it sets the status on ctx and
// returns false; the kernel then returns.
//
// The scale of a dim is in/out, or (in-1)/(out-1) with align_corners (out > 1), in float as
// in TensorFlow: every coordinate transform below is float arithmetic so that results match
// TensorFlow bit for bit.
#ifndef SLUICE_KERNELS_CPU_IMAGE_IMAGE_RESIZER_STATE_H_
#define SLUICE_KERNELS_CPU_IMAGE_IMAGE_RESIZER_STATE_H_

#include <cstdint>

#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

struct ImageResizerState {
  ImageResizerState(bool align_corners, bool half_pixel_centers)
      : align_corners(align_corners), half_pixel_centers(half_pixel_centers) {}

  bool Validate(OpKernelContext* ctx);

  const bool align_corners;
  const bool half_pixel_centers;
  int64_t batch_size = 0;
  int64_t in_height = 0;
  int64_t in_width = 0;
  int64_t channels = 0;
  int64_t out_height = 0;
  int64_t out_width = 0;
  float height_scale = 0;
  float width_scale = 0;
  Tensor* output = nullptr;
};

// Reads the align_corners and half_pixel_centers attrs of a resize kernel.
void ReadResizeAttrs(OpKernelConstruction* ctx, bool* align_corners, bool* half_pixel_centers);

// Source coordinate of output coordinate x: x * scale (legacy and align_corners).
inline float LegacyScale(int64_t x, float scale) { return static_cast<float>(x) * scale; }
// Source coordinate of output pixel centre x, for bilinear: (x + 0.5) * scale - 0.5.
inline float HalfPixelScale(int64_t x, float scale) {
  return (static_cast<float>(x) + 0.5f) * scale - 0.5f;
}
// For nearest neighbour TensorFlow omits the - 0.5 (and floors the result).
inline float HalfPixelScaleForNearest(int64_t x, float scale) {
  return (static_cast<float>(x) + 0.5f) * scale;
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_IMAGE_RESIZER_STATE_H_
