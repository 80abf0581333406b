// The four taps of a bicubic resize along one dim, shared by ResizeBicubic and its gradient
// (ResizeBicubicGrad), which must weigh the same input pixels exactly as the forward op did.
//
// TensorFlow's scheme, to match it bit for bit: the cubic kernel's weights come from a table
// of 1025 samples per unit of the two kernel pieces, computed in double and stored as float,
// with a = -0.75 for the legacy coordinates and Keys's a = -0.5 with half_pixel_centers. The
// source coordinate in = scale(x) (legacy: x * s; half-pixel centres: (x + 0.5) * s - 0.5) is
// float; with i = floor(in) and the table offset t = lrintf((in - i) * 1024), the taps
// i-1 .. i+2 (clamped to the dim) weigh table[t].outer, table[t].inner, table[1024 - t].inner,
// table[1024 - t].outer. With half_pixel_centers a tap outside the dim weighs 0 and the four
// are renormalised to sum to 1.
#ifndef SLUICE_KERNELS_CPU_IMAGE_BICUBIC_TAPS_H_
#define SLUICE_KERNELS_CPU_IMAGE_BICUBIC_TAPS_H_

#include <cstdint>

namespace sluice {

struct BicubicTaps {
  float weight[4];
  int64_t index[4];  // coordinates multiplied by the stride passed in
};

// The taps of output coordinate out_loc of a dim of `limit` input coordinates.
BicubicTaps ComputeBicubicTaps(float scale, int64_t out_loc, int64_t limit, bool half_pixel_centers,
                               int64_t stride);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_BICUBIC_TAPS_H_
