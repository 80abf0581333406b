// Decoding BMP as TensorFlow does, by hand: only the fields it reads (the pixel data's offset,
// width, height and bits per pixel, at their fixed places of a BITMAPINFOHEADER), 8-, 24- and
// 32-bit uncompressed pixels (gray, BGR, BGRA), rows padded to 4 bytes, bottom-up for a
// positive height and top-down for a negative one, and a file whose size must be exactly
// the offset plus the rows. Each check's message is TensorFlow's.
#ifndef SLUICE_KERNELS_CPU_IMAGE_BMP_DECODER_H_
#define SLUICE_KERNELS_CPU_IMAGE_BMP_DECODER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sluice {
namespace image {

struct BmpLayout {
  int32_t pixel_offset = 0;  // where the rows start
  int32_t width = 0;
  int32_t height = 0;  // rows, always positive
  int channels = 0;    // 1, 3 or 4 bytes per pixel
  int32_t row_bytes = 0;
  bool top_down = false;
};

// Reads and checks the header of `data`: INVALID_ARGUMENT with TensorFlow's message for data
// shorter than a header, a bit depth other than 8, 24 or 32, a zero size, a negative offset,
// 2^28 pixels or more, or a size that is not the offset plus the rows.
absl::Status ReadBmpLayout(absl::string_view data, BmpLayout* layout);

// Writes the pixels of `data` (checked by ReadBmpLayout into `layout`) to `out` as height rows
// of width pixels of `channels` (1, 3 or 4) samples, top row first: gray repeated into RGB,
// BGR(A) turned into RGB(A), alpha 255 where the file has none.
void DecodeBmpPixels(absl::string_view data, const BmpLayout& layout, int channels, uint8_t* out);

}  // namespace image
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_BMP_DECODER_H_
