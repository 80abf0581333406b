// Decoding JPEG through Debian's libjpeg-turbo with TensorFlow's settings: its DCT method (fast
// integer unless asked otherwise), fancy upsampling switch, 1/ratio scaling, crop window,
// CMYK to RGB conversion, and its recovery of truncated files (a fake end marker, unread rows
// black, a minimum fraction of rows). The IDCTs and upsamplers are deterministic integer
// code, so the pixels are TensorFlow's where its libjpeg-turbo computes them the same way.
#ifndef SLUICE_KERNELS_CPU_IMAGE_JPEG_DECODER_H_
#define SLUICE_KERNELS_CPU_IMAGE_JPEG_DECODER_H_

#include <cstdint>
#include <functional>

#include "absl/strings/string_view.h"

namespace sluice {
namespace image {

struct JpegDecodeOptions {
  int channels = 0;  // 0 (1 for gray images, 3 otherwise), 1 or 3
  int ratio = 1;     // 1, 2, 4 or 8
  bool fancy_upscaling = true;
  bool try_recover_truncated = false;
  float acceptable_fraction = 1.0f;
  bool accurate_dct = false;  // INTEGER_ACCURATE rather than INTEGER_FAST
  bool crop = false;
  int crop_y = 0, crop_x = 0, crop_height = 0, crop_width = 0;
};

// Decodes `data`. `allocate(height, width, channels)` returns the buffer for the pixels (rows
// of width * channels bytes), or null to give up. Returns false on data libjpeg rejects, an
// invalid crop window, an image of 2^29 samples or more, or fewer rows read than accepted.
bool DecodeJpeg(absl::string_view data, const JpegDecodeOptions& options,
                const std::function<uint8_t*(int, int, int)>& allocate);

// The height, width and number of output components (4 for CMYK) of a JPEG, as TensorFlow's
// ExtractJpegShape finds them: the header is read and the output sized from it. False where
// libjpeg fails either, a header it cannot finish reading (data cut short inside it) included;
// a file cut short after its header, or lacking a table its scans need, still has a shape.
bool JpegHeaderShape(absl::string_view data, int* height, int* width, int* channels);

}  // namespace image
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_JPEG_DECODER_H_
