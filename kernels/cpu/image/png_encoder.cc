#include "kernels/cpu/image/png_encoder.h"

#include <png.h>
#include <zlib.h>

#include <csetjmp>
#include <cstddef>

namespace sluice {
namespace image {
namespace {

void OnError(png_structp png, png_const_charp) { png_longjmp(png, 1); }

// Warnings are not failures; libpng's default handler would print them.
void OnWarning(png_structp, png_const_charp) {}

void Append(png_structp png, png_bytep data, size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char*>(data), length);
}

void NoFlush(png_structp) {}

// Runs libpng over the rows; false when libpng reported an error. Only trivially destructible
// objects live in this frame, since libpng leaves it by longjmp.
bool WriteRows(png_structp png, png_infop info, const uint8_t* pixels,
               const PngEncodeOptions& options, int color_type, std::string* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, out, Append, NoFlush);
  png_set_compression_level(png,
                            options.compression < 0 ? Z_DEFAULT_COMPRESSION : options.compression);
  png_set_compression_mem_level(png, MAX_MEM_LEVEL);
  png_set_IHDR(png, info, static_cast<png_uint_32>(options.width),
               static_cast<png_uint_32>(options.height), options.bits, color_type,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (options.bits > 8) png_set_swap(png);  // little-endian hosts, as every Sluice target
  for (int y = 0; y < options.height; ++y) {
    png_write_row(png, pixels + static_cast<ptrdiff_t>(y) * options.row_bytes);
  }
  png_write_end(png, nullptr);
  return true;
}

}  // namespace

bool EncodePng(const uint8_t* pixels, const PngEncodeOptions& options, std::string* png) {
  png->clear();
  // libpng refuses an empty image itself, but TensorFlow stops before asking it.
  if (options.width <= 0 || options.height <= 0) return false;
  if (options.bits != 8 && options.bits != 16) return false;
  int color_type;
  switch (options.channels) {
    case 1:
      color_type = PNG_COLOR_TYPE_GRAY;
      break;
    case 2:
      color_type = PNG_COLOR_TYPE_GRAY_ALPHA;
      break;
    case 3:
      color_type = PNG_COLOR_TYPE_RGB;
      break;
    case 4:
      color_type = PNG_COLOR_TYPE_RGB_ALPHA;
      break;
    default:
      return false;
  }
  png_structp write = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, OnError, OnWarning);
  if (write == nullptr) return false;
  png_infop info = png_create_info_struct(write);
  const bool ok = info != nullptr && WriteRows(write, info, pixels, options, color_type, png);
  png_destroy_write_struct(&write, info != nullptr ? &info : nullptr);
  if (!ok) png->clear();
  return ok;
}

}  // namespace image
}  // namespace sluice
