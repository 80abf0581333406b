#include "kernels/cpu/summary/wav_encoder.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sluice {
namespace summary {
namespace {

uint32_t Get32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(s[at + i]);
  return v;
}
uint16_t Get16(const std::string& s, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(s[at]) | static_cast<uint8_t>(s[at + 1]) << 8);
}

TEST(WavEncoderTest, HeaderAndInterleavedSamples) {
  // Two frames of three channels.
  const std::vector<float> samples = {0.0f, 0.5f, -0.5f, 1.0f, -1.0f, 0.25f};
  std::string wav;
  ASSERT_TRUE(EncodeWav16(samples.data(), 16000, 3, 2, &wav).ok());
  ASSERT_EQ(wav.size(), 44u + 12u);
  EXPECT_EQ(wav.substr(0, 4), "RIFF");
  EXPECT_EQ(Get32(wav, 4), wav.size() - 8);
  EXPECT_EQ(wav.substr(8, 8), "WAVEfmt ");
  EXPECT_EQ(Get32(wav, 16), 16u);
  EXPECT_EQ(Get16(wav, 20), 1);  // PCM
  EXPECT_EQ(Get16(wav, 22), 3);
  EXPECT_EQ(Get32(wav, 24), 16000u);
  EXPECT_EQ(Get32(wav, 28), 16000u * 6);
  EXPECT_EQ(Get16(wav, 32), 6);
  EXPECT_EQ(Get16(wav, 34), 16);
  EXPECT_EQ(wav.substr(36, 4), "data");
  EXPECT_EQ(Get32(wav, 40), 12u);
  const std::vector<int16_t> expected = {0, 16384, -16384, 32767, -32768, 8192};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(static_cast<int16_t>(Get16(wav, 44 + 2 * i)), expected[i]) << i;
  }
}

TEST(WavEncoderTest, SampleConversionRoundsHalvesAwayAndClamps) {
  EXPECT_EQ(FloatToPcm16(0.5f / 32768), 1);
  EXPECT_EQ(FloatToPcm16(-0.5f / 32768), -1);
  EXPECT_EQ(FloatToPcm16(1.5f / 32768), 2);
  EXPECT_EQ(FloatToPcm16(2.0f), 32767);
  EXPECT_EQ(FloatToPcm16(-2.0f), -32768);
  EXPECT_EQ(FloatToPcm16(std::numeric_limits<float>::infinity()), 32767);
  EXPECT_EQ(FloatToPcm16(-std::numeric_limits<float>::infinity()), -32768);
  EXPECT_EQ(FloatToPcm16(std::nanf("")), 0);
}

TEST(WavEncoderTest, NoFramesIsAHeaderOnly) {
  std::string wav = "old contents";
  ASSERT_TRUE(EncodeWav16(nullptr, 8000, 2, 0, &wav).ok());
  EXPECT_EQ(wav.size(), 44u);
  EXPECT_EQ(Get32(wav, 40), 0u);
}

TEST(WavEncoderTest, RefusesWhatWavCannotHold) {
  std::string wav;
  const float sample = 0;
  EXPECT_THAT(EncodeWav16(nullptr, 8000, 1, 1, &wav).message(), "audio is null");
  EXPECT_THAT(EncodeWav16(&sample, 0, 1, 1, &wav).message(),
              "sample_rate must be in (0, 2^32), got: 0");
  EXPECT_THAT(EncodeWav16(&sample, uint64_t{1} << 32, 1, 1, &wav).message(),
              "sample_rate must be in (0, 2^32), got: 4294967296");
  EXPECT_THAT(EncodeWav16(&sample, 8000, 0, 1, &wav).message(),
              "num_channels must be in (0, 2^16), got: 0");
  EXPECT_THAT(EncodeWav16(&sample, 8000, 65536, 1, &wav).message(),
              "num_channels must be in (0, 2^16), got: 65536");
  // 2^31 frames of one channel are 2^32 data bytes; the checks must not overflow either.
  EXPECT_THAT(EncodeWav16(&sample, 8000, 1, uint64_t{1} << 31, &wav).message(),
              "Provided channels and frames cannot be encoded as a WAV.");
  EXPECT_THAT(EncodeWav16(&sample, 8000, 65535, std::numeric_limits<uint64_t>::max(), &wav).code(),
              absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace summary
}  // namespace sluice
