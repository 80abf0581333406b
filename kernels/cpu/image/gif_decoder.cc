#include "kernels/cpu/image/gif_decoder.h"

#include <gif_lib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

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

// giflib's DGifSlurp as TensorFlow's giflib runs it, with two differences. A frame's pixels
// start as color index 0: giflib leaves those a failed read did not reach uninitialised, and
// TensorFlow then decodes whatever they hold; Sluice's output stays deterministic. A frame of no
// pixels ends the reading as an error giflib does not name, the frame not counted (*empty_frame),
// as TensorFlow's newer giflib does; Debian's 5.2.1 reads on.
bool Slurp(GifFileType* gif, bool* empty_frame) {
  gif->ExtensionBlocks = nullptr;
  gif->ExtensionBlockCount = 0;
  GifRecordType type = UNDEFINED_RECORD_TYPE;
  do {
    if (DGifGetRecordType(gif, &type) == GIF_ERROR) return false;
    if (type == IMAGE_DESC_RECORD_TYPE) {
      if (DGifGetImageDesc(gif) == GIF_ERROR) return false;
      SavedImage* image = &gif->SavedImages[gif->ImageCount - 1];
      const int width = image->ImageDesc.Width, height = image->ImageDesc.Height;
      if (width <= 0 || height <= 0 || width > std::numeric_limits<int>::max() / height) {
        *empty_frame = true;
        return false;
      }
      // heap-ok: giflib owns each frame's pixels and frees them with free()
      image->RasterBits = static_cast<GifByteType*>(
          std::calloc(static_cast<size_t>(width) * height, sizeof(GifByteType)));
      if (image->RasterBits == nullptr) return false;
      if (image->ImageDesc.Interlace) {
        static constexpr int kFirstRow[] = {0, 4, 2, 1};
        static constexpr int kRowStep[] = {8, 8, 4, 2};
        for (int pass = 0; pass < 4; ++pass) {
          for (int y = kFirstRow[pass]; y < height; y += kRowStep[pass]) {
            if (DGifGetLine(gif, image->RasterBits + static_cast<size_t>(y) * width, width) ==
                GIF_ERROR) {
              return false;
            }
          }
        }
      } else if (DGifGetLine(gif, image->RasterBits, width * height) == GIF_ERROR) {
        return false;
      }
      // The extensions read since the last frame (its graphics control block) are this one's.
      if (gif->ExtensionBlocks != nullptr) {
        image->ExtensionBlocks = gif->ExtensionBlocks;
        image->ExtensionBlockCount = gif->ExtensionBlockCount;
        gif->ExtensionBlocks = nullptr;
        gif->ExtensionBlockCount = 0;
      }
    } else if (type == EXTENSION_RECORD_TYPE) {
      int function = 0;
      GifByteType* block = nullptr;
      if (DGifGetExtension(gif, &function, &block) == GIF_ERROR) return false;
      if (block != nullptr && GifAddExtensionBlock(&gif->ExtensionBlockCount, &gif->ExtensionBlocks,
                                                   function, block[0], &block[1]) == GIF_ERROR) {
        return false;
      }
      for (;;) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return false;
        if (block == nullptr) break;
        if (GifAddExtensionBlock(&gif->ExtensionBlockCount, &gif->ExtensionBlocks,
                                 CONTINUE_EXT_FUNC_CODE, block[0], &block[1]) == GIF_ERROR) {
          return false;
        }
      }
    }
  } while (type != TERMINATE_RECORD_TYPE);
  if (gif->ImageCount == 0) {
    gif->Error = D_GIF_ERR_NO_IMAG_DSCR;
    return false;
  }
  return true;
}

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
  bool empty_frame = false;
  const bool slurped = Slurp(gif, &empty_frame);
  const int error_code = gif->Error;
  const int count = empty_frame ? gif->ImageCount - 1 : gif->ImageCount;
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
