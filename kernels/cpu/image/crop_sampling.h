// Where CropAndResize samples a box: the arithmetic its forward kernel and both gradients must
// share exactly (TensorFlow's), so that a gradient lands on the pixels the forward pass read.
#ifndef SLUICE_KERNELS_CPU_IMAGE_CROP_SAMPLING_H_
#define SLUICE_KERNELS_CPU_IMAGE_CROP_SAMPLING_H_

#include <cstdint>

namespace sluice {
namespace crop_sampling {

// The step between samples along an image axis of `size` pixels for `crop` samples between
// normalized box edges lo and hi: (hi - lo) * (size - 1) / (crop - 1); 0 for one sample.
inline float Scale(float lo, float hi, int64_t size, int64_t crop) {
  return crop > 1 ? (hi - lo) * static_cast<float>(size - 1) / static_cast<float>(crop - 1) : 0.0f;
}

// The position (in pixels) of sample `i` of `crop` along that axis; `scale` is Scale(...). A
// single sample sits at the box's centre.
inline float SamplePosition(float lo, float hi, int64_t size, int64_t crop, float scale,
                            int64_t i) {
  if (crop > 1) return lo * static_cast<float>(size - 1) + static_cast<float>(i) * scale;
  return static_cast<float>(0.5 * static_cast<double>(lo + hi) * static_cast<double>(size - 1));
}

}  // namespace crop_sampling
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_CROP_SAMPLING_H_
