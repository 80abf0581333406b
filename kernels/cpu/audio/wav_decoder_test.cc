// ParseLin16Wav beyond the fixtures: the layout it reports, and a padding chunk whose size
// would wrap TensorFlow's int offset back into the file (TensorFlow then rereads the file
// from there; here the chunk is simply longer than the file).
#include "kernels/cpu/audio/wav_decoder.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace sluice {
namespace audio {
namespace {

std::string U32(uint32_t v) {
  return std::string{static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF),
                     static_cast<char>((v >> 16) & 0xFF), static_cast<char>(v >> 24)};
}
std::string U16(uint32_t v) {
  return std::string{static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF)};
}
std::string Fmt(int channels, uint32_t rate) {
  return "fmt " + U32(16) + U16(1) + U16(channels) + U32(rate) + U32(rate * 2 * channels) +
         U16(2 * channels) + U16(16);
}

TEST(WavDecoderTest, ReportsTheLayout) {
  // Stereo, 3 whole frames and one odd byte; a chunk after the data.
  const std::string wav = "RIFF" + U32(0) + "WAVE" + Fmt(2, 44100) + "data" + U32(12) +
                          std::string(12, '\1') + "LIST" + U32(2) + "ab";
  WavLayout layout;
  ASSERT_TRUE(ParseLin16Wav(wav, &layout).ok());
  EXPECT_EQ(layout.channels, 2);
  EXPECT_EQ(layout.sample_rate, 44100u);
  EXPECT_EQ(layout.frames, 3u);
  EXPECT_EQ(layout.data_offset, 44);
  EXPECT_EQ(ReadPcm16("\x01\x80"), -32767);
  EXPECT_EQ(Pcm16ToFloat(-32768), -1.0f);
}

TEST(WavDecoderTest, PaddingChunkNearTwoToThe32IsTooLong) {
  const std::string wav =
      "RIFF" + U32(0) + "WAVE" + "JUNK" + U32(0xFFFFFFF0u) + Fmt(1, 8000) + "data" + U32(0);
  WavLayout layout;
  const absl::Status status = ParseLin16Wav(wav, &layout);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Data too short when trying to read string");
}

TEST(WavDecoderTest, ShortFilesNeverReadPastTheEnd) {
  const std::string wav = "RIFF" + U32(0) + "WAVE" + Fmt(1, 8000) + "data" + U32(4) + "ab";
  // Every prefix fails cleanly (ASan checks the reads).
  for (size_t n = 0; n <= wav.size(); ++n) {
    WavLayout layout;
    EXPECT_FALSE(ParseLin16Wav(absl::string_view(wav).substr(0, n), &layout).ok()) << n;
  }
}

}  // namespace
}  // namespace audio
}  // namespace sluice
