#include "io/crc32c.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace sluice {
namespace crc32c {
namespace {

constexpr uint32_t kPolynomial = 0x82F63B78u;  // Castagnoli, bit-reversed

// Slicing-by-8: table[0] is the classic byte-at-a-time table; table[k][b] is the CRC of byte b
// followed by k zero bytes, so eight bytes fold in with eight lookups and no dependency
// between them.
struct Tables {
  uint32_t table[8][256];
};

constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (kPolynomial & (0u - (crc & 1u)));
    t.table[0][b] = crc;
  }
  for (int k = 1; k < 8; ++k) {
    for (uint32_t b = 0; b < 256; ++b) {
      const uint32_t previous = t.table[k - 1][b];
      t.table[k][b] = (previous >> 8) ^ t.table[0][previous & 0xFF];
    }
  }
  return t;
}

constexpr Tables kTables = MakeTables();

// Eight bytes as a little-endian number, whatever the host's byte order.
uint64_t LoadLittleEndian64(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof(word));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  word = __builtin_bswap64(word);
#endif
  return word;
}

}  // namespace

uint32_t ExtendPortable(uint32_t crc, const char* data, size_t n) {
  const auto& t = kTables.table;
  uint32_t state = ~crc;
  while (n >= 8) {
    const uint64_t word = LoadLittleEndian64(data) ^ state;
    state = t[7][word & 0xFF] ^ t[6][(word >> 8) & 0xFF] ^ t[5][(word >> 16) & 0xFF] ^
            t[4][(word >> 24) & 0xFF] ^ t[3][(word >> 32) & 0xFF] ^ t[2][(word >> 40) & 0xFF] ^
            t[1][(word >> 48) & 0xFF] ^ t[0][word >> 56];
    data += 8;
    n -= 8;
  }
  for (; n > 0; --n, ++data) {
    state = t[0][(state ^ static_cast<uint8_t>(*data)) & 0xFF] ^ (state >> 8);
  }
  return ~state;
}

#if defined(__x86_64__)

bool HardwareAvailable() {
  static const bool available = [] {
    // The CPU model must be initialised before the query when this first runs from a static
    // initializer, ahead of libgcc's own.
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return available;
}

// Compiled for SSE4.2 alone, so the rest of the build stays baseline x86-64.
__attribute__((target("sse4.2"))) uint32_t ExtendHardware(uint32_t crc, const char* data,
                                                          size_t n) {
  uint64_t state = ~crc;
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, data, sizeof(word));
    state = _mm_crc32_u64(state, word);
    data += 8;
    n -= 8;
  }
  uint32_t state32 = static_cast<uint32_t>(state);
  for (; n > 0; --n, ++data) state32 = _mm_crc32_u8(state32, static_cast<uint8_t>(*data));
  return ~state32;
}

#else

bool HardwareAvailable() { return false; }

uint32_t ExtendHardware(uint32_t crc, const char* data, size_t n) {
  return ExtendPortable(crc, data, n);
}

#endif

uint32_t Extend(uint32_t crc, const char* data, size_t n) {
  return HardwareAvailable() ? ExtendHardware(crc, data, n) : ExtendPortable(crc, data, n);
}

}  // namespace crc32c
}  // namespace sluice
