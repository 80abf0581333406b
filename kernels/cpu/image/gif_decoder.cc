#include "kernels/cpu/image/gif_decoder.h"

#include <gif_lib.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace sluice {
namespace image {
namespace {

struct Source {
  const uint8_t* next;
  int left;
};

// giflib's reader: hands out what is left, so that a short file is giflib's EOF error.
int Read(GifFileType* gif, GifByteType* out, int size) {
  auto* source = static_cast<Source*>(gif->UserData);
  if (source == nullptr || size <= 0) return 0;
  size = std::min(size, source->left);
  std::memcpy(out, source->next, size);
  source->next += size;
  source->left -= size;
  return size;
}

const char* ErrorText(int code) {
  const char* text = GifErrorString(code);
  return text == nullptr ? "Unknown error" : text;
}

// Closes giflib's file however the decoding ends.
struct GifCloser {
  GifFileType* gif;
  ~GifCloser() {
    int code = D_GIF_SUCCEEDED;
    if (gif != nullptr) DGifCloseFile(gif, &code);
  }
};

// Draws frame k of `gif` on `canvas` (height rows of width RGB pixels), which holds frame k - 1
// already unless k is 0.
bool DrawFrame(GifFileType* gif, int k, int width, int height, uint8_t* canvas,
               std::string* error) {
  const SavedImage& frame = gif->SavedImages[k];
  const GifImageDesc& desc = frame.ImageDesc;
  GraphicsControlBlock control;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  DGifSavedExtensionToGCB(gif, k, &control);
  int left = desc.Left, top = desc.Top;
  int right = desc.Left + desc.Width, bottom = desc.Top + desc.Height;
  if (left != 0 || top != 0 || desc.Width != width || desc.Height != height) {
    if (k == 0) std::memset(canvas, 0, static_cast<size_t>(width) * height * 3);
    left = std::max(left, 0);
    top = std::max(top, 0);
    right = std::min(right, width);
    bottom = std::min(bottom, height);
  }
  const ColorMapObject* colors = desc.ColorMap != nullptr ? desc.ColorMap : gif->SColorMap;
  if (colors == nullptr) {
    *error = absl::StrCat("missing color map for frame ", k);
    return false;
  }
  for (int64_t y = top; y < bottom; ++y) {
    uint8_t* row = canvas + y * width * 3;
    const GifByteType* indices = frame.RasterBits + (y - desc.Top) * desc.Width;
    for (int64_t x = left; x < right; ++x) {
      const int index = indices[x - desc.Left];
      uint8_t* pixel = row + x * 3;
      if (index == control.TransparentColor) {
        if (k == 0) pixel[0] = pixel[1] = pixel[2] = 0;
        continue;
      }
      if (index >= colors->ColorCount) {
        *error = absl::StrCat("found color index ", index, " outside of color map range ",
                              colors->ColorCount);
        return false;
      }
      const GifColorType& color = colors->Colors[index];
      pixel[0] = color.Red;
      pixel[1] = color.Green;
      pixel[2] = color.Blue;
    }
  }
  return true;
}

}  // namespace

bool DecodeGif(absl::string_view data, bool all_frames,
               const std::function<uint8_t*(int, int, int, int)>& allocate, std::string* error) {
  Source source{reinterpret_cast<const uint8_t*>(data.data()), static_cast<int>(data.size())};
  int code = D_GIF_SUCCEEDED;
  GifCloser file{DGifOpen(&source, Read, &code)};
  if (code != D_GIF_SUCCEEDED || file.gif == nullptr) {
    *error = absl::StrCat("failed to open gif file: ", ErrorText(code));
    return false;
  }
  GifFileType* gif = file.gif;
  bool slurped = DGifSlurp(gif) == GIF_OK;
  int error_code = gif->Error;
  // TensorFlow's giflib (newer than Debian's 5.2.1) stops at a frame of no pixels as at an
  // error it does not name, keeping the frames before; Debian's reads on.
  int count = gif->ImageCount;
  for (int k = 0; k < count; ++k) {
    const GifImageDesc& desc = gif->SavedImages[k].ImageDesc;
    if (desc.Width <= 0 || desc.Height <= 0) {
      count = k;
      slurped = false;
      error_code = D_GIF_SUCCEEDED;
      break;
    }
  }
  if (!slurped) {
    *error = absl::StrCat("failed to slurp gif file: ", ErrorText(error_code));
    // As TensorFlow: the frames read before a later error are kept, unless the data ended
    // early or the last frame has no pixels.
    if (count <= 0 || gif->SavedImages[count - 1].RasterBits == nullptr ||
        error_code == D_GIF_ERR_EOF_TOO_SOON) {
      return false;
    }
  }
  if (count <= 0) {
    *error = "gif file does not contain any image";
    return false;
  }
  int width = 0, height = 0;
  for (int k = 0; k < count; ++k) {
    width = std::max(width, gif->SavedImages[k].ImageDesc.Width);
    height = std::max(height, gif->SavedImages[k].ImageDesc.Height);
  }
  const int frames = all_frames ? count : 1;
  uint8_t* out = allocate(frames, width, height, 3);
  if (out == nullptr) return false;
  const int64_t frame_bytes = static_cast<int64_t>(width) * height * 3;
  for (int k = 0; k < frames; ++k) {
    uint8_t* canvas = out + k * frame_bytes;
    if (k > 0) std::memcpy(canvas, canvas - frame_bytes, frame_bytes);
    if (!DrawFrame(gif, k, width, height, canvas, error)) return false;
  }
  return true;
}

}  // namespace image
}  // namespace sluice
