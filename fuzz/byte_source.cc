#include "fuzz/byte_source.h"

#include <algorithm>

namespace sluice {
namespace fuzz {

uint8_t ByteSource::Byte() { return pos_ < size_ ? data_[pos_++] : 0; }

uint64_t ByteSource::Below(uint64_t n) {
  if (n <= 1) return 0;
  // Read bytes until they cover n - 1; the modulo's bias toward small values is harmless
  // here (and small values are the common, interesting ones).
  uint64_t value = 0;
  for (uint64_t span = n - 1; span != 0; span >>= 8) value = (value << 8) | Byte();
  return value % n;
}

int64_t ByteSource::InRange(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  // The width of [lo, hi] as unsigned arithmetic, which cannot overflow; a full-width range
  // takes any 64-bit pattern.
  const uint64_t width = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  const uint64_t offset = width == UINT64_MAX ? Bits64() : Below(width + 1);
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + offset);
}

uint64_t ByteSource::Bits64() {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= static_cast<uint64_t>(Byte()) << (8 * i);
  return value;
}

std::string ByteSource::String(size_t max_size) {
  // The length is read first: only what remains after it can be taken.
  const size_t wanted = Below(max_size + 1);
  const size_t length = std::min<size_t>(wanted, remaining());
  std::string bytes(reinterpret_cast<const char*>(data_ + pos_), length);
  pos_ += length;
  return bytes;
}

}  // namespace fuzz
}  // namespace sluice
