// CRC-32C (Castagnoli: reflected polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF),
// the checksum of TFRecord files, and TensorFlow's masking of it.
//
// Debian's Abseil (20220623) has no absl/crc and Debian ships no CRC-32C library, so it is
// computed here: with the SSE4.2 crc32 instruction when the CPU has it (checked once at run
// time; the build itself targets baseline x86-64), otherwise with slicing-by-8 tables. Both give
// the same values; crc32c_test checks them against the standard check value
// (Value("123456789") == 0xE3069283) and against each other.
//
// Why masking: a record that itself holds CRCs (an embedded TFRecord) would otherwise checksum
// to patterns a reader could confuse; TensorFlow stores Mask(crc) = rotate_right(crc, 15) +
// 0xa282ead8, and Unmask inverts it.
//
// Thread-safe: pure functions (the feature check and tables are set up once).
#ifndef SLUICE_IO_CRC32C_H_
#define SLUICE_IO_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace sluice {
namespace crc32c {

// The CRC of the concatenation of the bytes `crc` covers and data[0, n): Extend(Value(a), b) ==
// Value(a + b). Extend(0, ...) starts a new CRC.
uint32_t Extend(uint32_t crc, const char* data, size_t n);

inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

inline uint32_t Unmask(uint32_t masked) {
  const uint32_t rotated = masked - 0xa282ead8u;
  return (rotated >> 17) | (rotated << 15);
}

// For tests: the two implementations behind Extend. ExtendHardware may only be called when
// HardwareAvailable() is true.
uint32_t ExtendPortable(uint32_t crc, const char* data, size_t n);
bool HardwareAvailable();
uint32_t ExtendHardware(uint32_t crc, const char* data, size_t n);

}  // namespace crc32c
}  // namespace sluice

#endif  // SLUICE_IO_CRC32C_H_
