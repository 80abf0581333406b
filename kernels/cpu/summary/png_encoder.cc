#include "kernels/cpu/summary/png_encoder.h"

#include <png.h>
#include <zlib.h>

#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"

namespace sluice {
namespace summary {
namespace {

// Where libpng's error handler leaves its message; plain data, since libpng leaves the failing
// call by longjmp.
struct ErrorText {
  char message[256] = {0};
};

void OnError(png_structp png, png_const_charp message) {
  auto* text = static_cast<ErrorText*>(png_get_error_ptr(png));
  std::strncpy(text->message, message == nullptr ? "" : message, sizeof(text->message) - 1);
  png_longjmp(png, 1);
}

// libpng's warnings (none is expected for the images written here) are not errors; libpng's
// default would print them.
void OnWarning(png_structp, png_const_charp) {}

void AppendToString(png_structp png, png_bytep data, size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char*>(data), length);
}

void NoFlush(png_structp) {}

// Runs libpng over the image; false when libpng reported an error. No object with a destructor
// lives in this frame, so libpng's longjmp out of it skips none.
bool WriteImage(png_structp png, png_infop info, const uint8_t* pixels, int width, int height,
                int color_type, size_t row_bytes, std::string* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, out, AppendToString, NoFlush);
  png_set_compression_level(png, Z_DEFAULT_COMPRESSION);
  png_set_compression_mem_level(png, MAX_MEM_LEVEL);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height),
               /*bit_depth=*/8, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y) png_write_row(png, pixels + static_cast<size_t>(y) * row_bytes);
  png_write_end(png, nullptr);
  return true;
}

}  // namespace

absl::Status EncodePng(const uint8_t* pixels, int width, int height, int channels,
                       std::string* png) {
  int color_type;
  switch (channels) {
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
      return errors::InvalidArgument("PNG images have 1 to 4 channels, not ", channels);
  }
  // PNG's dimensions are positive 31-bit numbers.
  if (width <= 0 || height <= 0) {
    return errors::InvalidArgument("cannot encode a ", width, "x", height, " image as PNG");
  }
  png->clear();
  ErrorText error;
  png_structp writer = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, OnError, OnWarning);
  if (writer == nullptr) return errors::Internal("PNG encoding failed: libpng has no memory");
  png_infop info = png_create_info_struct(writer);
  bool ok = false;
  if (info != nullptr) {
    ok = WriteImage(writer, info, pixels, width, height, color_type,
                    static_cast<size_t>(width) * static_cast<size_t>(channels), png);
  } else {
    std::strncpy(error.message, "no memory", sizeof(error.message) - 1);
  }
  png_destroy_write_struct(&writer, info != nullptr ? &info : nullptr);
  if (!ok) {
    png->clear();
    return errors::Internal("PNG encoding failed: ", error.message);
  }
  return absl::OkStatus();
}

}  // namespace summary
}  // namespace sluice
