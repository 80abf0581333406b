// UnicodeTranscode on the CPU (tf.strings.unicode_transcode): each string, read with ICU's
// converter for input_encoding (icu_decoder.h), written again in output_encoding (UTF-8,
// UTF-16-BE or UTF-32-BE), in a tensor of the input's shape.
//
// A code point from malformed bytes, or a C0 control character with
// replace_control_characters, becomes replacement_char (errors='replace') or is dropped
// ('ignore'); with 'strict' either fails the op with TensorFlow's INVALID_ARGUMENT "Invalid
// formatting on input string" (unlike the decode ops, where a control character is only
// replaced).
#include <cstdint>
#include <memory>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/strings/icu_decoder.h"
#include "kernels/cpu/strings/unicode_options.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class UnicodeTranscodeOp : public OpKernel {
 public:
  explicit UnicodeTranscodeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, strings::ReadUnicodeErrorOptions(ctx, &options_));
    std::string output_encoding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("output_encoding", &output_encoding));
    OP_REQUIRES_OK(ctx, strings::ParseUnicodeEncoding(output_encoding, &output_encoding_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("input_encoding", &input_encoding_));
    // Fails now for an encoding ICU lacks, as TensorFlow does at construction.
    std::unique_ptr<strings::IcuDecoder> decoder;
    OP_REQUIRES_OK(ctx, strings::IcuDecoder::Open(input_encoding_, &decoder));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const int64_t n = input.NumElements();
    const std::string* in = input.base<std::string>();
    std::unique_ptr<strings::IcuDecoder> decoder;
    OP_REQUIRES_OK(ctx, strings::IcuDecoder::Open(input_encoding_, &decoder));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    std::string* out = output->base<std::string>();
    const strings::UnicodeErrorOptions& options = options_;
    bool replaced = false;
    for (int64_t i = 0; i < n; ++i) {
      strings::EncodedWriter writer(output_encoding_, &out[i]);
      decoder->Decode(in[i], [&](int32_t c, int64_t, bool malformed) {
        if (strings::ShouldReplace(options, c, malformed)) {
          replaced = true;
          if (options.ignore) return;
          c = options.replacement_char;
        }
        writer.Append(c);
      });
      writer.Finish();
    }
    OP_REQUIRES(ctx, !(options.strict && replaced),
                errors::InvalidArgument("Invalid formatting on input string"));
  }

 private:
  strings::UnicodeErrorOptions options_;
  strings::UnicodeEncoding output_encoding_ = strings::UnicodeEncoding::kUtf8;
  std::string input_encoding_;
};

REGISTER_KERNEL_BUILDER(Name("UnicodeTranscode").Device(DEVICE_CPU), UnicodeTranscodeOp);

}  // namespace
}  // namespace sluice
