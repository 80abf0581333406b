// UnicodeDecode and UnicodeDecodeWithOffsets on the CPU (tf.strings.unicode_decode,
// unicode_split, unicode_decode_with_offsets): every string of the input, whatever its
// shape, becomes one row of a ragged tensor of code points: row_splits (Tsplits, one more
// than the strings), char_values (int32) and, with offsets, char_to_byte_starts (int64, the
// byte at which each code point starts in its string).
//
// Strings are read with ICU's converter for input_encoding (icu_decoder.h). A code point from
// malformed bytes, or a C0 control character with replace_control_characters, becomes
// replacement_char; with errors='ignore' it is dropped (its bytes still move the offsets),
// and with errors='strict' malformed bytes fail the op with TensorFlow's INVALID_ARGUMENT
// "Invalid formatting on input string" (control characters are still only replaced).
//
// The strings are decoded twice, once to count the code points of each row and once to write
// them, so that nothing is held per code point in between. TensorFlow's int32-splits
// UnicodeDecodeWithOffsets aborts the process (it views the int64 offsets as int32); this
// kernel writes the offsets as the OpDef declares them.
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

template <typename Splits, bool kWithOffsets>
class UnicodeDecodeOp : public OpKernel {
 public:
  explicit UnicodeDecodeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, strings::ReadUnicodeErrorOptions(ctx, &options_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("input_encoding", &encoding_));
    // Fails now for an encoding ICU lacks, as TensorFlow does at construction.
    std::unique_ptr<strings::IcuDecoder> decoder;
    OP_REQUIRES_OK(ctx, strings::IcuDecoder::Open(encoding_, &decoder));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const int64_t n = input.NumElements();
    const std::string* in = input.base<std::string>();
    Tensor* splits_out = nullptr;
    // shape-safe: an element count of an existing tensor plus one
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n + 1}), &splits_out));
    Splits* splits = splits_out->base<Splits>();

    std::unique_ptr<strings::IcuDecoder> decoder;
    OP_REQUIRES_OK(ctx, strings::IcuDecoder::Open(encoding_, &decoder));
    const strings::UnicodeErrorOptions& options = options_;
    bool malformed_input = false;
    int64_t total = 0;
    splits[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      decoder->Decode(in[i], [&](int32_t c, int64_t, bool malformed) {
        malformed_input |= malformed;
        if (!(options.ignore && strings::ShouldReplace(options, c, malformed))) ++total;
      });
      // TensorFlow's splits wrap past their type's range too.
      splits[i + 1] = static_cast<Splits>(total);
    }
    OP_REQUIRES(ctx, !(options.strict && malformed_input),
                errors::InvalidArgument("Invalid formatting on input string"));

    Tensor* values_out = nullptr;
    // shape-safe: a count of decoded code points, at most a few per input byte
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({total}), &values_out));
    int32_t* values = values_out->base<int32_t>();
    int64_t* starts = nullptr;
    if (kWithOffsets) {
      Tensor* starts_out = nullptr;
      // shape-safe: the same count as char_values
      OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({total}), &starts_out));
      starts = starts_out->base<int64_t>();
    }
    OP_REQUIRES_OK(ctx, strings::IcuDecoder::Open(encoding_, &decoder));
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t offset = 0;
      decoder->Decode(in[i], [&](int32_t c, int64_t bytes, bool malformed) {
        const int64_t start = offset;
        offset += bytes;
        if (strings::ShouldReplace(options, c, malformed)) {
          if (options.ignore) return;
          c = options.replacement_char;
        }
        // The first pass counted exactly these; the guard only keeps a converter that
        // answered differently the second time from writing past the outputs.
        if (k >= total) return;
        values[k] = c;
        if (kWithOffsets) starts[k] = start;
        ++k;
      });
    }
  }

 private:
  strings::UnicodeErrorOptions options_;
  std::string encoding_;
};

#define REGISTER_DECODE(Splits)                                                              \
  REGISTER_KERNEL_BUILDER(                                                                   \
      Name("UnicodeDecode").Device(DEVICE_CPU).TypeConstraint<Splits>("Tsplits"),            \
      UnicodeDecodeOp<Splits, false>);                                                       \
  REGISTER_KERNEL_BUILDER(                                                                   \
      Name("UnicodeDecodeWithOffsets").Device(DEVICE_CPU).TypeConstraint<Splits>("Tsplits"), \
      UnicodeDecodeOp<Splits, true>);
REGISTER_DECODE(int32_t)
REGISTER_DECODE(int64_t)
#undef REGISTER_DECODE

}  // namespace
}  // namespace sluice
