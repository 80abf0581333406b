#include "kernels/cpu/strings/icu_decoder.h"

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "unicode/ucnv.h"
#include "unicode/ucnv_err.h"

namespace sluice {
namespace strings {

absl::Status IcuDecoder::Open(const std::string& encoding, std::unique_ptr<IcuDecoder>* out) {
  std::unique_ptr<IcuDecoder> decoder(new IcuDecoder());
  UErrorCode status = U_ZERO_ERROR;
  decoder->converter_ = ucnv_open(encoding.c_str(), &status);
  if (U_FAILURE(status) || decoder->converter_ == nullptr) {
    return errors::InvalidArgument("Could not create converter for input encoding: ", encoding);
  }
  status = U_ZERO_ERROR;
  ucnv_setToUCallBack(decoder->converter_, &IcuDecoder::OnInvalid, &decoder->malformed_, nullptr,
                      nullptr, &status);
  if (U_FAILURE(status)) {
    return errors::Internal("Could not set the error callback of the converter for ", encoding,
                            ": ", u_errorName(status));
  }
  *out = std::move(decoder);
  return absl::OkStatus();
}

IcuDecoder::~IcuDecoder() {
  if (converter_ != nullptr) ucnv_close(converter_);
}

void IcuDecoder::OnInvalid(const void* context, UConverterToUnicodeArgs* args, const char* bytes,
                           int32_t length, UConverterCallbackReason reason, UErrorCode* status) {
  if (reason == UCNV_UNASSIGNED || reason == UCNV_ILLEGAL || reason == UCNV_IRREGULAR) {
    *static_cast<bool*>(const_cast<void*>(context)) = true;
  }
  // Without a substitute ICU would stop the string here; TensorFlow substitutes for every
  // reason and then replaces (or drops) the substitute itself.
  UCNV_TO_U_CALLBACK_SUBSTITUTE(nullptr, args, bytes, length, reason, status);
}

}  // namespace strings
}  // namespace sluice
