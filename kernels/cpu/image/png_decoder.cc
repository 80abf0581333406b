#include "kernels/cpu/image/png_decoder.h"

#include <png.h>

#include <cstring>

namespace sluice {
namespace image {

// libpng's callbacks, which reach the decoder through the io pointer.
struct PngCallbacks {
  static void Read(png_structp png, png_bytep out, png_size_t length) {
    auto* decoder = static_cast<PngDecoder*>(png_get_io_ptr(png));
    if (decoder->left_ < length) png_error(png, "More bytes requested to read than available");
    std::memcpy(out, decoder->next_, length);
    decoder->next_ += length;
    decoder->left_ -= length;
  }
  static void Error(png_structp png, png_const_charp) {
    static_cast<PngDecoder*>(png_get_io_ptr(png))->failed_ = true;
    png_longjmp(png, 1);
  }
  static void Warning(png_structp, png_const_charp) {}
};

PngDecoder::~PngDecoder() { Release(); }

void PngDecoder::Release() {
  if (png_ != nullptr) {
    png_structp png = static_cast<png_structp>(png_);
    png_infop info = static_cast<png_infop>(info_);
    png_destroy_read_struct(&png, info != nullptr ? &info : nullptr, nullptr);
  }
  png_ = nullptr;
  info_ = nullptr;
}

bool PngDecoder::Start(absl::string_view data, int channels, int bits) {
  next_ = reinterpret_cast<const uint8_t*>(data.data());
  left_ = data.size();
  channels_ = channels;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, this, PngCallbacks::Error,
                                           PngCallbacks::Warning);
  if (png == nullptr) return false;
  png_ = png;
  // Only trivially destructible locals live past this point: libpng longjmps here on error.
  if (setjmp(png_jmpbuf(png))) {
    Release();
    return false;
  }
  png_infop info = png_create_info_struct(png);
  info_ = info;
  if (info == nullptr) {
    Release();
    return false;
  }
  png_set_read_fn(png, this, PngCallbacks::Read);
  png_read_info(png, info);
  png_uint_32 width = 0, height = 0;
  png_get_IHDR(png, info, &width, &height, &bit_depth_, &color_type_, nullptr, nullptr, nullptr);
  width_ = width;
  height_ = height;
  if (failed_ || width == 0 || height == 0) {
    Release();
    return false;
  }
  const bool has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  if (channels_ == 0) {
    channels_ =
        color_type_ == PNG_COLOR_TYPE_PALETTE ? (has_trns ? 4 : 3) : png_get_channels(png, info);
  }
  const bool has_alpha = (color_type_ & PNG_COLOR_MASK_ALPHA) != 0;
  if (channels_ % 2 == 0) {  // alpha wanted
    if (!has_alpha) {
      if (has_trns) {
        png_set_tRNS_to_alpha(png);
      } else {
        png_set_add_alpha(png, (1u << bit_depth_) - 1, PNG_FILLER_AFTER);
      }
    }
  } else if (has_alpha || has_trns) {
    png_set_strip_alpha(png);
  }
  if (bit_depth_ > 8 && bits <= 8) png_set_strip_16(png);
  widen_to_16_ = bit_depth_ <= 8 && bits == 16;
  png_set_packing(png);
  passes_ = png_set_interlace_handling(png);
  if (bits > 8) png_set_swap(png);  // little-endian hosts, as every Sluice target
  if (color_type_ == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  const bool want_gray = channels_ < 3;
  const bool is_gray = (color_type_ & PNG_COLOR_MASK_COLOR) == 0;
  if (is_gray && bit_depth_ < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (want_gray && !is_gray) png_set_rgb_to_gray(png, 1, 0.299, 0.587);
  if (!want_gray && is_gray) png_set_gray_to_rgb(png);
  png_read_update_info(png, info);
  return !failed_;
}

bool PngDecoder::Finish(uint8_t* pixels, int64_t row_bytes) {
  png_structp png = static_cast<png_structp>(png_);
  png_infop info = static_cast<png_infop>(info_);
  if (png == nullptr) return false;
  if (setjmp(png_jmpbuf(png))) {
    Release();
    return false;
  }
  for (int pass = 0; pass < passes_; ++pass) {
    uint8_t* row = pixels;
    for (uint32_t y = 0; y < height_; ++y, row += row_bytes) png_read_row(png, row, nullptr);
  }
  png_read_end(png, info);
  const bool ok = !failed_;
  Release();
  if (ok && widen_to_16_) {
    // 8-bit samples sit at the start of each row; widen them in place from the end.
    const int64_t samples = static_cast<int64_t>(width_) * channels_;
    for (int64_t y = static_cast<int64_t>(height_) - 1; y >= 0; --y) {
      const uint8_t* narrow = pixels + y * row_bytes;
      uint16_t* wide = reinterpret_cast<uint16_t*>(pixels + y * row_bytes);
      for (int64_t i = samples - 1; i >= 0; --i) {
        wide[i] = static_cast<uint16_t>(narrow[i] * 257u);
      }
    }
  }
  return ok;
}

}  // namespace image
}  // namespace sluice
