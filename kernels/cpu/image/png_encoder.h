// Encoding PNG through Debian's libpng with TensorFlow's settings (its png::WriteImageToBuffer):
// no interlacing, the given zlib level (-1: zlib's default) with the largest memory level,
// libpng's default filter choice, 8- or 16-bit samples (16-bit ones in the machine's byte
// order). With the same deflate output the bytes are TensorFlow's; PNG is lossless, so
// decoding them gives the pixels back whatever zlib does.
#ifndef SLUICE_KERNELS_CPU_IMAGE_PNG_ENCODER_H_
#define SLUICE_KERNELS_CPU_IMAGE_PNG_ENCODER_H_

#include <cstdint>
#include <string>

namespace sluice {
namespace image {

struct PngEncodeOptions {
  int width = 0;
  int height = 0;
  int64_t row_bytes = 0;  // distance between rows at `pixels`
  int channels = 0;       // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
  int bits = 8;           // 8 or 16 per sample
  int compression = -1;   // zlib level, -1..9
};

// Encodes the image at `pixels` into `png`, replacing its contents. False (and `png` empty)
// for an empty image, another channel count or an error libpng reports.
bool EncodePng(const uint8_t* pixels, const PngEncodeOptions& options, std::string* png);

}  // namespace image
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_PNG_ENCODER_H_
