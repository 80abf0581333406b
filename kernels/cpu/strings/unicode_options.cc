#include "kernels/cpu/strings/unicode_options.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace strings {
namespace {

constexpr int32_t kMaxCodePoint = 0x10FFFF;

bool IsLead(int32_t c) { return c >= 0xD800 && c <= 0xDBFF; }
bool IsTrail(int32_t c) { return c >= 0xDC00 && c <= 0xDFFF; }

}  // namespace

absl::Status ReadUnicodeErrorOptions(OpKernelConstruction* ctx, UnicodeErrorOptions* out) {
  *out = UnicodeErrorOptions();
  std::string policy;
  RETURN_IF_ERROR(ctx->GetAttr("errors", &policy));
  if (policy == "ignore") {
    out->ignore = true;
  } else if (policy == "strict") {
    out->strict = true;
  } else if (policy != "replace") {
    return errors::InvalidArgument("errors policy must be one of 'strict', 'replace', or 'ignore'");
  }
  int32_t replacement = 0;
  RETURN_IF_ERROR(ctx->GetAttr("replacement_char", &replacement));
  if (replacement < 0 || replacement > kMaxCodePoint) {
    return errors::InvalidArgument("replacement_char out of unicode codepoint range");
  }
  out->replacement_char = replacement;
  if (ctx->HasAttr("replace_control_characters")) {
    RETURN_IF_ERROR(ctx->GetAttr("replace_control_characters", &out->replace_control_characters));
  }
  return absl::OkStatus();
}

absl::Status ParseUnicodeEncoding(const std::string& name, UnicodeEncoding* out) {
  if (name == "UTF-8") {
    *out = UnicodeEncoding::kUtf8;
  } else if (name == "UTF-16-BE") {
    *out = UnicodeEncoding::kUtf16Be;
  } else if (name == "UTF-32-BE") {
    *out = UnicodeEncoding::kUtf32Be;
  } else {
    return errors::InvalidArgument("Invalid encoding \"", name,
                                   "\": Should be one of: UTF-8, UTF-16-BE, UTF-32-BE");
  }
  return absl::OkStatus();
}

void EncodedWriter::Append(int32_t c) {
  if (c < 0 || c > kMaxCodePoint) return;  // UnicodeString::append drops these
  if (pending_lead_ >= 0) {
    const int32_t lead = pending_lead_;
    pending_lead_ = -1;
    if (IsTrail(c)) {
      Emit(0x10000 + ((lead - 0xD800) << 10) + (c - 0xDC00));
      return;
    }
    Emit(lead);
  }
  if (IsLead(c)) {
    pending_lead_ = c;
  } else {
    Emit(c);
  }
}

void EncodedWriter::Finish() {
  if (pending_lead_ >= 0) Emit(pending_lead_);
  pending_lead_ = -1;
}

void EncodedWriter::Emit(int32_t c) {
  auto put = [this](uint32_t byte) { out_->push_back(static_cast<char>(byte & 0xFF)); };
  switch (encoding_) {
    case UnicodeEncoding::kUtf8:
      if (IsLead(c) || IsTrail(c)) c = 0xFFFD;  // toUTF8String's substitute for a lone one
      if (c < 0x80) {
        put(c);
      } else if (c < 0x800) {
        put(0xC0 | (c >> 6));
        put(0x80 | (c & 0x3F));
      } else if (c < 0x10000) {
        put(0xE0 | (c >> 12));
        put(0x80 | ((c >> 6) & 0x3F));
        put(0x80 | (c & 0x3F));
      } else {
        put(0xF0 | (c >> 18));
        put(0x80 | ((c >> 12) & 0x3F));
        put(0x80 | ((c >> 6) & 0x3F));
        put(0x80 | (c & 0x3F));
      }
      break;
    case UnicodeEncoding::kUtf16Be:
      if (c >= 0x10000) {
        const int32_t lead = 0xD800 + ((c - 0x10000) >> 10);
        const int32_t trail = 0xDC00 + ((c - 0x10000) & 0x3FF);
        put(lead >> 8);
        put(lead);
        put(trail >> 8);
        put(trail);
      } else {
        put(c >> 8);
        put(c);
      }
      break;
    case UnicodeEncoding::kUtf32Be:
      put(c >> 24);
      put(c >> 16);
      put(c >> 8);
      put(c);
      break;
  }
}

}  // namespace strings
}  // namespace sluice
