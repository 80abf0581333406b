// PNG encoding of 8-bit images for ImageSummary, through the system's libpng (Debian's
// libpng16 and zlib).
//
// The settings are TensorFlow's (its png::WriteImageToBuffer as ImageSummary calls it): no
// interlacing, zlib's default compression level with the largest memory level, libpng's default
// filter choice, no text chunks. With the same zlib output, the bytes are then TensorFlow's;
// deflate's output depends only on the level, memory level, strategy and zlib's version, and the
// summary tests compare the bytes with TensorFlow's.
//
// Thread-safe: no shared state.
#ifndef SLUICE_KERNELS_CPU_SUMMARY_PNG_ENCODER_H_
#define SLUICE_KERNELS_CPU_SUMMARY_PNG_ENCODER_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace sluice {
namespace summary {

// Encodes the `height` rows of `width` pixels at `pixels` (row-major, `channels` interleaved
// bytes per pixel: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA) into `png`, replacing its contents.
// INVALID_ARGUMENT for a zero or overlarge size or another channel count; INTERNAL when libpng
// reports an error (out of memory). `pixels` must hold width * height * channels bytes.
absl::Status EncodePng(const uint8_t* pixels, int width, int height, int channels,
                       std::string* png);

}  // namespace summary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SUMMARY_PNG_ENCODER_H_
