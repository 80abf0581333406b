// WAV encoding of float audio for AudioSummaryV2: 16-bit signed little-endian PCM, as
// TensorFlow's wav::EncodeAudioAsS16LEWav writes it.
//
// The file is a 44-byte header (a RIFF chunk "WAVE", a 16-byte "fmt " chunk: PCM (1), the channel
// count, the sample rate, bytes per second, bytes per frame, 16 bits per sample; then the
// "data" chunk's id and size) followed by the samples, frame by frame, channels interleaved.
// Each sample is round(x * 32768) (halves away from zero) clamped to [-32768, 32767]; NaN is 0.
//
// Thread-safe: no shared state.
#ifndef SLUICE_KERNELS_CPU_SUMMARY_WAV_ENCODER_H_
#define SLUICE_KERNELS_CPU_SUMMARY_WAV_ENCODER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace sluice {
namespace summary {

// Encodes `num_frames` frames of `num_channels` samples each, read from `samples`, into `wav`
// (replaced). `samples` may be null only when there are no frames. INVALID_ARGUMENT, with
// TensorFlow's messages, for null samples with frames ("audio is null"), a sample rate outside
// (0, 2^32), a channel count outside (0, 2^16), or a file whose size does not fit WAV's 32 bits.
absl::Status EncodeWav16(const float* samples, uint64_t sample_rate, uint64_t num_channels,
                         uint64_t num_frames, std::string* wav);

// The 16-bit PCM value of one sample (see above).
int16_t FloatToPcm16(float sample);

}  // namespace summary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SUMMARY_WAV_ENCODER_H_
