// Base64 in TensorFlow's flavour, for EncodeBase64 and DecodeBase64: the web-safe alphabet
// (A-Z a-z 0-9 - _), '=' padding optional when encoding and accepted, not required, when
// decoding. Decoding rejects other characters (whitespace and the standard alphabet's + and /
// included), a misplaced '=', and a length of 1 modulo 4 after padding is removed; like
// TensorFlow's, it does not check that the unused low bits of the last character are zero.
#ifndef SLUICE_KERNELS_CPU_STRINGS_BASE64_H_
#define SLUICE_KERNELS_CPU_STRINGS_BASE64_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sluice {
namespace strings {

// Replaces *out with the encoding of `data`, padded with '=' to a multiple of 4 when `pad`.
void WebSafeBase64Encode(absl::string_view data, bool pad, std::string* out);

// Replaces *out with the bytes `text` encodes; INVALID_ARGUMENT with TensorFlow's message
// ("Invalid character found in base64." / "Base64 string length cannot be 1 modulo 4.")
// otherwise, in which case *out holds no meaningful value.
absl::Status WebSafeBase64Decode(absl::string_view text, std::string* out);

}  // namespace strings
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_STRINGS_BASE64_H_
