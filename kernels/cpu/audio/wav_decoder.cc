// The WAV parser of wav_decoder.h. Offsets are 64-bit, so that no chunk size can wrap them;
// TensorFlow keeps them in an int (see ParseLin16Wav for the one case where that shows).
#include "kernels/cpu/audio/wav_decoder.h"

#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"

namespace sluice {
namespace audio {
namespace {

// A cursor over the file that refuses to move past its end, with TensorFlow's message.
class Reader {
 public:
  explicit Reader(absl::string_view data) : data_(data) {}

  int64_t offset() const { return offset_; }
  bool AtEnd() const { return offset_ >= static_cast<int64_t>(data_.size()); }

  absl::Status Skip(int64_t count) {
    if (offset_ + count > static_cast<int64_t>(data_.size())) {
      return errors::InvalidArgument("Data too short when trying to read string");
    }
    offset_ += count;
    return absl::OkStatus();
  }

  absl::Status ReadText(int64_t count, absl::string_view* text) {
    const int64_t start = offset_;
    RETURN_IF_ERROR(Skip(count));
    *text = data_.substr(static_cast<size_t>(start), static_cast<size_t>(count));
    return absl::OkStatus();
  }

  absl::Status ExpectText(absl::string_view expected) {
    absl::string_view found;
    RETURN_IF_ERROR(ReadText(static_cast<int64_t>(expected.size()), &found));
    if (found != expected) {
      return errors::InvalidArgument("Header mismatch: Expected ", expected, " but found ", found);
    }
    return absl::OkStatus();
  }

  // A little-endian unsigned integer of sizeof(T) bytes.
  template <typename T>
  absl::Status Read(T* value) {
    const int64_t start = offset_;
    RETURN_IF_ERROR(Skip(sizeof(T)));
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
      v |= uint64_t{static_cast<unsigned char>(data_[static_cast<size_t>(start) + i])} << (8 * i);
    }
    *value = static_cast<T>(v);
    return absl::OkStatus();
  }

  // Moves by a chunk's size; the caller checks the end.
  void Jump(int64_t count) { offset_ += count; }

 private:
  absl::string_view data_;
  int64_t offset_ = 0;
};

// The chunks TensorFlow skips between "WAVE" and "fmt ".
bool IsPaddingChunk(absl::string_view id) {
  return id == "JUNK" || id == "bext" || id == "iXML" || id == "qlty" || id == "mext" ||
         id == "levl" || id == "link" || id == "axml";
}

}  // namespace

absl::Status ParseLin16Wav(absl::string_view wav, WavLayout* layout) {
  Reader reader(wav);
  RETURN_IF_ERROR(reader.ExpectText("RIFF"));
  uint32_t riff_size;  // not checked against the file, as in TensorFlow
  RETURN_IF_ERROR(reader.Read(&riff_size));
  RETURN_IF_ERROR(reader.ExpectText("WAVE"));
  absl::string_view chunk_id;
  RETURN_IF_ERROR(reader.ReadText(4, &chunk_id));
  while (chunk_id != "fmt ") {
    if (!IsPaddingChunk(chunk_id)) return errors::InvalidArgument("Unexpected field ", chunk_id);
    uint32_t chunk_size;
    RETURN_IF_ERROR(reader.Read(&chunk_size));
    // TensorFlow adds the size to an int offset, which a size near 2^32 wraps back into the
    // file; here such a chunk is simply too long.
    RETURN_IF_ERROR(reader.Skip(chunk_size));
    RETURN_IF_ERROR(reader.ReadText(4, &chunk_id));
  }
  uint32_t format_size;
  RETURN_IF_ERROR(reader.Read(&format_size));
  if (format_size != 16 && format_size != 18) {
    return errors::InvalidArgument("Bad format chunk size for WAV: Expected 16 or 18, but got",
                                   format_size);
  }
  uint16_t audio_format;
  RETURN_IF_ERROR(reader.Read(&audio_format));
  if (audio_format != 1) {
    return errors::InvalidArgument("Bad audio format for WAV: Expected 1 (PCM), but got",
                                   audio_format);
  }
  RETURN_IF_ERROR(reader.Read(&layout->channels));
  if (layout->channels < 1) {
    return errors::InvalidArgument("Bad number of channels for WAV: Expected at least 1, but got ",
                                   layout->channels);
  }
  RETURN_IF_ERROR(reader.Read(&layout->sample_rate));
  uint32_t bytes_per_second;
  RETURN_IF_ERROR(reader.Read(&bytes_per_second));
  // WAV's "block align": the bytes of one frame, every channel together.
  uint16_t bytes_per_frame;
  RETURN_IF_ERROR(reader.Read(&bytes_per_frame));
  uint16_t bits_per_sample;
  RETURN_IF_ERROR(reader.Read(&bits_per_sample));
  if (bits_per_sample != 16) {
    return errors::InvalidArgument("Can only read 16-bit WAV files, but received ",
                                   bits_per_sample);
  }
  const uint32_t expected_bytes_per_frame = (16u * layout->channels + 7) / 8;
  if (bytes_per_frame != expected_bytes_per_frame) {
    return errors::InvalidArgument("Bad bytes per sample in WAV header: Expected ",
                                   expected_bytes_per_frame, " but got ", bytes_per_frame);
  }
  // In 64 bits: a rate whose bytes per second do not fit the field's 32 is refused.
  const uint64_t expected_bytes_per_second = uint64_t{bytes_per_frame} * layout->sample_rate;
  if (bytes_per_second != expected_bytes_per_second) {
    return errors::InvalidArgument("Bad bytes per second in WAV header: Expected ",
                                   expected_bytes_per_second, " but got ", bytes_per_second,
                                   " (sample_rate=", layout->sample_rate,
                                   ", bytes_per_sample=", bytes_per_frame, ")");
  }
  // The two extra bytes of an 18-byte format chunk are skipped unread, even past the end.
  if (format_size == 18) reader.Jump(2);

  bool found_data = false;
  while (!reader.AtEnd()) {
    RETURN_IF_ERROR(reader.ReadText(4, &chunk_id));
    uint32_t chunk_size;
    RETURN_IF_ERROR(reader.Read(&chunk_size));
    if (chunk_size > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
      return errors::InvalidArgument("WAV data chunk '", chunk_id, "' is too large: ", chunk_size,
                                     " bytes, but the limit is ",
                                     std::numeric_limits<int32_t>::max());
    }
    if (chunk_id != "data") {
      reader.Jump(chunk_size);
      continue;
    }
    if (found_data) return errors::InvalidArgument("More than one data chunk found in WAV");
    found_data = true;
    layout->frames = chunk_size / bytes_per_frame;
    layout->data_offset = reader.offset();
    // Only the whole frames are read: the chunk's odd bytes, if any, are where TensorFlow
    // looks for the next chunk.
    RETURN_IF_ERROR(reader.Skip(int64_t{2} * layout->frames * layout->channels));
  }
  if (!found_data) return errors::InvalidArgument("No data chunk found in WAV");
  return absl::OkStatus();
}

}  // namespace audio
}  // namespace sluice
