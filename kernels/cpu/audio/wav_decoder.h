// Reading 16-bit PCM WAV files as TensorFlow's DecodeWav does (wav::DecodeLin16WaveAsFloatVector):
// a "RIFF" chunk of type "WAVE", optional padding chunks (JUNK, bext, iXML, qlty, mext, levl,
// link, axml) before a "fmt " chunk of 16 or 18 bytes describing PCM (format 1) with 16 bits a
// sample, then chunks up to the end of the file, exactly one of which is "data"; the others
// are skipped by their size.
//
// The parser only looks at the file: it finds where the samples are, so that the kernel can
// convert them straight into its output without an intermediate copy.
//
// Thread-safe: no shared state.
#ifndef SLUICE_KERNELS_CPU_AUDIO_WAV_DECODER_H_
#define SLUICE_KERNELS_CPU_AUDIO_WAV_DECODER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sluice {
namespace audio {

struct WavLayout {
  uint16_t channels = 0;
  uint32_t sample_rate = 0;
  // Whole frames (one sample of every channel) in the data chunk.
  uint32_t frames = 0;
  // Where the data chunk's samples start in the file: frames * channels little-endian int16.
  int64_t data_offset = 0;
};

// Fills `layout` from the WAV file `wav`, or returns INVALID_ARGUMENT with TensorFlow's message
// ("Header mismatch: Expected RIFF but found ...", "Data too short when trying to read
// string", "Can only read 16-bit WAV files, but received 8", ...).
absl::Status ParseLin16Wav(absl::string_view wav, WavLayout* layout);

// The float in [-1, 1) of a 16-bit sample: sample / 32768.
inline float Pcm16ToFloat(int16_t sample) { return sample * (1.0f / 32768.0f); }

// The little-endian int16 at `bytes`.
inline int16_t ReadPcm16(const char* bytes) {
  const auto lo = static_cast<uint16_t>(static_cast<unsigned char>(bytes[0]));
  const auto hi = static_cast<uint16_t>(static_cast<unsigned char>(bytes[1]));
  return static_cast<int16_t>(static_cast<uint16_t>(lo | (hi << 8)));
}

}  // namespace audio
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_AUDIO_WAV_DECODER_H_
