// What the recorded cases cannot show for the image encoders and the BMP and GIF decoders:
// round trips that hold whatever bytes the libraries write (PNG exactly, JPEG within a
// tolerance), many images encoded in parallel, a top-down BMP widened to uint16 and float
// (where TensorFlow aborts), and malformed data of every length, which must fail cleanly.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

// A 4x3 GIF of two frames: all four palette colors, then a 2x2 frame at (1, 1) whose index 0
// is transparent.
const char kGif[] =
    "\x47\x49\x46\x38\x39\x61\x04\x00\x03\x00\xf1\x00\x00\xff\x00\x00\x00\xff\x00\x00\x00\xff"
    "\xfa\xc8\x64\x2c\x00\x00\x00\x00\x04\x00\x03\x00\x00\x02\x08\x44\xa8\x71\x62\xc0\x84\x12"
    "\x0b\x00\x21\xf9\x04\x01\x0a\x00\x00\x00\x2c\x01\x00\x01\x00\x02\x00\x02\x00\x00\x02\x03"
    "\x1c\x18\xb1\x00\x3b";

// A BMP of `height` rows (top-down when negative) of `width` pixels of `channels` bytes, each
// byte of pixel (y, x) (in file order) being 10 * y + x + 50 * c.
std::string Bmp(int width, int height, int channels) {
  const int rows = std::abs(height);
  const int row_bytes = (width * channels + 3) / 4 * 4;
  std::string data(54 + row_bytes * rows, '\0');
  auto put32 = [&](int at, uint32_t v) {
    for (int i = 0; i < 4; ++i) data[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  data[0] = 'B';
  data[1] = 'M';
  put32(2, data.size());
  put32(10, 54);
  put32(14, 40);
  put32(18, width);
  put32(22, static_cast<uint32_t>(height));
  data[26] = 1;
  data[28] = static_cast<char>(8 * channels);
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c) {
        data[54 + y * row_bytes + x * channels + c] = static_cast<char>(10 * y + x + 50 * c);
      }
    }
  }
  return data;
}

Tensor Scalar(const std::string& s) {
  Tensor t(DT_STRING, TensorShape({}));
  t.scalar<std::string>()() = s;
  return t;
}

class ImageCodecOpsTest : public KernelTest {
 protected:
  absl::Status Decode(const std::string& op, const std::string& data, DataType dtype = DT_UINT8,
                      int channels = 0) {
    NodeDefBuilder b("d", op);
    b.Input("contents");
    if (op == "DecodeImage") b.Attr("dtype", dtype);
    if (op != "DecodeGif") b.Attr("channels", channels);
    EXPECT_TRUE(InitOp(b.Build()).ok());
    AddInput(Scalar(data));
    return RunOpKernel();
  }

  template <typename T>
  std::vector<std::string> EncodePng(const TensorShape& shape, const std::vector<T>& pixels,
                                     int compression) {
    EXPECT_TRUE(InitOp(NodeDefBuilder("e", "EncodePng")
                           .Input("image")
                           .Attr("T", DataTypeToEnum<T>::value)
                           .Attr("compression", compression)
                           .Build())
                    .ok());
    AddInputFromArray<T>(shape, pixels);
    EXPECT_TRUE(RunOpKernel().ok());
    const Tensor& out = *GetOutput(0);
    std::vector<std::string> pngs;
    for (int64_t i = 0; i < out.NumElements(); ++i) pngs.push_back(out.flat<std::string>()(i));
    return pngs;
  }
};

template <typename T>
std::vector<T> Pattern(int64_t n, uint32_t seed) {
  std::vector<T> v(n);
  uint32_t x = seed;
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<T>(x >> 13);
  }
  return v;
}

TEST_F(ImageCodecOpsTest, PngRoundTripsExactly) {
  for (int channels = 1; channels <= 4; ++channels) {
    for (int compression : {-1, 0, 9}) {
      const std::vector<uint8_t> narrow = Pattern<uint8_t>(7 * 9 * channels, channels);
      const std::string png8 = EncodePng<uint8_t>({7, 9, channels}, narrow, compression)[0];
      ASSERT_TRUE(Decode("DecodePng", png8).ok());
      EXPECT_EQ(Values<uint8_t>(*GetOutput(0)), narrow);
      EXPECT_EQ(GetOutput(0)->shape(), TensorShape({7, 9, channels}));

      const std::vector<uint16_t> wide = Pattern<uint16_t>(5 * 3 * channels, 7 * channels);
      const std::string png16 = EncodePng<uint16_t>({5, 3, channels}, wide, compression)[0];
      ASSERT_TRUE(Decode("DecodeImage", png16, DT_UINT16).ok());
      EXPECT_EQ(Values<uint16_t>(*GetOutput(0)), wide);
    }
  }
}

TEST_F(ImageCodecOpsTest, PngBatchEncodesEveryImageInParallel) {
  // Enough work for ParallelFor to split: 48 images of 64x64 RGB.
  const int64_t image = 64 * 64 * 3;
  const std::vector<uint8_t> pixels = Pattern<uint8_t>(48 * image, 3);
  const std::vector<std::string> pngs = EncodePng<uint8_t>({6, 8, 64, 64, 3}, pixels, 1);
  ASSERT_EQ(pngs.size(), 48u);
  for (int i = 0; i < 48; ++i) {
    ASSERT_TRUE(Decode("DecodePng", pngs[i]).ok());
    EXPECT_EQ(Values<uint8_t>(*GetOutput(0)),
              std::vector<uint8_t>(pixels.begin() + i * image, pixels.begin() + (i + 1) * image))
        << "image " << i;
  }
}

TEST_F(ImageCodecOpsTest, JpegRoundTripsWithinATolerance) {
  // A smooth RGB image at quality 95 with 4:4:4 chroma: TensorFlow's own encode and decode of
  // it give every sample back within 5.
  const int h = 24, w = 32;
  std::vector<uint8_t> pixels(h * w * 3);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      pixels[(y * w + x) * 3 + 0] = static_cast<uint8_t>(4 * x);
      pixels[(y * w + x) * 3 + 1] = static_cast<uint8_t>(5 * y);
      pixels[(y * w + x) * 3 + 2] = static_cast<uint8_t>(2 * (x + y));
    }
  }
  ASSERT_TRUE(InitOp(NodeDefBuilder("e", "EncodeJpeg")
                         .Input("image")
                         .Attr("chroma_downsampling", false)
                         .Build())
                  .ok());
  AddInputFromArray<uint8_t>(TensorShape({h, w, 3}), pixels);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::string jpeg = GetOutput(0)->scalar<std::string>()();
  ASSERT_TRUE(Decode("DecodeJpeg", jpeg).ok());
  const std::vector<uint8_t> decoded = Values<uint8_t>(*GetOutput(0));
  ASSERT_EQ(decoded.size(), pixels.size());
  int worst = 0;
  for (size_t i = 0; i < pixels.size(); ++i) {
    worst = std::max(worst, std::abs(static_cast<int>(decoded[i]) - pixels[i]));
  }
  EXPECT_LE(worst, 5);
}

TEST_F(ImageCodecOpsTest, TopDownBmpWidensLikeBottomUp) {
  for (int channels : {1, 3, 4}) {
    const std::string top_down = Bmp(5, -3, channels);
    ASSERT_TRUE(Decode("DecodeImage", top_down, DT_UINT8, 4).ok());
    const std::vector<uint8_t> narrow = Values<uint8_t>(*GetOutput(0));
    ASSERT_EQ(narrow.size(), 5u * 3 * 4);
    // Row 0 of a top-down file is the top row; its first pixel holds 0, 50, 100 (BGR).
    if (channels >= 3) {
      EXPECT_EQ(narrow[0], 100);
      EXPECT_EQ(narrow[2], 0);
    }
    ASSERT_TRUE(Decode("DecodeImage", top_down, DT_UINT16, 4).ok());
    const std::vector<uint16_t> wide = Values<uint16_t>(*GetOutput(0));
    ASSERT_TRUE(Decode("DecodeImage", top_down, DT_FLOAT, 4).ok());
    const std::vector<float> real = Values<float>(*GetOutput(0));
    for (size_t i = 0; i < narrow.size(); ++i) {
      EXPECT_EQ(wide[i], narrow[i] * 256);
      EXPECT_EQ(real[i], static_cast<float>(narrow[i]) * static_cast<float>(1.0 / 255));
    }
  }
}

TEST_F(ImageCodecOpsTest, GifFramesAreDrawnOverThePreviousOne) {
  const std::string gif(kGif, sizeof(kGif) - 1);
  ASSERT_TRUE(Decode("DecodeGif", gif).ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({2, 3, 4, 3}));
  const std::vector<uint8_t> v = Values<uint8_t>(*GetOutput(0));
  const uint8_t palette[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {250, 200, 100}};
  const int first[3][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 1, 2, 2}};
  int second[3][4];
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) second[y][x] = first[y][x];
  }
  second[1][1] = 3;  // (1, 2) keeps frame 0's pixel: index 0 is transparent
  second[2][1] = 1;
  second[2][2] = 2;
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) {
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(v[(y * 4 + x) * 3 + c], palette[first[y][x]][c]) << y << "," << x;
        EXPECT_EQ(v[36 + (y * 4 + x) * 3 + c], palette[second[y][x]][c]) << y << "," << x;
      }
    }
  }
  EXPECT_EQ(v[36 + (1 * 4 + 1) * 3], 250);
}

TEST_F(ImageCodecOpsTest, GifCutInsideItsPixelsKeepsTheFrameWithIndexZeroForTheRest) {
  // Cut inside the first frame's LZW data: giflib's read fails rather than its data ending
  // early, so TensorFlow keeps the frame; the pixels never read are color 0 (red), where
  // TensorFlow's are whatever its memory held.
  const std::string gif(kGif, 40);
  ASSERT_TRUE(Decode("DecodeGif", gif).ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({1, 3, 4, 3}));
  const std::vector<uint8_t> v = Values<uint8_t>(*GetOutput(0));
  EXPECT_EQ(v[33], 255);
  EXPECT_EQ(v[34], 0);
  EXPECT_EQ(v[35], 0);
}

TEST_F(ImageCodecOpsTest, TruncatedOrCorruptGifNeverCrashes) {
  const std::string gif(kGif, sizeof(kGif) - 1);
  for (size_t n = 1; n < gif.size(); ++n) {
    const absl::Status status = Decode("DecodeGif", gif.substr(0, n));
    EXPECT_TRUE(status.ok() || status.code() == absl::StatusCode::kInvalidArgument) << n;
  }
  for (size_t i = 4; i < gif.size(); ++i) {
    for (int flip : {0x01, 0x80, 0xff}) {
      std::string bad = gif;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      const absl::Status status = Decode("DecodeImage", bad, DT_FLOAT);
      EXPECT_TRUE(status.ok() || status.code() == absl::StatusCode::kInvalidArgument) << i;
    }
  }
}

TEST_F(ImageCodecOpsTest, CorruptBmpNeverCrashes) {
  for (int channels : {1, 3, 4}) {
    const std::string bmp = Bmp(3, 2, channels);
    ASSERT_TRUE(Decode("DecodeBmp", bmp).ok());
    for (size_t n = 1; n < bmp.size(); ++n) {
      EXPECT_EQ(Decode("DecodeBmp", bmp.substr(0, n)).code(), absl::StatusCode::kInvalidArgument);
    }
    for (size_t i = 2; i < 54; ++i) {
      for (int flip : {0x01, 0x80, 0xff}) {
        std::string bad = bmp;
        bad[i] = static_cast<char>(bad[i] ^ flip);
        const absl::Status status = Decode("DecodeImage", bad, DT_UINT16, 4);
        EXPECT_TRUE(status.ok() || status.code() == absl::StatusCode::kInvalidArgument) << i;
      }
    }
  }
}

TEST_F(ImageCodecOpsTest, WebPIsStillUnimplemented) {
  const std::string webp =
      "RIFF" + std::string("\x10\0\0\0", 4) + "WEBPVP8 " + std::string(8, '\0');
  EXPECT_EQ(Decode("DecodeGif", webp).code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace test
}  // namespace sluice
