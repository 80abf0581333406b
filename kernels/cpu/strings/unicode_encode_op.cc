// UnicodeEncode on the CPU (tf.strings.unicode_encode): a ragged vector of code points
// (input_values and its row splits input_splits) becomes one string per row in
// output_encoding (UTF-8, UTF-16-BE or UTF-32-BE).
//
// The splits are checked first, with TensorFlow's messages and in its order: both inputs
// vectors, at least one split, the first 0, the last the number of values, then each not
// below the one before and not past the values. A code point outside [0, 0x10FFFF] or a
// surrogate is then an INVALID_ARGUMENT with errors='strict', dropped with 'ignore', and
// replacement_char with 'replace' (noncharacters such as U+FFFE are encoded as they are).
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/strings/unicode_options.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

bool IsEncodable(int32_t c) { return c >= 0 && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF); }

template <typename Splits>
class UnicodeEncodeOp : public OpKernel {
 public:
  explicit UnicodeEncodeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string encoding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("output_encoding", &encoding));
    OP_REQUIRES_OK(ctx, strings::ParseUnicodeEncoding(encoding, &encoding_));
    OP_REQUIRES_OK(ctx, strings::ReadUnicodeErrorOptions(ctx, &options_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& values_in = ctx->input(0);
    const Tensor& splits_in = ctx->input(1);
    OP_REQUIRES(
        ctx, values_in.dims() == 1 && splits_in.dims() == 1,
        errors::InvalidArgument("Both the input_tensor and input_splits should be of rank 1."));
    const int64_t num_splits = splits_in.NumElements();
    OP_REQUIRES(ctx, num_splits > 0,
                errors::InvalidArgument("Input_splits should contain elements, but given "
                                        "input_values has 0 elements"));
    const int64_t num_values = values_in.NumElements();
    const int32_t* values = values_in.base<int32_t>();
    const Splits* splits = splits_in.base<Splits>();
    OP_REQUIRES(ctx, splits[0] == 0,
                errors::InvalidArgument("First value in input_splits must be zero."));
    OP_REQUIRES(ctx, static_cast<int64_t>(splits[num_splits - 1]) == num_values,
                errors::InvalidArgument(
                    "Last value in input_splits must be equal to length of input_tensor."));
    for (int64_t i = 1; i < num_splits; ++i) {
      OP_REQUIRES(
          ctx, splits[i] >= splits[i - 1],
          errors::InvalidArgument("Values in input_splits must be equal or in ascending order."));
      OP_REQUIRES(ctx, static_cast<int64_t>(splits[i]) <= num_values,
                  errors::InvalidArgument("Values in input_splits must be less than or equal "
                                          "to input_tensor length."));
    }
    if (options_.strict) {
      for (int64_t i = 0; i < num_values; ++i) {
        OP_REQUIRES(
            ctx, IsEncodable(values[i]),
            errors::InvalidArgument("Code point is out of range for Unicode, or is a surrogate."));
      }
    }

    const int64_t rows = num_splits - 1;
    Tensor* output = nullptr;
    // shape-safe: one less than the element count of an existing tensor, which is at least 1
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({rows}), &output));
    std::string* out = output->base<std::string>();
    const double per_row =
        4.0 * static_cast<double>(num_values) / static_cast<double>(rows > 0 ? rows : 1) + 1.0;
    const Eigen::TensorOpCost cost(4.0 * per_row, 4.0 * per_row, 8.0 * per_row);
    ParallelFor(ctx, rows, rows, cost, [&](int64_t first, int64_t last) {
      for (int64_t r = first; r < last; ++r) {
        strings::EncodedWriter writer(encoding_, &out[r]);
        for (int64_t i = splits[r]; i < static_cast<int64_t>(splits[r + 1]); ++i) {
          int32_t c = values[i];
          if (!IsEncodable(c)) {
            if (options_.ignore) continue;
            c = options_.replacement_char;
          }
          writer.Append(c);
        }
        writer.Finish();
      }
    });
  }

 private:
  strings::UnicodeEncoding encoding_ = strings::UnicodeEncoding::kUtf8;
  strings::UnicodeErrorOptions options_;
};

REGISTER_KERNEL_BUILDER(Name("UnicodeEncode").Device(DEVICE_CPU).TypeConstraint<int32_t>("Tsplits"),
                        UnicodeEncodeOp<int32_t>);
REGISTER_KERNEL_BUILDER(Name("UnicodeEncode").Device(DEVICE_CPU).TypeConstraint<int64_t>("Tsplits"),
                        UnicodeEncodeOp<int64_t>);

}  // namespace
}  // namespace sluice
