#include "kernels/cpu/strings/base64.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "graph/core/errors.h"

namespace sluice {
namespace strings {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr int kInvalid = -1;

// The 6-bit value of each byte, or kInvalid.
constexpr std::array<int8_t, 256> MakeDecodeTable() {
  std::array<int8_t, 256> table{};
  for (int i = 0; i < 256; ++i) table[i] = kInvalid;
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(kAlphabet[i])] = i;
  return table;
}
constexpr std::array<int8_t, 256> kDecode = MakeDecodeTable();

// Decodes the four characters at `group` into three bytes at `out`; false if any of them is
// not in the alphabet.
bool DecodeGroup(const char* group, char* out) {
  uint32_t bits = 0;
  for (int k = 0; k < 4; ++k) {
    const int v = kDecode[static_cast<unsigned char>(group[k])];
    if (v == kInvalid) return false;
    bits = (bits << 6) | static_cast<uint32_t>(v);
  }
  out[0] = static_cast<char>(bits >> 16);
  out[1] = static_cast<char>(bits >> 8);
  out[2] = static_cast<char>(bits);
  return true;
}

absl::Status InvalidCharacter() {
  return errors::InvalidArgument("Invalid character found in base64.");
}

}  // namespace

void WebSafeBase64Encode(absl::string_view data, bool pad, std::string* out) {
  out->clear();
  const size_t n = data.size();
  const auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(data[i])); };
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t bits = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    const char chars[4] = {kAlphabet[bits >> 18], kAlphabet[(bits >> 12) & 63],
                           kAlphabet[(bits >> 6) & 63], kAlphabet[bits & 63]};
    out->append(chars, 4);
  }
  const size_t rest = n - i;
  if (rest == 0) return;
  const uint32_t bits = (byte(i) << 16) | (rest == 2 ? byte(i + 1) << 8 : 0);
  out->push_back(kAlphabet[bits >> 18]);
  out->push_back(kAlphabet[(bits >> 12) & 63]);
  if (rest == 2) out->push_back(kAlphabet[(bits >> 6) & 63]);
  if (pad) out->append(rest == 2 ? 1 : 2, '=');
}

absl::Status WebSafeBase64Decode(absl::string_view text, std::string* out) {
  out->clear();
  if (text.empty()) return absl::OkStatus();
  const char* p = text.data();
  const char* end = p + text.size();
  // Every full group but the last; the last (1 to 4 characters) may carry padding.
  char bytes[3];
  while (end - p > 4) {
    if (!DecodeGroup(p, bytes)) return InvalidCharacter();
    out->append(bytes, 3);
    p += 4;
  }
  if (end - p == 4) {
    if (p[2] == '=' && p[3] == '=') {
      end -= 2;
    } else if (p[3] == '=') {
      end -= 1;
    }
  }
  const int rest = static_cast<int>(end - p);
  if (rest == 1) return errors::InvalidArgument("Base64 string length cannot be 1 modulo 4.");
  // The missing characters read as 'A' (zero bits); only rest - 1 bytes are kept.
  char group[4] = {'A', 'A', 'A', 'A'};
  std::memcpy(group, p, static_cast<size_t>(rest));
  if (!DecodeGroup(group, bytes)) return InvalidCharacter();
  out->append(bytes, static_cast<size_t>(rest - 1));
  return absl::OkStatus();
}

}  // namespace strings
}  // namespace sluice
