// IcuDecoder: the code points of strings in any encoding ICU's converters know, read one at
// a time as TensorFlow's Unicode kernels read them (ucnv_getNextUChar), so that malformed
// input (overlong forms, surrogates, truncated or stray bytes) splits into the same
// replacement characters with the same byte counts. One decoder reads a whole batch in order
// without being reset between strings, as TensorFlow's does; ICU ends each string as the end
// of its input (a truncated sequence there is malformed), which leaves no state behind for
// the encodings tried (UTF-16 byte-order marks, UTF-7, ISO-2022-JP).
#ifndef SLUICE_KERNELS_CPU_STRINGS_ICU_DECODER_H_
#define SLUICE_KERNELS_CPU_STRINGS_ICU_DECODER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "unicode/ucnv.h"

namespace sluice {
namespace strings {

class IcuDecoder {
 public:
  // A decoder for `encoding` (an ICU converter name or alias: "UTF-8", "UTF-16-BE",
  // "latin1", "Shift_JIS"...). INVALID_ARGUMENT "Could not create converter for input
  // encoding: <name>" when ICU has no such converter.
  static absl::Status Open(const std::string& encoding, std::unique_ptr<IcuDecoder>* out);

  ~IcuDecoder();
  IcuDecoder(const IcuDecoder&) = delete;
  IcuDecoder& operator=(const IcuDecoder&) = delete;

  // Calls visit(code_point, bytes, malformed) for each code point of `text`: `bytes` is how
  // many bytes of `text` it consumed (0 for a second code point produced by the same bytes)
  // and `malformed` whether ICU found an illegal, irregular or unassigned sequence there (the
  // code point is then ICU's substitute). Should ICU fail outright, the rest of the string
  // goes to that last call, as in TensorFlow.
  template <typename Visit>
  void Decode(absl::string_view text, Visit&& visit) {
    const char* source = text.data();
    const char* const limit = text.data() + text.size();
    UErrorCode status = U_ZERO_ERROR;
    while (source < limit) {
      const char* const before = source;
      malformed_ = false;
      const int32_t c = ucnv_getNextUChar(converter_, &source, limit, &status);
      if (U_FAILURE(status)) source = limit;
      visit(c, static_cast<int64_t>(source - before), malformed_);
    }
  }

 private:
  IcuDecoder() = default;

  // ICU's to-Unicode callback: notes malformed input in *context (a bool) and substitutes.
  static void OnInvalid(const void* context, UConverterToUnicodeArgs* args, const char* bytes,
                        int32_t length, UConverterCallbackReason reason, UErrorCode* status);

  UConverter* converter_ = nullptr;
  bool malformed_ = false;  // set by OnInvalid during one ucnv_getNextUChar
};

}  // namespace strings
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_STRINGS_ICU_DECODER_H_
