// The audio kernels beyond the fixtures (tests/kernels/fixtures/audio.pbtxt): the attrs that
// TensorFlow's shape functions refuse before its kernels see them (so TensorFlow records no
// kernel error), EncodeWav's channel limit, a NaN lower frequency limit (TensorFlow reads
// before the frame), and a spectrogram large enough for the parallel split, checked against a
// plain DFT in long double.
#include <cmath>
#include <cstdint>
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

// A mono 16-bit WAV file of `samples`.
std::string MonoWav(const std::vector<int16_t>& samples) {
  auto u32 = [](uint32_t v) {
    return std::string{static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF),
                       static_cast<char>((v >> 16) & 0xFF), static_cast<char>(v >> 24)};
  };
  auto u16 = [](uint32_t v) {
    return std::string{static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF)};
  };
  std::string data;
  for (int16_t s : samples) data += u16(static_cast<uint16_t>(s));
  const std::string body = "WAVEfmt " + u32(16) + u16(1) + u16(1) + u32(8000) + u32(16000) +
                           u16(2) + u16(16) + "data" + u32(data.size()) + data;
  return "RIFF" + u32(body.size()) + body;
}

class AudioKernelsTest : public KernelTest {};

TEST_F(AudioKernelsTest, SpectrogramRefusesShortWindowsAndStrides) {
  auto init = [&](int window_size, int stride) {
    return InitOp(NodeDefBuilder("n", "AudioSpectrogram")
                      .Input("input")
                      .Attr("window_size", window_size)
                      .Attr("stride", stride)
                      .Attr("magnitude_squared", false)
                      .Build());
  };
  absl::Status status = init(1, 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(status.message()).find("window_size must be > 1, got 1"), std::string::npos)
      << status;
  status = init(-4, 1);
  EXPECT_NE(std::string(status.message()).find("window_size must be > 1, got -4"),
            std::string::npos)
      << status;
  status = init(8, 0);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(status.message()).find("stride must be > 0, got 0"), std::string::npos)
      << status;
}

TEST_F(AudioKernelsTest, DecodeWavRefusesDesiredCountsBelowMinusOne) {
  // TensorFlow's kernel checks them after reading the file, so a bad file is reported first.
  auto run = [&](int channels, int samples, const std::string& wav) {
    EXPECT_TRUE(InitOp(NodeDefBuilder("n", "DecodeWav")
                           .Input("contents")
                           .Attr("desired_channels", channels)
                           .Attr("desired_samples", samples)
                           .Build())
                    .ok());
    AddInputFromArray<std::string>(TensorShape({}), {wav});
    return RunOpKernel();
  };
  absl::Status status = run(-2, -1, MonoWav({1, 2}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(status.message()).find("desired_channels must be >= -1, got -2"),
            std::string::npos)
      << status;
  status = run(-1, -3, MonoWav({1, 2}));
  EXPECT_NE(std::string(status.message()).find("desired_samples must be >= -1, got -3"),
            std::string::npos)
      << status;
  status = run(-2, -1, "RIFF");
  EXPECT_NE(std::string(status.message()).find("Data too short"), std::string::npos) << status;
}

TEST_F(AudioKernelsTest, EncodeWavRefusesTwoToTheSixteenChannels) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "EncodeWav").Input("audio").Input("rate").Build()).ok());
  AddInputFromArray<float>(TensorShape({1, 65536}), std::vector<float>(65536));
  AddInputFromArray<int32_t>(TensorShape({}), {16000});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(status.message()).find("num_channels must be in (0, 2^16), got: 65536"),
            std::string::npos)
      << status;
}

TEST_F(AudioKernelsTest, MfccWithNanLowerLimitStaysInTheFrame) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Mfcc")
                         .Input("spectrogram")
                         .Input("sample_rate")
                         .Attr("lower_frequency_limit", std::nanf(""))
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({1, 2, 257}), std::vector<float>(514, 1.0f));
  AddInputFromArray<int32_t>(TensorShape({}), {16000});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[1,2,13]");
}

TEST_F(AudioKernelsTest, LargeSpectrogramMatchesADft) {
  constexpr int kWindow = 400, kStride = 160, kSamples = 16000, kFft = 512;
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "AudioSpectrogram")
                         .Input("input")
                         .Attr("window_size", kWindow)
                         .Attr("stride", kStride)
                         .Attr("magnitude_squared", true)
                         .Build())
                  .ok());
  // Two channels: a chirp and its negation, whose spectrograms are the same.
  std::vector<float> audio(2 * kSamples);
  for (int i = 0; i < kSamples; ++i) {
    audio[2 * i] = static_cast<float>(0.5 * std::sin(0.001 * i * i / 16.0));
    audio[2 * i + 1] = -audio[2 * i];
  }
  AddInputFromArray<float>(TensorShape({kSamples, 2}), audio);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& out = *GetOutput(0);
  const int windows = 1 + (kSamples - kWindow) / kStride;
  ASSERT_EQ(out.shape().DebugString(),
            "[2," + std::to_string(windows) + "," + std::to_string(kFft / 2 + 1) + "]");
  const std::vector<float> got = Values<float>(out);
  const int64_t per_channel = int64_t{windows} * (kFft / 2 + 1);
  for (int64_t i = 0; i < per_channel; ++i) ASSERT_EQ(got[i], got[per_channel + i]) << i;
  const long double pi = std::acos(-1.0L);
  for (int w : {0, 37, windows - 1}) {
    float largest = 0;
    for (int k = 0; k <= kFft / 2; ++k) largest = std::max(largest, got[w * (kFft / 2 + 1) + k]);
    for (int k = 0; k <= kFft / 2; k += 5) {
      long double re = 0, im = 0;
      for (int j = 0; j < kWindow; ++j) {
        const long double hann = 0.5L - 0.5L * std::cos(2 * pi * j / kWindow);
        const long double x = audio[2 * (w * kStride + j)] * hann;
        re += x * std::cos(2 * pi * j * k / kFft);
        im -= x * std::sin(2 * pi * j * k / kFft);
      }
      const double want = static_cast<double>(re * re + im * im);
      EXPECT_NEAR(got[w * (kFft / 2 + 1) + k], want, 1e-5 * want + 1e-9 * largest)
          << "window " << w << " bin " << k;
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
