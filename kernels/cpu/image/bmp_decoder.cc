#include "kernels/cpu/image/bmp_decoder.h"

#include <cstdint>
#include <limits>

#include "graph/core/errors.h"

namespace sluice {
namespace image {
namespace {

// The little-endian integer of `bytes` bytes at `at`, as the signed type the header holds.
uint32_t LittleEndian(absl::string_view data, int at, int bytes) {
  uint32_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) {
    value = (value << 8) | static_cast<uint8_t>(data[at + i]);
  }
  return value;
}

}  // namespace

absl::Status ReadBmpLayout(absl::string_view data, BmpLayout* layout) {
  if (data.size() < 32) {
    return errors::InvalidArgument(
        "Incomplete bmp content, requires at least 32 bytes to find the header size, width, "
        "height, and bpp, got ",
        data.size(), " bytes");
  }
  const int32_t offset = static_cast<int32_t>(LittleEndian(data, 10, 4));
  const int32_t width = static_cast<int32_t>(LittleEndian(data, 18, 4));
  const int32_t height = static_cast<int32_t>(LittleEndian(data, 22, 4));
  const int16_t bits = static_cast<int16_t>(LittleEndian(data, 28, 2));
  const int channels = bits / 8;
  if (channels != 1 && channels != 3 && channels != 4) {
    return errors::InvalidArgument(
        "Number of channels inherent in the image must be 1, 3 or 4, was ", channels);
  }
  if (width <= 0) return errors::InvalidArgument("Width must be positive");
  if (height == 0) return errors::InvalidArgument("Height must be nonzero");
  if (offset < 0) return errors::InvalidArgument("header size must be nonnegative");
  const int64_t rows = height < 0 ? -static_cast<int64_t>(height) : height;
  if (width * rows >= std::numeric_limits<int32_t>::max() / 8) {
    return errors::InvalidArgument("Total possible pixel bytes must be less than 2^30");
  }
  // Below 2^30 after the check above.
  const int64_t row_bytes = (static_cast<int64_t>(channels) * width + 3) / 4 * 4;
  const int64_t difference = static_cast<int64_t>(data.size()) - offset - row_bytes * rows;
  if (difference != 0) {
    // TensorFlow computes the difference in 32 bits.
    return errors::InvalidArgument(
        "Input size should match (header_size + row_size * abs_height) but they differ by ",
        static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(difference))));
  }
  layout->pixel_offset = offset;
  layout->width = width;
  layout->height = static_cast<int32_t>(rows);
  layout->channels = channels;
  layout->row_bytes = static_cast<int32_t>(row_bytes);
  layout->top_down = height < 0;
  return absl::OkStatus();
}

void DecodeBmpPixels(absl::string_view data, const BmpLayout& layout, int channels, uint8_t* out) {
  const uint8_t* pixels = reinterpret_cast<const uint8_t*>(data.data()) + layout.pixel_offset;
  const int in_channels = layout.channels;
  for (int64_t y = 0; y < layout.height; ++y) {
    const int64_t file_row = layout.top_down ? y : layout.height - 1 - y;
    const uint8_t* in = pixels + file_row * layout.row_bytes;
    uint8_t* o = out + y * layout.width * channels;
    for (int64_t x = 0; x < layout.width; ++x, in += in_channels, o += channels) {
      if (in_channels == 1) {
        o[0] = in[0];
        if (channels >= 3) o[1] = o[2] = in[0];
      } else {
        if (channels == 1) {
          // TensorFlow refuses one channel for BMP before reading the data.
          o[0] = in[2];
          continue;
        }
        o[0] = in[2];
        o[1] = in[1];
        o[2] = in[0];
      }
      if (channels == 4) o[3] = in_channels == 4 ? in[3] : 255;
    }
  }
}

}  // namespace image
}  // namespace sluice
