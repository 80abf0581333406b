// What the Unicode kernels share about their attrs and output bytes: the error policy
// (`errors`, `replacement_char`, `replace_control_characters`) and the three output
// encodings, with a writer that turns code points into one of them.
//
// The writer reproduces how TensorFlow's kernels produce bytes: code points are appended to an
// ICU UnicodeString (UTF-16) and the string is then serialised, so a lead surrogate followed
// by a trail surrogate becomes one supplementary character, a lone surrogate becomes U+FFFD in
// UTF-8 but stays as it is in UTF-16-BE and UTF-32-BE, and a value outside [0, 0x10FFFF] is
// dropped. Surrogates only arrive here as a surrogate replacement_char.
#ifndef SLUICE_KERNELS_CPU_STRINGS_UNICODE_OPTIONS_H_
#define SLUICE_KERNELS_CPU_STRINGS_UNICODE_OPTIONS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace strings {

struct UnicodeErrorOptions {
  int32_t replacement_char = 0xFFFD;
  bool ignore = false;  // errors='ignore': drop what would be replaced
  bool strict = false;  // errors='strict': malformed input fails the op
  bool replace_control_characters = false;
};

// Reads `errors`, `replacement_char` and (where the op has it) `replace_control_characters`;
// INVALID_ARGUMENT "replacement_char out of unicode codepoint range" outside [0, 0x10FFFF].
absl::Status ReadUnicodeErrorOptions(OpKernelConstruction* ctx, UnicodeErrorOptions* out);

// Whether a decoded code point is replaced (or, with errors='ignore', dropped): it came from
// malformed input, or it is a C0 control character and the op replaces those.
inline bool ShouldReplace(const UnicodeErrorOptions& options, int32_t c, bool malformed) {
  return malformed || (options.replace_control_characters && c <= 0x1F);
}

enum class UnicodeEncoding { kUtf8, kUtf16Be, kUtf32Be };

// "UTF-8", "UTF-16-BE" or "UTF-32-BE"; INVALID_ARGUMENT with TensorFlow's message otherwise.
absl::Status ParseUnicodeEncoding(const std::string& name, UnicodeEncoding* out);

// Appends the encoding of code points to a string (see the header comment). Finish() must be
// called after the last Append: a lead surrogate waits there for a trail one.
class EncodedWriter {
 public:
  EncodedWriter(UnicodeEncoding encoding, std::string* out) : encoding_(encoding), out_(out) {}

  void Append(int32_t c);
  void Finish();

 private:
  // One character of the UTF-16 text: a scalar value, or a lone surrogate.
  void Emit(int32_t c);

  const UnicodeEncoding encoding_;
  std::string* const out_;
  int32_t pending_lead_ = -1;  // a lead surrogate not yet known to be paired
};

}  // namespace strings
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_STRINGS_UNICODE_OPTIONS_H_
