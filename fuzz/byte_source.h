// ByteSource: the fuzzer's input read as a stream of decisions, for the structure-aware
// targets (which op, which attrs, which shapes and values).
//
// Each call consumes bytes from the front; once the input is exhausted every call returns
// its smallest answer (0, false, the first option, an empty string), so any input, however
// short, describes exactly one case and the same bytes always describe the same case.
// libFuzzer's mutations of a byte then change one decision and, through the lengths that
// follow it, the decisions after it.
//
// Not thread-safe; it does not own the bytes, which must outlive it.
#ifndef SLUICE_FUZZ_BYTE_SOURCE_H_
#define SLUICE_FUZZ_BYTE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"

namespace sluice {
namespace fuzz {

class ByteSource {
 public:
  ByteSource(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t remaining() const { return size_ - pos_; }

  uint8_t Byte();
  bool Bool() { return (Byte() & 1) != 0; }
  // True with probability about 1/n (n >= 1): for rare choices such as extreme values.
  // False once the input is exhausted (n > 1): the rare choice is never the default one.
  bool OneIn(int n) { return n <= 1 || Below(n) == 1; }
  // A value in [0, n); 0 when n is 0. Reads as few bytes as n needs (one for n <= 256).
  uint64_t Below(uint64_t n);
  // A value in [lo, hi]; lo when hi < lo.
  int64_t InRange(int64_t lo, int64_t hi);
  // Eight bytes, little-endian: any 64-bit pattern.
  uint64_t Bits64();
  // Up to `max_size` bytes, the length read first.
  std::string String(size_t max_size);

  template <typename T>
  const T& Pick(absl::Span<const T> options) {
    return options[Below(options.size())];
  }
  template <typename T>
  const T& Pick(const std::vector<T>& options) {
    return Pick(absl::MakeConstSpan(options));
  }

 private:
  const uint8_t* const data_;
  const size_t size_;
  size_t pos_ = 0;
};

}  // namespace fuzz
}  // namespace sluice

#endif  // SLUICE_FUZZ_BYTE_SOURCE_H_
