// StringLower and StringUpper on the CPU. With encoding "" only ASCII letters change, byte
// by byte; with "utf-8" each string is decoded as TensorFlow does (ICU's UTF-8 converter on
// the string up to its first NUL byte, invalid bytes becoming U+FFFD) and mapped with ICU's
// full Unicode case mapping (so "ß" upper-cases to "SS"), then encoded back to UTF-8.
#include <string>

#include "absl/strings/ascii.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/strings/string_map.h"
#include "runtime/framework/op_kernel.h"
#include "unicode/unistr.h"

namespace sluice {
namespace {

template <bool kUpper>
class StringCaseOp : public OpKernel {
 public:
  explicit StringCaseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string encoding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("encoding", &encoding));
    OP_REQUIRES(ctx, encoding.empty() || encoding == "utf-8",
                errors::InvalidArgument("only utf-8 or '' (no encoding) is supported, received ",
                                        encoding));
    utf8_ = !encoding.empty();
  }

  void Compute(OpKernelContext* ctx) override {
    if (utf8_) {
      strings::MapStrings<std::string>(ctx, 20.0, [](const std::string& in, std::string* out) {
        icu::UnicodeString text(in.c_str(), "UTF-8");
        if (kUpper) {
          text.toUpper();
        } else {
          text.toLower();
        }
        text.toUTF8String(*out);
      });
    } else {
      strings::MapStrings<std::string>(ctx, 1.0, [](const std::string& in, std::string* out) {
        *out = kUpper ? absl::AsciiStrToUpper(in) : absl::AsciiStrToLower(in);
      });
    }
  }

 private:
  bool utf8_ = false;
};

REGISTER_KERNEL_BUILDER(Name("StringLower").Device(DEVICE_CPU), StringCaseOp<false>);
REGISTER_KERNEL_BUILDER(Name("StringUpper").Device(DEVICE_CPU), StringCaseOp<true>);

}  // namespace
}  // namespace sluice
