// EncodeBase64 and DecodeBase64 on the CPU, with TensorFlow's web-safe base64 (base64.h).
// Decoding stops at the first string that is not valid base64, in row-major order.
#include <cstdint>
#include <string>

#include "graph/core/tensor.h"
#include "kernels/cpu/strings/base64.h"
#include "kernels/cpu/strings/string_map.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class EncodeBase64Op : public OpKernel {
 public:
  explicit EncodeBase64Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pad", &pad_));
  }

  void Compute(OpKernelContext* ctx) override {
    const bool pad = pad_;
    strings::MapStrings<std::string>(ctx, 2.0, [pad](const std::string& in, std::string* out) {
      strings::WebSafeBase64Encode(in, pad, out);
    });
  }

 private:
  bool pad_ = false;
};

class DecodeBase64Op : public OpKernel {
 public:
  explicit DecodeBase64Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    const std::string* in = input.base<std::string>();
    std::string* out = output->base<std::string>();
    for (int64_t i = 0; i < input.NumElements(); ++i) {
      OP_REQUIRES_OK(ctx, strings::WebSafeBase64Decode(in[i], &out[i]));
    }
  }
};

REGISTER_KERNEL_BUILDER(Name("EncodeBase64").Device(DEVICE_CPU), EncodeBase64Op);
REGISTER_KERNEL_BUILDER(Name("DecodeBase64").Device(DEVICE_CPU), DecodeBase64Op);

}  // namespace
}  // namespace sluice
