// Decoding GIF through Debian's giflib as TensorFlow does: every frame drawn over a copy of the
// previous one (disposal methods are ignored), a frame's transparent pixels keeping what is
// beneath (black under the first frame), canvas parts the first frame leaves out black, and
// the canvas as large as the largest frame (not the logical screen). Data giflib reads only
// partly still gives the frames it read, unless it ended early (the pixels a frame cut short
// lacks have color index 0 where TensorFlow's are whatever its memory held). Messages are
// TensorFlow's.
#ifndef SLUICE_KERNELS_CPU_IMAGE_GIF_DECODER_H_
#define SLUICE_KERNELS_CPU_IMAGE_GIF_DECODER_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/strings/string_view.h"

namespace sluice {
namespace image {

// Decodes `data` (under 2^31 bytes), all frames or only the first one. `allocate(frames,
// width, height, channels)` returns the buffer for frames * height * width * channels bytes,
// or null to give up (then `error` is left alone). False on failure, with `error` saying why
// where the decoder failed.
bool DecodeGif(absl::string_view data, bool all_frames,
               const std::function<uint8_t*(int, int, int, int)>& allocate, std::string* error);

}  // namespace image
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_GIF_DECODER_H_
