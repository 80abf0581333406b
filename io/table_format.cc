#include "io/table_format.h"

namespace sluice {
namespace table {

void PutFixed32(std::string* out, uint32_t value) {
  char bytes[4];
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<char>((value >> (8 * i)) & 0xff);
  out->append(bytes, 4);
}

void PutFixed64(std::string* out, uint64_t value) {
  PutFixed32(out, static_cast<uint32_t>(value));
  PutFixed32(out, static_cast<uint32_t>(value >> 32));
}

void PutVarint64(std::string* out, uint64_t value) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

void PutVarint32(std::string* out, uint32_t value) { PutVarint64(out, value); }

uint32_t DecodeFixed32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
         (static_cast<uint32_t>(b[2]) << 16) | (static_cast<uint32_t>(b[3]) << 24);
}

uint64_t DecodeFixed64(const char* p) {
  return static_cast<uint64_t>(DecodeFixed32(p)) |
         (static_cast<uint64_t>(DecodeFixed32(p + 4)) << 32);
}

namespace {

// At most `max_bytes` bytes; the last one's bits beyond `max_value` are refused.
bool GetVarint(absl::string_view* in, int max_bytes, uint64_t max_value, uint64_t* value) {
  uint64_t result = 0;
  for (int i = 0; i < max_bytes && i < static_cast<int>(in->size()); ++i) {
    const uint64_t byte = static_cast<unsigned char>((*in)[i]);
    const int shift = 7 * i;
    const uint64_t bits = byte & 0x7f;
    // The bits that this byte adds must fit: 64 bits hold 9 full groups and one bit.
    if (shift == 63 && bits > 1) return false;
    result |= bits << shift;
    if ((byte & 0x80) == 0) {
      if (result > max_value) return false;
      in->remove_prefix(i + 1);
      *value = result;
      return true;
    }
  }
  return false;
}

}  // namespace

bool GetVarint32(absl::string_view* in, uint32_t* value) {
  uint64_t v = 0;
  if (!GetVarint(in, 5, 0xffffffffull, &v)) return false;
  *value = static_cast<uint32_t>(v);
  return true;
}

bool GetVarint64(absl::string_view* in, uint64_t* value) {
  return GetVarint(in, 10, ~uint64_t{0}, value);
}

void BlockHandle::EncodeTo(std::string* out) const {
  PutVarint64(out, offset);
  PutVarint64(out, size);
}

bool BlockHandle::DecodeFrom(absl::string_view* in) {
  absl::string_view rest = *in;
  uint64_t o = 0, s = 0;
  if (!GetVarint64(&rest, &o) || !GetVarint64(&rest, &s)) return false;
  offset = o;
  size = s;
  *in = rest;
  return true;
}

}  // namespace table
}  // namespace sluice
