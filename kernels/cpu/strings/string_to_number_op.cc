// StringToNumber on the CPU: each string parsed as a number of out_type, with TensorFlow's
// parser (absl's SimpleAtof/SimpleAtod/SimpleAtoi): ASCII whitespace around the number is
// ignored; floats take an optional sign, decimal or 0x-hexadecimal digits, exponents, and
// "inf", "infinity" and "nan" in any case, overflowing to infinity; integers take decimal
// digits with an optional sign ('-' only for signed types) and must fit. Anything else is
// INVALID_ARGUMENT naming the first bad string.
#include <cstdint>
#include <string>

#include "absl/strings/numbers.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

bool ParseNumber(const std::string& s, float* value) { return absl::SimpleAtof(s, value); }
bool ParseNumber(const std::string& s, double* value) { return absl::SimpleAtod(s, value); }
template <typename T>
bool ParseNumber(const std::string& s, T* value) {
  return absl::SimpleAtoi(s, value);
}

template <typename T>
class StringToNumberOp : public OpKernel {
 public:
  explicit StringToNumberOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    const std::string* in = input.base<std::string>();
    T* out = output->base<T>();
    for (int64_t i = 0; i < input.NumElements(); ++i) {
      OP_REQUIRES(
          ctx, ParseNumber(in[i], &out[i]),
          errors::InvalidArgument("StringToNumberOp could not correctly convert string: ", in[i]));
    }
  }
};

#define REGISTER_CPU(T)                                                                            \
  REGISTER_KERNEL_BUILDER(Name("StringToNumber").Device(DEVICE_CPU).TypeConstraint<T>("out_type"), \
                          StringToNumberOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
REGISTER_CPU(int32_t)
REGISTER_CPU(int64_t)
REGISTER_CPU(uint32_t)
REGISTER_CPU(uint64_t)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
