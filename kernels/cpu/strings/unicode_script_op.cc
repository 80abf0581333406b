// UnicodeScript on the CPU (tf.strings.unicode_script): the ICU script code (UScriptCode:
// 0 Common, 3 Cyrillic, 25 Latin, 103 Unknown...) of each int32 code point, and -1 for a
// value ICU rejects (negative, or past U+10FFFF).
//
// The answers are TensorFlow 2.21's, whose ICU 69 knows Unicode 13.0, while Debian's ICU is
// newer: a code point assigned after Unicode 13.0 is Unknown there (as unassigned ones are),
// and U+16FE2..U+16FE3 are still Common (Unicode 14.0 moved them to Han). With these two rules
// every code point agrees with TensorFlow under ICU 72 (Unicode 15.0).
#include <cstdint>

#include "graph/core/tensor.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unicode/uchar.h"
#include "unicode/uscript.h"

namespace sluice {
namespace {

// TensorFlow's Unicode version.
constexpr uint8_t kUnicodeMajor = 13;
constexpr uint8_t kUnicodeMinor = 0;

int32_t ScriptAsTensorFlow(int32_t c) {
  UErrorCode status = U_ZERO_ERROR;
  const UScriptCode script = uscript_getScript(c, &status);
  if (U_FAILURE(status)) return -1;
  UVersionInfo age;
  u_charAge(c, age);
  if (age[0] > kUnicodeMajor || (age[0] == kUnicodeMajor && age[1] > kUnicodeMinor)) {
    return USCRIPT_UNKNOWN;
  }
  if (c == 0x16FE2 || c == 0x16FE3) return USCRIPT_COMMON;
  return script;
}

class UnicodeScriptOp : public OpKernel {
 public:
  explicit UnicodeScriptOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &output));
    const int64_t n = input.NumElements();
    const int32_t* in = input.base<int32_t>();
    int32_t* out = output->base<int32_t>();
    ParallelFor(ctx, n, n, Eigen::TensorOpCost(4, 4, 40), [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) out[i] = ScriptAsTensorFlow(in[i]);
    });
  }
};

REGISTER_KERNEL_BUILDER(Name("UnicodeScript").Device(DEVICE_CPU), UnicodeScriptOp);

}  // namespace
}  // namespace sluice
