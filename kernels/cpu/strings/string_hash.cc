// FarmHash's Fingerprint64, SipHash-2-4, TensorFlow's legacy Hash64 and FingerprintCat64,
// written from the published descriptions of the algorithms. Every multiplication and
// addition is on uint64_t and wraps, as the algorithms specify.
#include "kernels/cpu/strings/string_hash.h"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace sluice {
namespace {

// Little-endian loads of 8 and 4 bytes at `p`.
uint64_t Load64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint64_t Load32(const char* p) {
  uint64_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint64_t RotateRight(uint64_t v, int shift) {
  return shift == 0 ? v : (v >> shift) | (v << (64 - shift));
}

uint64_t RotateLeft(uint64_t v, int shift) { return (v << shift) | (v >> (64 - shift)); }

uint64_t ShiftMix(uint64_t v) { return v ^ (v >> 47); }

// ---- FarmHash Fingerprint64 -----------------------------------------------------------

constexpr uint64_t kPrime0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t kPrime1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t kPrime2 = 0x9ae16a3b2f90404fULL;

// Murmur-style mix of two words under multiplier `mul`.
uint64_t Mix128(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

uint64_t ShortHash(const char* s, size_t len) {
  if (len >= 8) {
    const uint64_t mul = kPrime2 + len * 2;
    const uint64_t a = Load64(s) + kPrime2;
    const uint64_t b = Load64(s + len - 8);
    const uint64_t c = RotateRight(b, 37) * mul + a;
    const uint64_t d = (RotateRight(a, 25) + b) * mul;
    return Mix128(c, d, mul);
  }
  if (len >= 4) {
    const uint64_t mul = kPrime2 + len * 2;
    const uint64_t a = Load32(s);
    return Mix128(len + (a << 3), Load32(s + len - 4), mul);
  }
  if (len > 0) {
    const uint32_t first = static_cast<uint8_t>(s[0]);
    const uint32_t middle = static_cast<uint8_t>(s[len >> 1]);
    const uint32_t last = static_cast<uint8_t>(s[len - 1]);
    const uint32_t y = first + (middle << 8);
    const uint32_t z = static_cast<uint32_t>(len) + (last << 2);
    return ShiftMix(static_cast<uint64_t>(y) * kPrime2 ^ static_cast<uint64_t>(z) * kPrime0) *
           kPrime2;
  }
  return kPrime2;
}

uint64_t MediumHash(const char* s, size_t len) {  // 17 to 32 bytes
  const uint64_t mul = kPrime2 + len * 2;
  const uint64_t a = Load64(s) * kPrime1;
  const uint64_t b = Load64(s + 8);
  const uint64_t c = Load64(s + len - 8) * mul;
  const uint64_t d = Load64(s + len - 16) * kPrime2;
  return Mix128(RotateRight(a + b, 43) + RotateRight(c, 30) + d,
                a + RotateRight(b + kPrime2, 18) + c, mul);
}

uint64_t LongerHash(const char* s, size_t len) {  // 33 to 64 bytes
  const uint64_t mul = kPrime2 + len * 2;
  const uint64_t a = Load64(s) * kPrime2;
  const uint64_t b = Load64(s + 8);
  const uint64_t c = Load64(s + len - 8) * mul;
  const uint64_t d = Load64(s + len - 16) * kPrime2;
  const uint64_t y = RotateRight(a + b, 43) + RotateRight(c, 30) + d;
  const uint64_t z = Mix128(y, a + RotateRight(b + kPrime2, 18) + c, mul);
  const uint64_t e = Load64(s + 16) * mul;
  const uint64_t f = Load64(s + 24);
  const uint64_t g = (y + Load64(s + len - 32)) * mul;
  const uint64_t h = (z + Load64(s + len - 24)) * mul;
  return Mix128(RotateRight(e + f, 43) + RotateRight(g, 30) + h, e + RotateRight(f + a, 18) + g,
                mul);
}

// Mixes the 32 bytes at `s` into the seeds (a, b); returns the new pair.
std::pair<uint64_t, uint64_t> Mix32Bytes(const char* s, uint64_t a, uint64_t b) {
  const uint64_t w = Load64(s);
  const uint64_t x = Load64(s + 8);
  const uint64_t y = Load64(s + 16);
  const uint64_t z = Load64(s + 24);
  a += w;
  b = RotateRight(b + a + z, 21);
  const uint64_t c = a;
  a += x;
  a += y;
  b += RotateRight(a, 44);
  return {a + z, b + c};
}

uint64_t LongHash(const char* s, size_t len) {  // more than 64 bytes
  constexpr uint64_t kSeed = 81;
  uint64_t x = kSeed;
  uint64_t y = kSeed * kPrime1 + 113;
  uint64_t z = ShiftMix(y * kPrime2 + 113) * kPrime2;
  std::pair<uint64_t, uint64_t> v(0, 0);
  std::pair<uint64_t, uint64_t> w(0, 0);
  x = x * kPrime2 + Load64(s);
  // 64-byte blocks up to the last (possibly partial) one, which is read as the final 64
  // bytes of the string.
  const char* const end = s + ((len - 1) / 64) * 64;
  const char* const last64 = end + ((len - 1) & 63) - 63;
  do {
    x = RotateRight(x + y + v.first + Load64(s + 8), 37) * kPrime1;
    y = RotateRight(y + v.second + Load64(s + 48), 42) * kPrime1;
    x ^= w.second;
    y += v.first + Load64(s + 40);
    z = RotateRight(z + w.first, 33) * kPrime1;
    v = Mix32Bytes(s, v.second * kPrime1, x + w.first);
    w = Mix32Bytes(s + 32, z + w.second, y + Load64(s + 16));
    std::swap(z, x);
    s += 64;
  } while (s != end);
  const uint64_t mul = kPrime1 + ((z & 0xff) << 1);
  s = last64;
  w.first += ((len - 1) & 63);
  v.first += w.first;
  w.first += v.first;
  x = RotateRight(x + y + v.first + Load64(s + 8), 37) * mul;
  y = RotateRight(y + v.second + Load64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + Load64(s + 40);
  z = RotateRight(z + w.first, 33) * mul;
  v = Mix32Bytes(s, v.second * mul, x + w.first);
  w = Mix32Bytes(s + 32, z + w.second, y + Load64(s + 16));
  std::swap(z, x);
  return Mix128(Mix128(v.first, w.first, mul) + ShiftMix(y) * kPrime0 + z,
                Mix128(v.second, w.second, mul) + x, mul);
}

// ---- SipHash-2-4 ------------------------------------------------------------------------

struct SipState {
  uint64_t v0, v1, v2, v3;

  void Round() {
    v0 += v1;
    v1 = RotateLeft(v1, 13);
    v1 ^= v0;
    v0 = RotateLeft(v0, 32);
    v2 += v3;
    v3 = RotateLeft(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = RotateLeft(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = RotateLeft(v1, 17);
    v1 ^= v2;
    v2 = RotateLeft(v2, 32);
  }

  void Compress(uint64_t m) {
    v3 ^= m;
    Round();
    Round();
    v0 ^= m;
  }
};

}  // namespace

uint64_t Fingerprint64(absl::string_view s) {
  const char* p = s.data();
  const size_t len = s.size();
  if (len <= 16) return ShortHash(p, len);
  if (len <= 32) return MediumHash(p, len);
  if (len <= 64) return LongerHash(p, len);
  return LongHash(p, len);
}

uint64_t SipHash24(const uint64_t key[2], absl::string_view s) {
  SipState st{key[0] ^ 0x736f6d6570736575ULL, key[1] ^ 0x646f72616e646f6dULL,
              key[0] ^ 0x6c7967656e657261ULL, key[1] ^ 0x7465646279746573ULL};
  const size_t len = s.size();
  const size_t whole = len - len % 8;
  for (size_t i = 0; i < whole; i += 8) st.Compress(Load64(s.data() + i));
  // The last word: the remaining bytes, and the length's low byte in the top byte.
  uint64_t last = static_cast<uint64_t>(len & 0xff) << 56;
  for (size_t i = whole; i < len; ++i) {
    last |= static_cast<uint64_t>(static_cast<uint8_t>(s[i])) << (8 * (i - whole));
  }
  st.Compress(last);
  st.v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) st.Round();
  return st.v0 ^ st.v1 ^ st.v2 ^ st.v3;
}

uint64_t LegacyHash64(absl::string_view s) {
  constexpr uint64_t kSeed = 0xDECAFCAFFEULL;
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = kSeed ^ (static_cast<uint64_t>(n) * kMul);
  while (n >= 8) {
    uint64_t k = Load64(p);
    p += 8;
    n -= 8;
    k *= kMul;
    k ^= k >> 47;
    k *= kMul;
    h ^= k;
    h *= kMul;
  }
  if (n > 0) {
    // The tail's bytes, little-endian, mixed in once.
    for (size_t i = n; i-- > 0;) {
      h ^= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (8 * i);
    }
    h *= kMul;
  }
  h ^= h >> 47;
  h *= kMul;
  h ^= h >> 47;
  return h;
}

uint64_t FingerprintCat64(uint64_t first, uint64_t second) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  uint64_t result = first ^ kMul;
  result ^= ShiftMix(second * kMul) * kMul;
  result *= kMul;
  result = ShiftMix(result) * kMul;
  return ShiftMix(result);
}

}  // namespace sluice
