// ImageResizerState: the validation and size arithmetic shared by the resize kernels
// (ResizeBilinear, ResizeNearestNeighbor, on the CPU and on GPUs), with TensorFlow's checks and
// texts, and their per-coordinate transforms.
//
// Validate(ctx) checks the attrs' combination (half_pixel_centers excludes align_corners),
// the images ([batch, height, width, channels], non-empty image, a channel) and the size
// input (two positive int32s), computes the scales and allocates output 0 of shape
// [batch, out_height, out_width, channels]. On failure it sets the status on ctx and
// returns false; the kernel then returns.
//
// The scale of a dim is in/out, or (in-1)/(out-1) with align_corners (in, out > 1), in float as
// in TensorFlow: every coordinate transform below is float arithmetic so that results match
// TensorFlow bit for bit.
#ifndef SLUICE_KERNELS_CPU_IMAGE_IMAGE_RESIZER_STATE_H_
#define SLUICE_KERNELS_CPU_IMAGE_IMAGE_RESIZER_STATE_H_

#include <algorithm>
#include <cmath>
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

// The checks and scales of the interpolating resizes' gradients (ResizeBilinearGrad,
// ResizeBicubicGrad), TensorFlow's ImageResizerGradientState: grads (input 0) is
// [batch, resized_height, resized_width, channels] with positive resized sizes, and
// original_image (input 1) a 4-D image of positive rows and columns below 2**31 - 1, of which
// only those two sizes are read. The scales map resized coordinates onto the original image,
// as the forward op's did, and output 0 is allocated as [batch, original_height,
// original_width, channels]. On failure Validate sets the status on ctx and returns false.
struct ImageResizerGradientState {
  ImageResizerGradientState(bool align_corners, bool half_pixel_centers)
      : align_corners(align_corners), half_pixel_centers(half_pixel_centers) {}

  bool Validate(OpKernelContext* ctx);

  const bool align_corners;
  const bool half_pixel_centers;
  int64_t batch_size = 0;
  int64_t channels = 0;
  int64_t resized_height = 0;
  int64_t resized_width = 0;
  int64_t original_height = 0;
  int64_t original_width = 0;
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

// The input coordinate ResizeNearestNeighbor reads for output coordinate x of a dim of
// in_size (TensorFlow's transform; see resize_nearest_neighbor_op.cc).
inline int64_t NearestSource(const ImageResizerState& st, int64_t x, int64_t in_size, float scale) {
  int64_t in;
  if (st.align_corners) {
    in = static_cast<int64_t>(std::round(LegacyScale(x, scale)));
  } else if (st.half_pixel_centers) {
    in = static_cast<int64_t>(std::floor(HalfPixelScaleForNearest(x, scale)));
  } else {
    in = static_cast<int64_t>(std::floor(LegacyScale(x, scale)));
  }
  in = std::min(in, in_size - 1);
  if (st.half_pixel_centers) in = std::max(in, int64_t{0});
  return in;
}

// ResizeBilinear's weights for one output coordinate of a dim: the two input coordinates it
// reads and the fraction of the way from the lower to the upper one (float, as TensorFlow).
struct BilinearWeight {
  int64_t lower;
  int64_t upper;
  float lerp;
};
inline BilinearWeight BilinearWeightOf(const ImageResizerState& st, int64_t x, int64_t in_size,
                                       float scale) {
  const float in = st.half_pixel_centers ? HalfPixelScale(x, scale) : LegacyScale(x, scale);
  const float in_f = std::floor(in);
  return {std::max(static_cast<int64_t>(in_f), int64_t{0}),
          std::min(static_cast<int64_t>(std::ceil(in)), in_size - 1), in - in_f};
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_IMAGE_RESIZER_STATE_H_
