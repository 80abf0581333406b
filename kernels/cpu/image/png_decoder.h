// Decoding PNG through Debian's libpng with TensorFlow's transformations: the same channel
// choice (palette to RGB(A), transparency to alpha, gray to RGB, RGB to gray with 0.299/0.587),
// 16-bit samples cut to their high byte for 8-bit output, and 8-bit samples widened to 16 as
// v * 257. PNG is lossless, so the decoded values are TensorFlow's exactly.
#ifndef SLUICE_KERNELS_CPU_IMAGE_PNG_DECODER_H_
#define SLUICE_KERNELS_CPU_IMAGE_PNG_DECODER_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace sluice {
namespace image {

// A PNG whose header has been read and whose conversion is set up; Finish decodes the pixels.
// Not copyable; releases libpng's state when destroyed.
class PngDecoder {
 public:
  PngDecoder() = default;
  PngDecoder(const PngDecoder&) = delete;
  PngDecoder& operator=(const PngDecoder&) = delete;
  ~PngDecoder();

  // Reads the header of `data` (which must outlive the decoder) and sets up an output of
  // `channels` (0: the image's own count) samples of `bits` (8 or 16) each. False on data
  // libpng rejects or an empty image.
  bool Start(absl::string_view data, int channels, int bits);

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  int channels() const { return channels_; }

  // Decodes every row into `pixels` (height rows of row_bytes bytes; 16-bit samples in the
  // machine's byte order). False on corrupt or truncated data.
  bool Finish(uint8_t* pixels, int64_t row_bytes);

 private:
  friend struct PngCallbacks;
  void Release();

  void* png_ = nullptr;   // png_structp
  void* info_ = nullptr;  // png_infop
  const uint8_t* next_ = nullptr;
  uint64_t left_ = 0;
  bool failed_ = false;
  uint32_t width_ = 0, height_ = 0;
  int bit_depth_ = 0, color_type_ = 0, channels_ = 0, passes_ = 1;
  bool widen_to_16_ = false;
};

}  // namespace image
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_PNG_DECODER_H_
