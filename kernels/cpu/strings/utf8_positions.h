// Moving a byte position through UTF-8 text by whole characters, as TensorFlow's string
// kernels count them: a character starts at every byte that is not a continuation byte
// (10xxxxxx), so invalid sequences count one character per stray byte and nothing is
// validated. StringLength and Substr (unit UTF8_CHAR) share these.
#ifndef SLUICE_KERNELS_CPU_STRINGS_UTF8_POSITIONS_H_
#define SLUICE_KERNELS_CPU_STRINGS_UTF8_POSITIONS_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace sluice {
namespace strings {

inline bool IsUtf8ContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The number of characters of `s`.
inline int64_t Utf8CharCount(absl::string_view s) {
  int64_t n = 0;
  for (char c : s) n += IsUtf8ContinuationByte(c) ? 0 : 1;
  return n;
}

// Advances *pos (a byte offset into s, 0 <= *pos <= s.size()) by up to `chars` characters,
// stopping at the end. Returns whether it moved by exactly `chars`: false when the text ran
// out first, and false for a negative `chars`, which moves nothing (Substr relies on both).
inline bool ForwardUtf8Chars(absl::string_view s, int64_t chars, int64_t* pos) {
  const int64_t size = static_cast<int64_t>(s.size());
  int64_t counted = 0;
  while (counted < chars && *pos < size) {
    do {
      ++*pos;
    } while (*pos < size && IsUtf8ContinuationByte(s[*pos]));
    ++counted;
  }
  return counted == chars;
}

// Moves *pos back by up to `chars` characters, stopping at 0; returns whether it moved by
// exactly `chars`.
inline bool BackUtf8Chars(absl::string_view s, int64_t chars, int64_t* pos) {
  int64_t counted = 0;
  while (counted<chars&& * pos> 0) {
    do {
      --*pos;
    } while (*pos > 0 && IsUtf8ContinuationByte(s[*pos]));
    ++counted;
  }
  return counted == chars;
}

}  // namespace strings
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_STRINGS_UTF8_POSITIONS_H_
