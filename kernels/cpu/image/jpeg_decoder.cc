#include "kernels/cpu/image/jpeg_decoder.h"

#include <setjmp.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>
// ERREXIT, WARNMS and the message codes.
#include <jerror.h>

namespace sluice {
namespace image {
namespace {

// The memory source, with TensorFlow's handling of running out of data: an empty input is an
// error; with recovery off, a request for data while some is left (libjpeg's marker reader
// keeps its read position in locals and asks before syncing it) suspends libjpeg, and running
// out is an error; with recovery on, such a request gets the same bytes again and running out
// a fake end-of-image marker. TensorFlow's recovery never ends on some inputs: the bytes given
// again are re-read the same way (a marker of nothing but fill bytes after a JFIF header; the
// image_decoders_fuzzer's find), and its test for a marker already given compares the read
// position with the marker's start, which it has passed once read. TensorFlow then never
// returns. Sluice recovers the same way kMaxRecoveries times, then goes on as without recovery.
struct MemorySource {
  jpeg_source_mgr pub;
  const JOCTET* data;
  size_t size;
  bool recover_truncated;
  int recoveries;
};

// Far more than an input that TensorFlow finishes needs.
constexpr int kMaxRecoveries = 1024;

const JOCTET kEndOfImage[2] = {0xff, JPEG_EOI};

void InitSource(j_decompress_ptr cinfo) {
  auto* src = reinterpret_cast<MemorySource*>(cinfo->src);
  src->pub.next_input_byte = src->data;
  src->pub.bytes_in_buffer = src->size;
}

boolean FillInputBuffer(j_decompress_ptr cinfo) {
  auto* src = reinterpret_cast<MemorySource*>(cinfo->src);
  if (src->pub.bytes_in_buffer == 0 && src->pub.next_input_byte == src->data) {
    ERREXIT(cinfo, JERR_INPUT_EMPTY);
    return FALSE;
  }
  const bool recover = src->recover_truncated && src->recoveries < kMaxRecoveries;
  if (recover) ++src->recoveries;
  if (src->pub.bytes_in_buffer != 0) return recover ? TRUE : FALSE;
  if (src->pub.next_input_byte != kEndOfImage && recover) {
    WARNMS(cinfo, JWRN_JPEG_EOF);
    src->pub.next_input_byte = kEndOfImage;
    src->pub.bytes_in_buffer = 2;
    return TRUE;
  }
  ERREXIT(cinfo, JERR_FILE_READ);
  return FALSE;
}

void SkipInputData(j_decompress_ptr cinfo, long jump) {  // NOLINT(runtime/int): libjpeg's type
  auto* src = reinterpret_cast<MemorySource*>(cinfo->src);
  if (jump < 0) return;
  if (static_cast<size_t>(jump) > src->pub.bytes_in_buffer) {
    src->pub.bytes_in_buffer = 0;
    (void)FillInputBuffer(cinfo);
  } else {
    src->pub.bytes_in_buffer -= jump;
    src->pub.next_input_byte += jump;
  }
}

void TermSource(j_decompress_ptr) {}

void SetSource(j_decompress_ptr cinfo, absl::string_view data, bool recover_truncated) {
  auto* src = static_cast<MemorySource*>((*cinfo->mem->alloc_small)(
      reinterpret_cast<j_common_ptr>(cinfo), JPOOL_PERMANENT, sizeof(MemorySource)));
  src->pub.init_source = InitSource;
  src->pub.fill_input_buffer = FillInputBuffer;
  src->pub.skip_input_data = SkipInputData;
  src->pub.resync_to_restart = jpeg_resync_to_restart;
  src->pub.term_source = TermSource;
  src->pub.bytes_in_buffer = 0;
  src->pub.next_input_byte = nullptr;
  src->data = reinterpret_cast<const JOCTET*>(data.data());
  src->size = data.size();
  src->recover_truncated = recover_truncated;
  src->recoveries = 0;
  cinfo->src = &src->pub;
}

// libjpeg's fatal errors jump back to the decode call, which cleans up.
struct ErrorManager {
  jpeg_error_mgr pub;
  jmp_buf jump;
};

void ErrorExit(j_common_ptr cinfo) {
  longjmp(reinterpret_cast<ErrorManager*>(cinfo->err)->jump, 1);
}

void SilentMessage(j_common_ptr) {}

// The state of one decode kept outside the setjmp frame, so that nothing with a destructor
// lives across a longjmp.
struct DecodeState {
  jpeg_decompress_struct cinfo;
  ErrorManager error;
  JSAMPLE* scratch = nullptr;  // one MCU-aligned or CMYK row
  int rows = 0;                // rows wanted
  int rows_read = 0;
  int64_t stride = 0;
};

bool IsCropWindowValid(const JpegDecodeOptions& o, JDIMENSION width, JDIMENSION height) {
  return o.crop_width > 0 && o.crop_height > 0 && o.crop_x >= 0 && o.crop_y >= 0 &&
         static_cast<int64_t>(o.crop_y) + o.crop_height <= static_cast<int64_t>(height) &&
         static_cast<int64_t>(o.crop_x) + o.crop_width <= static_cast<int64_t>(width);
}

// Returns the pixels or null; on null the caller's state holds what to free.
uint8_t* DecodeLow(absl::string_view data, const JpegDecodeOptions& o,
                   const std::function<uint8_t*(int, int, int)>& allocate, DecodeState* s) {
  jpeg_decompress_struct& cinfo = s->cinfo;
  cinfo.err = jpeg_std_error(&s->error.pub);
  s->error.pub.error_exit = ErrorExit;
  s->error.pub.output_message = SilentMessage;
  if (setjmp(s->error.jump)) return nullptr;
  jpeg_create_decompress(&cinfo);
  SetSource(&cinfo, data, o.try_recover_truncated);
  jpeg_read_header(&cinfo, TRUE);

  const int channels = o.channels == 0 ? std::min(cinfo.num_components, 3) : o.channels;
  if (channels == 1) {
    cinfo.out_color_space = JCS_GRAYSCALE;
  } else if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    cinfo.out_color_space = JCS_CMYK;  // converted to RGB below, as TensorFlow does
  } else {
    cinfo.out_color_space = JCS_RGB;
  }
  cinfo.do_fancy_upsampling = o.fancy_upscaling ? TRUE : FALSE;
  cinfo.scale_num = 1;
  cinfo.scale_denom = o.ratio;
  cinfo.dct_method = o.accurate_dct ? JDCT_ISLOW : JDCT_IFAST;
  jpeg_calc_output_dimensions(&cinfo);
  const int64_t samples =
      static_cast<int64_t>(cinfo.output_height) * cinfo.output_width * cinfo.num_components;
  if (cinfo.output_width == 0 || cinfo.output_height == 0 || samples >= (int64_t{1} << 29)) {
    return nullptr;
  }
  jpeg_start_decompress(&cinfo);

  JDIMENSION width = cinfo.output_width;
  JDIMENSION height = cinfo.output_height;
  JDIMENSION skipped = 0;
  if (o.crop) {
    if (!IsCropWindowValid(o, cinfo.output_width, cinfo.output_height)) return nullptr;
    width = o.crop_width;
    height = o.crop_height;
    JDIMENSION crop_x = o.crop_x, crop_width = o.crop_width;
    jpeg_crop_scanline(&cinfo, &crop_x, &crop_width);  // widens to MCU boundaries
    skipped = jpeg_skip_scanlines(&cinfo, o.crop_y);
    if (skipped != static_cast<JDIMENSION>(o.crop_y)) return nullptr;
  }
  const int64_t row_bytes = static_cast<int64_t>(width) * channels;
  s->rows = static_cast<int>(height);
  s->stride = row_bytes;
  uint8_t* pixels = allocate(static_cast<int>(height), static_cast<int>(width), channels);
  if (pixels == nullptr) return nullptr;

  const bool cmyk = cinfo.out_color_space == JCS_CMYK;
  const bool realign = width != cinfo.output_width;
  const int64_t align_offset =
      static_cast<int64_t>(cinfo.output_width - width) * (cmyk ? 4 : channels);
  if (cmyk || realign) {
    s->scratch = static_cast<JSAMPLE*>(
        (*cinfo.mem->alloc_large)(reinterpret_cast<j_common_ptr>(&cinfo), JPOOL_IMAGE,
                                  static_cast<size_t>(cinfo.output_width) * (cmyk ? 4 : channels)));
  }
  s->rows_read = s->rows;
  const JDIMENSION last = skipped + height;
  JSAMPLE* out = pixels;
  bool complete = true;
  while (cinfo.output_scanline < last) {
    JSAMPLE* target = (cmyk || realign) ? s->scratch : out;
    if (jpeg_read_scanlines(&cinfo, &target, 1) == 0) {
      if (!o.try_recover_truncated) {
        s->rows_read = static_cast<int>(cinfo.output_scanline - skipped);
        complete = false;
      } else {
        // Missing rows repeat the row above; a missing first row is black.
        for (JDIMENSION line = cinfo.output_scanline; line < last; ++line) {
          // (TensorFlow tests the scanline, not the output row, and so reads before its buffer
          // when a crop window's first row is missing.)
          if (line == 0 || out == pixels) {
            std::memset(out, 0, row_bytes);
          } else {
            std::memmove(out, out - row_bytes, row_bytes);
          }
          out += row_bytes;
        }
        cinfo.output_scanline = last;
      }
      break;
    }
    if (cmyk) {
      const JSAMPLE* row = s->scratch + (realign ? align_offset : 0);
      for (JDIMENSION x = 0; x < width; ++x) {
        const int c = row[4 * x], m = row[4 * x + 1], y = row[4 * x + 2], k = row[4 * x + 3];
        if (cinfo.saw_Adobe_marker) {  // Adobe writes CMYK inverted
          out[3 * x] = static_cast<JSAMPLE>(k * c / 255);
          out[3 * x + 1] = static_cast<JSAMPLE>(k * m / 255);
          out[3 * x + 2] = static_cast<JSAMPLE>(k * y / 255);
        } else {
          out[3 * x] = static_cast<JSAMPLE>((255 - k) * (255 - c) / 255);
          out[3 * x + 1] = static_cast<JSAMPLE>((255 - k) * (255 - m) / 255);
          out[3 * x + 2] = static_cast<JSAMPLE>((255 - k) * (255 - y) / 255);
        }
      }
    } else if (realign) {
      std::memcpy(out, s->scratch + align_offset, row_bytes);
    }
    out += row_bytes;
  }
  if (o.crop && cinfo.output_scanline < cinfo.output_height) {
    jpeg_skip_scanlines(&cinfo, cinfo.output_height - o.crop_y - o.crop_height);
  }
  const int expected_components = channels == 1 ? 1 : (cmyk ? 4 : 3);
  if (complete && cinfo.output_components == expected_components) {
    jpeg_finish_decompress(&cinfo);
  } else {
    if (cinfo.output_components != expected_components) s->rows_read = 0;
    jpeg_abort(reinterpret_cast<j_common_ptr>(&cinfo));
  }
  return pixels;
}

}  // namespace

bool DecodeJpeg(absl::string_view data, const JpegDecodeOptions& options,
                const std::function<uint8_t*(int, int, int)>& allocate) {
  if (data.empty()) return false;
  if (options.ratio != 1 && options.ratio != 2 && options.ratio != 4 && options.ratio != 8) {
    return false;
  }
  if (options.channels != 0 && options.channels != 1 && options.channels != 3) return false;
  DecodeState state;
  uint8_t* pixels = DecodeLow(data, options, allocate, &state);
  jpeg_destroy_decompress(&state.cinfo);  // frees the scratch row (a pool allocation) too
  if (pixels == nullptr) return false;
  const float fraction = state.rows == 0 ? 1.0f : static_cast<float>(state.rows_read) / state.rows;
  if (fraction < std::min(1.0f, options.acceptable_fraction)) return false;
  if (state.rows_read != state.rows) {  // unread rows are black
    std::memset(pixels + state.rows_read * state.stride, 0,
                (state.rows - state.rows_read) * state.stride);
  }
  return true;
}

bool JpegHeaderShape(absl::string_view data, int* height, int* width, int* channels) {
  if (data.empty()) return false;
  DecodeState state;
  jpeg_decompress_struct& cinfo = state.cinfo;
  cinfo.err = jpeg_std_error(&state.error.pub);
  state.error.pub.error_exit = ErrorExit;
  state.error.pub.output_message = SilentMessage;
  if (setjmp(state.error.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  SetSource(&cinfo, data, false);
  jpeg_read_header(&cinfo, TRUE);
  // A header cut short leaves libjpeg suspended inside it, and sizing the output then is
  // libjpeg's "improper call" error, as in TensorFlow. Only the header is checked: tables the
  // scans need but lack fail when decoding, not here.
  jpeg_calc_output_dimensions(&cinfo);
  *height = static_cast<int>(cinfo.output_height);
  *width = static_cast<int>(cinfo.output_width);
  *channels = cinfo.output_components;
  jpeg_destroy_decompress(&cinfo);
  return true;
}

}  // namespace image
}  // namespace sluice
