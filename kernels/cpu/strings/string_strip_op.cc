// StringStrip on the CPU: each string without its leading and trailing ASCII whitespace
// (space, \t, \n, \v, \f, \r); other bytes, NUL and non-ASCII spaces included, stay.
#include <string>

#include "absl/strings/ascii.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/strings/string_map.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class StringStripOp : public OpKernel {
 public:
  explicit StringStripOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    strings::MapStrings<std::string>(ctx, 0.5, [](const std::string& in, std::string* out) {
      *out = std::string(absl::StripAsciiWhitespace(in));
    });
  }
};

REGISTER_KERNEL_BUILDER(Name("StringStrip").Device(DEVICE_CPU), StringStripOp);

}  // namespace
}  // namespace sluice
