// StringLength on the CPU: each string's length in bytes, or with unit UTF8_CHAR in
// characters as TensorFlow counts them (bytes that are not UTF-8 continuation bytes).
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/strings/string_map.h"
#include "kernels/cpu/strings/utf8_positions.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class StringLengthOp : public OpKernel {
 public:
  explicit StringLengthOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string unit;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("unit", &unit));
    OP_REQUIRES(ctx, unit == "BYTE" || unit == "UTF8_CHAR",
                errors::InvalidArgument("unknown unit: ", unit));
    utf8_ = unit == "UTF8_CHAR";
  }

  void Compute(OpKernelContext* ctx) override {
    // The int32 output wraps for strings of 2 GiB or more, as TensorFlow's does.
    if (utf8_) {
      strings::MapStrings<int32_t>(ctx, 1.0, [](const std::string& in, int32_t* out) {
        *out = static_cast<int32_t>(strings::Utf8CharCount(in));
      });
    } else {
      strings::MapStrings<int32_t>(ctx, 0.0, [](const std::string& in, int32_t* out) {
        *out = static_cast<int32_t>(in.size());
      });
    }
  }

  bool IsExpensive() override { return false; }

 private:
  bool utf8_ = false;
};

REGISTER_KERNEL_BUILDER(Name("StringLength").Device(DEVICE_CPU), StringLengthOp);

}  // namespace
}  // namespace sluice
