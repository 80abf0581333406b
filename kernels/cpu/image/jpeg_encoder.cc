#include "kernels/cpu/image/jpeg_encoder.h"

#include <setjmp.h>

#include <cstdio>
#include <cstring>
#include <memory>

// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>

namespace sluice {
namespace image {
namespace {

constexpr char kXmpNamespace[] = "http://ns.adobe.com/xap/1.0/";
constexpr int kXmpNamespaceBytes = sizeof(kXmpNamespace);  // with its NUL, which XMP wants
// The largest APP marker body libjpeg writes.
constexpr int kMaxMarkerBytes = 65533;

// A destination that appends to a string through a fixed buffer.
struct StringDestination {
  jpeg_destination_mgr pub;
  std::string* out;
  JOCTET buffer[16384];
};

void InitDestination(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = sizeof(dest->buffer);
}

boolean EmptyOutputBuffer(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  dest->out->append(reinterpret_cast<const char*>(dest->buffer), sizeof(dest->buffer));
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = sizeof(dest->buffer);
  return TRUE;
}

void TermDestination(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  dest->out->append(reinterpret_cast<const char*>(dest->buffer),
                    sizeof(dest->buffer) - dest->pub.free_in_buffer);
}

struct ErrorManager {
  jpeg_error_mgr pub;
  jmp_buf jump;
};

void ErrorExit(j_common_ptr cinfo) {
  longjmp(reinterpret_cast<ErrorManager*>(cinfo->err)->jump, 1);
}

void SilentMessage(j_common_ptr) {}

// Everything libjpeg touches, kept outside the setjmp frame so that nothing with a destructor
// lives across a longjmp.
struct EncodeState {
  jpeg_compress_struct cinfo;
  ErrorManager error;
  StringDestination dest;
  JOCTET xmp[kMaxMarkerBytes];
};

bool Compress(EncodeState* s, const uint8_t* pixels, int width, int height,
              const JpegEncodeOptions& o) {
  jpeg_compress_struct* cinfo = &s->cinfo;
  cinfo->err = jpeg_std_error(&s->error.pub);
  s->error.pub.error_exit = ErrorExit;
  s->error.pub.output_message = SilentMessage;
  if (setjmp(s->error.jump)) {
    jpeg_destroy_compress(cinfo);
    return false;
  }
  jpeg_create_compress(cinfo);
  s->dest.pub.init_destination = InitDestination;
  s->dest.pub.empty_output_buffer = EmptyOutputBuffer;
  s->dest.pub.term_destination = TermDestination;
  cinfo->dest = &s->dest.pub;
  cinfo->image_width = static_cast<JDIMENSION>(width);
  cinfo->image_height = static_cast<JDIMENSION>(height);
  cinfo->input_components = o.channels;
  cinfo->in_color_space = o.channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(cinfo);
  if (o.optimize_size) cinfo->optimize_coding = TRUE;
  cinfo->density_unit = static_cast<UINT8>(o.density_unit);
  cinfo->X_density = static_cast<UINT16>(o.x_density);
  cinfo->Y_density = static_cast<UINT16>(o.y_density);
  jpeg_set_quality(cinfo, o.quality, TRUE);
  if (o.progressive) jpeg_simple_progression(cinfo);
  if (!o.chroma_downsampling) {
    for (int i = 0; i < cinfo->num_components; ++i) {
      cinfo->comp_info[i].h_samp_factor = 1;
      cinfo->comp_info[i].v_samp_factor = 1;
    }
  }
  jpeg_start_compress(cinfo, TRUE);
  if (!o.xmp_metadata.empty()) {
    // Too long for one marker: libjpeg's error in TensorFlow (JERR_BAD_LENGTH).
    const size_t length = kXmpNamespaceBytes + o.xmp_metadata.size();
    if (length > static_cast<size_t>(kMaxMarkerBytes)) {
      jpeg_destroy_compress(cinfo);
      return false;
    }
    std::memcpy(s->xmp, kXmpNamespace, kXmpNamespaceBytes);
    std::memcpy(s->xmp + kXmpNamespaceBytes, o.xmp_metadata.data(), o.xmp_metadata.size());
    jpeg_write_marker(cinfo, JPEG_APP0 + 1, s->xmp, static_cast<unsigned int>(length));
  }
  const size_t row_bytes = static_cast<size_t>(width) * o.channels;
  while (cinfo->next_scanline < cinfo->image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(pixels + cinfo->next_scanline * row_bytes);
    jpeg_write_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_compress(cinfo);
  jpeg_destroy_compress(cinfo);
  return true;
}

}  // namespace

bool EncodeJpeg(const uint8_t* pixels, int width, int height, const JpegEncodeOptions& options,
                std::string* jpeg) {
  jpeg->clear();
  if (width <= 0 || height <= 0) return false;
  if (static_cast<int64_t>(width) * height >= (int64_t{1} << 29)) return false;
  if (options.channels != 1 && options.channels != 3) return false;
  // On the heap: libjpeg's structs, the output buffer and room for the largest marker are
  // too large for a pool thread's stack.
  auto state = std::make_unique<EncodeState>();
  state->dest.out = jpeg;
  const bool ok = Compress(state.get(), pixels, width, height, options);
  if (!ok) jpeg->clear();
  return ok;
}

}  // namespace image
}  // namespace sluice
