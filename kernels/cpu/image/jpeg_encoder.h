// Encoding JPEG through Debian's libjpeg-turbo with TensorFlow's settings (its jpeg::Compress):
// libjpeg's defaults and quality tables, optional Huffman optimisation, progressive scans,
// 4:2:0 chroma unless turned off, the JFIF density, and XMP metadata in an APP1 marker.
// libjpeg-turbo's forward DCT and Huffman coding are deterministic integer code, so the bytes
// are TensorFlow's where its libjpeg-turbo computes them the same way.
#ifndef SLUICE_KERNELS_CPU_IMAGE_JPEG_ENCODER_H_
#define SLUICE_KERNELS_CPU_IMAGE_JPEG_ENCODER_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace sluice {
namespace image {

struct JpegEncodeOptions {
  int channels = 3;  // 1 (gray) or 3 (RGB)
  int quality = 95;  // 0..100
  bool progressive = false;
  bool optimize_size = false;
  bool chroma_downsampling = true;
  int density_unit = 1;  // 1: dots per inch, 2: per cm
  int x_density = 300;   // stored in 16 bits, as libjpeg does
  int y_density = 300;
  absl::string_view xmp_metadata;  // embedded when not empty
};

// Encodes height rows of width pixels (channels bytes each, rows packed) into `jpeg`,
// replacing its contents. False (and `jpeg` empty) for an empty image, one of 2^29 pixels or
// more, or an error libjpeg reports (XMP metadata too long for a marker).
bool EncodeJpeg(const uint8_t* pixels, int width, int height, const JpegEncodeOptions& options,
                std::string* jpeg);

}  // namespace image
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_JPEG_ENCODER_H_
