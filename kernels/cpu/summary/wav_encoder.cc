#include "kernels/cpu/summary/wav_encoder.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "graph/core/errors.h"

namespace sluice {
namespace summary {
namespace {

constexpr uint64_t kHeaderBytes = 44;
constexpr uint64_t kBytesPerSample = 2;
constexpr uint64_t kMaxUint32 = std::numeric_limits<uint32_t>::max();

void Put16(uint64_t value, char* out) {
  out[0] = static_cast<char>(value & 0xFF);
  out[1] = static_cast<char>((value >> 8) & 0xFF);
}

void Put32(uint64_t value, char* out) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

}  // namespace

int16_t FloatToPcm16(float sample) {
  // NaN would have no defined conversion; TensorFlow's build turns it into 0.
  if (std::isnan(sample)) return 0;
  const float scaled = std::round(sample * 32768.0f);
  if (scaled <= -32768.0f) return -32768;
  if (scaled >= 32767.0f) return 32767;
  return static_cast<int16_t>(scaled);
}

absl::Status EncodeWav16(const float* samples, uint64_t sample_rate, uint64_t num_channels,
                         uint64_t num_frames, std::string* wav) {
  if (samples == nullptr && num_frames > 0) return errors::InvalidArgument("audio is null");
  if (sample_rate == 0 || sample_rate > kMaxUint32) {
    return errors::InvalidArgument("sample_rate must be in (0, 2^32), got: ", sample_rate);
  }
  if (num_channels == 0 || num_channels > std::numeric_limits<uint16_t>::max()) {
    return errors::InvalidArgument("num_channels must be in (0, 2^16), got: ", num_channels);
  }
  // The RIFF chunk's size is 32 bits; the division keeps the check itself from overflowing.
  const uint64_t bytes_per_frame = kBytesPerSample * num_channels;
  if (num_frames > (kMaxUint32 - kHeaderBytes) / bytes_per_frame) {
    return errors::InvalidArgument("Provided channels and frames cannot be encoded as a WAV.");
  }
  const uint64_t num_samples = num_frames * num_channels;
  const uint64_t data_bytes = num_samples * kBytesPerSample;
  const uint64_t file_bytes = kHeaderBytes + data_bytes;

  // heap-ok: the encoded file is a string element of the op's output (DT_STRING elements are
  // std::strings), 44 bytes more than the samples at 2 bytes each
  wav->assign(file_bytes, '\0');
  char* out = &(*wav)[0];
  out[0] = 'R', out[1] = 'I', out[2] = 'F', out[3] = 'F';
  Put32(file_bytes - 8, out + 4);
  out[8] = 'W', out[9] = 'A', out[10] = 'V', out[11] = 'E';
  out[12] = 'f', out[13] = 'm', out[14] = 't', out[15] = ' ';
  Put32(16, out + 16);  // the format chunk's size
  Put16(1, out + 20);   // PCM
  Put16(num_channels, out + 22);
  Put32(sample_rate, out + 24);
  Put32(sample_rate * bytes_per_frame, out + 28);  // bytes per second
  Put16(bytes_per_frame, out + 32);
  Put16(8 * kBytesPerSample, out + 34);  // bits per sample
  out[36] = 'd', out[37] = 'a', out[38] = 't', out[39] = 'a';
  Put32(data_bytes, out + 40);
  out += kHeaderBytes;
  for (uint64_t i = 0; i < num_samples; ++i) {
    Put16(static_cast<uint16_t>(FloatToPcm16(samples[i])), out + kBytesPerSample * i);
  }
  return absl::OkStatus();
}

}  // namespace summary
}  // namespace sluice
