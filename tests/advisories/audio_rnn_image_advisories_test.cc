// Advisories of the ops that gained CPU kernels in the seventh pass: Mfcc, AudioSpectrogram,
// LSTMBlockCell, BlockLSTMGradV2, GRUBlockCellGrad, DecodeGif, DecodeBmp, EncodePng,
// ConjugateTranspose, DataFormatVecPermute and DataFormatDimMap.
// Expectations are TensorFlow 2.21's, from check_with_tensorflow.py.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

// A tensor of `dims` with every element `value`.
Tensor Full(float value, const std::vector<int64_t>& dims) {
  Tensor t = Zeros(DT_FLOAT, dims);
  std::fill(t.base<float>(), t.base<float>() + t.NumElements(), value);
  return t;
}

TEST(Advisories, Tfsa2022_158_MfccHugeFilterbankChannelCount) {
  // A filterbank_channel_count of 2^31-1 sized the filterbank's vectors and crashed.
  AdvisoryCase c("Mfcc");
  c.Input(Values<float>({1.38f, 6.32f, 5.75f, 9.51f}, {1, 1, 4})).Input(Scalar<int32_t>(2));
  c.Attr("upper_frequency_limit", 5.0f)
      .Attr("lower_frequency_limit", 1.0f)
      .Attr("filterbank_channel_count", int64_t{2147483647})
      .Attr("dct_coefficient_count", int64_t{1});
  ExpectFailsBothWays(c, kInvalid,
                      "Mfcc initialization failed for channel count 4, sample rate 2 and "
                      "filterbank_channel_count 2147483647");
}

AdvisoryCase Spectrogram(int64_t window_size, int64_t stride) {
  AdvisoryCase c("AudioSpectrogram");
  c.Input(Values<float>({14.0f, 24.0f}, {2, 1}));
  c.Attr("window_size", window_size).Attr("stride", stride).Attr("magnitude_squared", false);
  return c;
}

TEST(Advisories, Tfsa2023_008_AudioSpectrogramZeroStride) {
  // A stride of 0 divided the output length by zero in the shape function. The advisory's
  // window of 1 is refused first (both ways, at graph construction in TensorFlow); a window of
  // 2 reaches the stride.
  ExpectFailsBothWays(Spectrogram(1, 0), kInvalid, "window size must be > 1, got 1");
  ExpectFailsBothWays(Spectrogram(2, 0), kInvalid, "stride must be strictly positive, got 0");
}

TEST(Advisories, Tfsa2022_069_LSTMBlockCellScalarWci) {
  // A scalar wci and a matrix wco were read as vectors: the ranks were not checked.
  AdvisoryCase c("LSTMBlockCell");
  c.Input(Full(0.837607f, {28, 29}))
      .Input(Zeros(DT_FLOAT, {28, 17}))
      .Input(Full(0.592631638f, {28, 17}))
      .Input(Full(0.887386262f, {46, 68}))
      .Input(Zeros(DT_FLOAT, {}))
      .Input(Zeros(DT_FLOAT, {17}))
      .Input(Full(0.592631638f, {28, 17}))
      .Input(Full(0.75259006f, {68}));
  c.Attr("T", DT_FLOAT)
      .Attr("forget_bias", 1.0f)
      .Attr("cell_clip", 0.0f)
      .Attr("use_peephole", false);
  ExpectFailsBothWays(c, kInvalid, "wci_tensor must be rank 1 but is rank 0.");
}

TEST(Advisories, Tfsa2022_096_BlockLSTMGradV2Rank3Everything) {
  // Every tensor input of rank 3 (w, cs_prev, h_prev must be matrices, wci..b vectors)
  // segfaulted.
  AdvisoryCase c("BlockLSTMGradV2");
  c.Input(Scalar<int64_t>(1));
  for (int i = 0; i < 17; ++i) c.Input(Full(0.504355371f, {1, 1, 1}));
  c.Attr("T", DT_FLOAT).Attr("use_peephole", false);
  // With Consts the shape function refuses the first (cs_prev); fed, the kernel names it.
  ExpectFailsBothWays(c, kInvalid, "must be rank 2 but is rank 3");
  EXPECT_THAT(std::string(c.Run(Feed::kConst).message()),
              ::testing::HasSubstr("Shape must be rank 2 but is rank 3"));
  EXPECT_THAT(std::string(c.Run(Feed::kPlaceholder).message()),
              ::testing::HasSubstr("cs_prev must be rank 2 but is rank 3"));
}

TEST(Advisories, Tfsa2023_020_GRUBlockCellGradScalarBc) {
  // A scalar b_c (the advisory's 0x41414141) was read as a vector of the cell size.
  AdvisoryCase c("GRUBlockCellGrad");
  c.Input(Values<float>({21.1f, 156.2f, 83.3f, 115.4f}, {2, 2}))
      .Input(Values<float>({136.5f, 136.6f}, {2, 1}))
      .Input(Values<float>({26.7f, 0.8f, 47.9f, 26.1f, 26.2f, 26.3f}, {3, 2}))
      .Input(Values<float>({0.4f, 31.5f, 0.6f}, {3, 1}))
      .Input(Values<float>({0.1f, 0.2f}))
      .Input(Scalar<float>(static_cast<float>(0x41414141)))
      .Input(Values<float>({0.3f, 0.4f}, {2, 1}))
      .Input(Values<float>({5.7f, 5.8f}, {2, 1}))
      .Input(Values<float>({52.9f, 53.1f}, {2, 1}))
      .Input(Values<float>({172.2f, 188.3f}, {2, 1}));
  c.Attr("T", DT_FLOAT);
  ExpectFailsBothWays(c, kInvalid, "Rank of b_c must be 1, got 0");
}

// A 1x1 GIF89a with neither a global nor a local color map (both descriptors' flags 0), LZW
// data of minimum code size 2 (clear, index 0, end) and the trailer.
std::string GifWithoutColorMap() {
  static const char kGif[] =
      "GIF89a\x01\x00\x01\x00\x00\x00\x00"
      ",\x00\x00\x00\x00\x01\x00\x01\x00\x00"
      "\x02\x02\x44\x01\x00;";
  return std::string(kGif, sizeof(kGif) - 1);
}

AdvisoryCase DecodeGif(std::string contents) {
  AdvisoryCase c("DecodeGif");
  c.Input(Scalar<std::string>(std::move(contents)));
  return c;
}

TEST(Advisories, Tfsa2019_001_DecodeGifNoColorMap) {
  // A frame with no color map, local or global, was read through a null color map.
  ExpectFailsBothWays(DecodeGif(GifWithoutColorMap()), kInvalid,
                      "Invalid GIF data (size 29), missing color map for frame 0");
}

TEST(Advisories, Tfsa2018_002_DecodeGifInvalidFiles) {
  // giflib's error string for some invalid GIFs was null and went into strcat: a file of the
  // signature alone, one cut after its screen descriptor, and one with no image.
  const std::string screen = GifWithoutColorMap().substr(0, 13);
  ExpectFailsBothWays(
      DecodeGif("GIF89a"), kInvalid,
      "Invalid GIF data (size 6), failed to open gif file: No screen descriptor detected");
  ExpectFailsBothWays(
      DecodeGif(screen), kInvalid,
      "Invalid GIF data (size 13), failed to slurp gif file: Failed to read from given file");
  ExpectFailsBothWays(
      DecodeGif(screen + ";"), kInvalid,
      "Invalid GIF data (size 14), failed to slurp gif file: No Image Descriptor detected");
}

// A GIF89a of a width x height logical screen with a global color map of two colors, index 0
// being (12, 34, 56), and one frame per entry of `frames` ({left, top, width, height}), each
// claiming its size but holding one pixel of index 0 (LZW: clear, 0, end).
std::string GifOfFrames(int width, int height, const std::vector<std::vector<int>>& frames) {
  std::string out = "GIF89a";
  for (int v : {width, height}) {
    out.push_back(static_cast<char>(v & 0xff));
    out.push_back(static_cast<char>(v >> 8));
  }
  out += std::string("\x80\x00\x00\x0c\x22\x38\xff\xff\xff", 9);
  for (const std::vector<int>& f : frames) {
    out.push_back(',');
    for (int v : f) {
      out.push_back(static_cast<char>(v & 0xff));
      out.push_back(static_cast<char>(v >> 8));
    }
    out += std::string("\x00\x02\x02\x44\x01\x00", 6);
  }
  return out + ";";
}

TEST(Advisories, Tfsa2023_004_DecodeGifHugeScreenManyFrames) {
  // Frame and row offsets overflowed int32 for outputs of 2^31 bytes or more. That output
  // itself is not built here (gigabytes); what a crafted file can ask for cheaply is: the
  // largest logical screen with many frames (the canvas is the largest frame's size, not the
  // screen's), a frame placed past a 1x1 canvas (clipped away, black), and frames of 2^31
  // pixels or more (refused before any allocation; giflib's error has no name).
  struct Decoded {
    std::string gif;
    int64_t frames;
    std::vector<uint8_t> pixel;  // every frame's
  };
  const Decoded decoded[] = {
      {GifOfFrames(65535, 65535, std::vector<std::vector<int>>(1000, {0, 0, 1, 1})),
       1000,
       {12, 34, 56}},
      {GifOfFrames(65535, 65535, {{65534, 65534, 1, 1}}), 1, {0, 0, 0}},
  };
  for (const Decoded& d : decoded) {
    SCOPED_TRACE(d.frames);
    for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
      std::vector<Tensor> out;
      ASSERT_TRUE(DecodeGif(d.gif).Run(feed, &out).ok()) << DecodeGif(d.gif).Run(feed);
      EXPECT_EQ(out[0].shape(), TensorShape({d.frames, 1, 1, 3}));
      const std::vector<uint8_t> values = Elements<uint8_t>(out[0]);
      for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(values[i], d.pixel[i % 3]) << i;
    }
  }
  for (int side : {46341, 65535}) {
    SCOPED_TRACE(side);
    ExpectFailsBothWays(DecodeGif(GifOfFrames(1, 1, {{0, 0, side, side}})), kInvalid,
                        "Invalid GIF data (size 35), failed to slurp gif file: Unknown error");
  }
}

// Appends `value` to `out` as `bytes` little-endian bytes.
void PutLe(std::string* out, int64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// A 24-bit BMP with a 40-byte info header announcing width x height and pixel data at
// `offset`, followed by the zero pixel bytes of |width| x |height| (none when that is huge).
std::string Bmp(int32_t width, int32_t height, int32_t offset = 54) {
  const int64_t rows = std::abs(int64_t{height}) < 1000 ? std::abs(int64_t{height}) : 0;
  const int64_t pixel_bytes = (std::abs(int64_t{width}) * 3 + 3) / 4 * 4 * rows;
  std::string out = "BM";
  PutLe(&out, 54 + pixel_bytes, 4);
  PutLe(&out, 0, 4);
  PutLe(&out, offset, 4);
  PutLe(&out, 40, 4);
  PutLe(&out, width, 4);
  PutLe(&out, height, 4);
  PutLe(&out, 1, 2);
  PutLe(&out, 24, 2);
  PutLe(&out, 0, 4);
  PutLe(&out, pixel_bytes, 4);
  out.append(16, '\0');  // resolutions and palette counts
  out.append(pixel_bytes, '\0');
  return out;
}

AdvisoryCase DecodeBmp(std::string contents) {
  AdvisoryCase c("DecodeBmp");
  c.Input(Scalar<std::string>(std::move(contents)));
  c.Attr("channels", int64_t{0});
  return c;
}

TEST(Advisories, Tfsa2018_001_DecodeBmpBadHeaders) {
  // The BMP header's sizes and signed fields were trusted: a file cut inside the header, a
  // negative width, a pixel offset past the end and a negative one, a header with no pixels
  // after it, and a height of -(2^31-1).
  const std::string bmp = Bmp(2, 2);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {bmp.substr(0, 20),
       "Incomplete bmp content, requires at least 32 bytes to find the header size, width, "
       "height, and bpp, got 20 bytes"},
      {Bmp(-2, 2), "Width must be positive"},
      {Bmp(2, 2, 0x7fffffff),
       "Input size should match (header_size + row_size * abs_height) but they differ by "
       "-2147483593"},
      {Bmp(2, 2, -100), "header size must be nonnegative"},
      {bmp.substr(0, 54),
       "Input size should match (header_size + row_size * abs_height) but they differ by -16"},
      {Bmp(2, -0x7fffffff), "Total possible pixel bytes must be less than 2^30"},
  };
  for (const auto& [contents, message] : cases) {
    SCOPED_TRACE(message);
    ExpectFailsBothWays(DecodeBmp(contents), kInvalid, message);
  }
}

TEST(Advisories, Tfsa2021_020_EncodePngEmpty) {
  // An empty [0,0,3] image passed a null pixel pointer to the encoder's CHECK_NOTNULL. Fed,
  // TensorFlow 2.21 refuses it (INTERNAL); with a Const it still aborts on that CHECK. Sluice
  // refuses it both ways.
  AdvisoryCase c("EncodePng");
  c.Input(Zeros(DT_UINT8, {0, 0, 3}));
  c.Attr("T", DT_UINT8);
  ExpectFailsBothWays(c, absl::StatusCode::kInternal,
                      "PNG encoding failed at the following flattened batch indices: 0");
}

TEST(Advisories, Tfsa2021_105_ConjugateTransposeComplexScalar) {
  // tf.transpose(conjugate=True) of a complex scalar crashed; it is the conjugate.
  AdvisoryCase c("ConjugateTranspose");
  c.Input(Scalar<std::complex<float>>({1.0f, 2.0f})).Input(Values<int32_t>({}));
  c.Attr("T", DT_COMPLEX64).Attr("Tperm", DT_INT32);
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({}));
    EXPECT_EQ(*out[0].base<std::complex<float>>(), std::complex<float>(1.0f, -2.0f));
  }
}

AdvisoryCase DataFormatOp(const char* op, Tensor x, const std::string& src,
                          const std::string& dst) {
  AdvisoryCase c(op);
  c.Input(std::move(x));
  c.Attr("T", DT_INT32).Attr("src_format", src).Attr("dst_format", dst);
  return c;
}

TEST(Advisories, Tfsa2020_030_DataFormatVecPermuteNotAPermutation) {
  // Formats that are not a permutation of each other (or of a known size) indexed the
  // permutation out of bounds; the advisory's graphs.
  struct Case {
    std::vector<int32_t> x;
    std::vector<int64_t> dims;
    const char* src;
    const char* dst;
    const char* message;
  };
  const char* kNotPermutation = "Destination and source format must determine a permutation, got ";
  const std::vector<Case> cases = {
      {{1, 4}, {2}, "1234", "1234", "Format specifier must contain H and W for 2D case"},
      {{1, 4}, {2}, "HHHH", "WWWW", kNotPermutation},
      {{1, 4}, {2}, "H", "W", "Source format must be of length 4 or 5, received src_format = H"},
      {{1, 2, 3, 4}, {4}, "1234", "1253", kNotPermutation},
      {{1, 2, 3, 4}, {4}, "1234", "1223", kNotPermutation},
      {{1, 2, 3, 4}, {4}, "1224", "1423", kNotPermutation},
      {{1, 2, 3, 4},
       {4},
       "1234",
       "432",
       "Destination format must be of length 4 or 5, received dst_format = 432"},
      {{1, 2, 3, 4},
       {4},
       "12345678",
       "87654321",
       "Source format must be of length 4 or 5, received src_format = 12345678"},
      {{1, 5, 2, 6, 3, 7, 4, 8},
       {4, 2},
       "12345678",
       "87654321",
       "Source format must be of length 4 or 5, received src_format = 12345678"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(std::string(k.src) + " " + k.dst);
    std::string message = k.message;
    if (message == kNotPermutation) message += std::string(k.src) + " and " + k.dst;
    ExpectFailsBothWays(
        DataFormatOp("DataFormatVecPermute", Values<int32_t>(k.x, k.dims), k.src, k.dst), kInvalid,
        message);
  }
}

TEST(Advisories, Tfsa2020_030_DataFormatDimMapNotAPermutation) {
  // The same for DataFormatDimMap: "1234" to "8765" is refused; the same x from NHWC to NCHW
  // is mapped (entries wrap modulo 4).
  const Tensor x = Values<int32_t>({1, 5, 2, 6, 3, 7, 4, 8}, {4, 2});
  ExpectFailsBothWays(DataFormatOp("DataFormatDimMap", x, "1234", "8765"), kInvalid,
                      "Destination and source format must determine a permutation, got 1234 and "
                      "8765");
  const AdvisoryCase valid = DataFormatOp("DataFormatDimMap", x, "NHWC", "NCHW");
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(valid.Run(feed, &out).ok()) << valid.Run(feed);
    EXPECT_EQ(Elements<int32_t>(out[0]), (std::vector<int32_t>{2, 2, 3, 3, 1, 1, 0, 0}));
  }
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
