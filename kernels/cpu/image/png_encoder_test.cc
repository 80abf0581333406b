// The PNG encoder's bytes against TensorFlow's (ImageSummary's and EncodePng's settings) and
// its refusals; EncodePng's and ImageSummary's fixtures check it through the kernels.
#include "kernels/cpu/image/png_encoder.h"

#include <png.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace image {
namespace {

// Decodes `png` with libpng's simplified reader into 8-bit pixels of `format`.
PngEncodeOptions Options(int width, int height, int channels) {
  PngEncodeOptions options;
  options.width = width;
  options.height = height;
  options.row_bytes = int64_t{width} * channels;
  options.channels = channels;
  return options;
}

std::vector<uint8_t> Decode(const std::string& png, png_uint_32 format, int* width, int* height) {
  png_image image = {};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, png.data(), png.size())) {
    ADD_FAILURE() << "not a PNG: " << image.message;
    return {};
  }
  image.format = format;
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) {
    ADD_FAILURE() << "undecodable PNG: " << image.message;
    return {};
  }
  *width = static_cast<int>(image.width);
  *height = static_cast<int>(image.height);
  return pixels;
}

TEST(PngEncoderTest, RoundTripsEveryChannelCount) {
  const png_uint_32 formats[] = {PNG_FORMAT_GRAY, PNG_FORMAT_GA, PNG_FORMAT_RGB, PNG_FORMAT_RGBA};
  for (int channels = 1; channels <= 4; ++channels) {
    SCOPED_TRACE(channels);
    const int width = 7, height = 5;
    std::vector<uint8_t> pixels(width * height * channels);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<uint8_t>(i * 37 + 11);
    std::string png;
    ASSERT_TRUE(EncodePng(pixels.data(), Options(width, height, channels), &png));
    EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n");
    int decoded_width = 0, decoded_height = 0;
    EXPECT_EQ(Decode(png, formats[channels - 1], &decoded_width, &decoded_height), pixels);
    EXPECT_EQ(decoded_width, width);
    EXPECT_EQ(decoded_height, height);
  }
}

TEST(PngEncoderTest, BytesAreTensorFlows) {
  // A 3x2 RGB image of 0, 15, ..., 255, and the PNG TensorFlow 2.21's ImageSummary wrote for it
  // (the float image [0, 1, ..., 17] scaled by 255 / 17).
  std::vector<uint8_t> pixels(18);
  for (int i = 0; i < 18; ++i) pixels[i] = static_cast<uint8_t>(15 * i);
  static constexpr char kTensorFlow[] =
      "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00\x00\x02\x08\x02\x00\x00\x00"
      "\x12\x16\xf1M\x00\x00\x00\x1dIDAT\x08\x99"
      "cd\xe0\x97\xd3\xd5\xd5\xd5\xd5\xd5"
      "eh\x9f\xb6t\xcb\xe1K\x0f?\xfc\x07\x00"
      "04\x08\x18"
      "e\x8a\xa3&\x00\x00\x00\x00IEND\xae"
      "B`\x82";
  const std::string tensorflow(kTensorFlow, sizeof(kTensorFlow) - 1);
  std::string png;
  ASSERT_TRUE(EncodePng(pixels.data(), Options(3, 2, 3), &png));
  EXPECT_EQ(png, tensorflow);
}

TEST(PngEncoderTest, RefusesWhatPngCannotHold) {
  const uint8_t pixel[8] = {0};
  std::string png = "kept?";
  EXPECT_FALSE(EncodePng(pixel, Options(1, 1, 5), &png));
  EXPECT_TRUE(png.empty());
  EXPECT_FALSE(EncodePng(pixel, Options(0, 1, 1), &png));
  EXPECT_FALSE(EncodePng(pixel, Options(1, -1, 1), &png));
  PngEncodeOptions twelve_bits = Options(1, 1, 1);
  twelve_bits.bits = 12;
  EXPECT_FALSE(EncodePng(pixel, twelve_bits, &png));
}

TEST(PngEncoderTest, LibpngErrorsAreFailures) {
  // libpng refuses rows wider than its default limit of 1,000,000 pixels; the error comes back
  // as false, not a crash or an abort.
  std::vector<uint8_t> row(1000001);
  std::string png;
  EXPECT_FALSE(EncodePng(row.data(), Options(1000001, 1, 1), &png));
  EXPECT_TRUE(png.empty());
}

}  // namespace
}  // namespace image
}  // namespace sluice
