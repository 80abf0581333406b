// DecodeRaw on the CPU: the bytes of each string read as elements of out_type, giving the
// input's shape plus one dim (length / element size). Every string must have the same
// length, a multiple of the element size (INVALID_ARGUMENT otherwise); empty strings or no
// strings give a last dim of 0. With little_endian false each element's bytes are reversed
// (each half of a complex separately); bool elements are true for any nonzero byte.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class DecodeRawOp : public OpKernel {
 public:
  explicit DecodeRawOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("out_type", &out_type_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("little_endian", &little_endian_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const std::string* in = input.base<std::string>();
    const int64_t n = input.NumElements();
    int64_t length = -1;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t size = static_cast<int64_t>(in[i].size());
      if (length == -1) {
        length = size;
      } else {
        // TensorFlow's message gives the first string's size, then this one's.
        OP_REQUIRES(ctx, size == length,
                    errors::InvalidArgument("DecodeRaw requires input strings to all be the "
                                            "same size, but element ",
                                            i, " has size ", length, " != ", size));
      }
    }
    TensorShape out_shape = input.shape();
    if (length <= 0) {
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(0));
      Tensor* output = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
      return;
    }
    const int64_t element = static_cast<int64_t>(DataTypeSize(out_type_));
    OP_REQUIRES(ctx, length % element == 0,
                errors::InvalidArgument("Input to DecodeRaw has length ", length,
                                        " that is not a multiple of ", element, ", the size of ",
                                        DataTypeString(out_type_)));
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(length / element));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    char* out = static_cast<char*>(output->raw_data());
    // The host is little-endian (as every platform Sluice builds for).
    const bool swap = !little_endian_ && element > 1;
    const int64_t unit =
        out_type_ == DT_COMPLEX64 || out_type_ == DT_COMPLEX128 ? element / 2 : element;
    for (int64_t i = 0; i < n; ++i) {
      const char* src = in[i].data();
      char* dst = out + i * length;
      if (!swap) {
        std::memcpy(dst, src, static_cast<size_t>(length));
      } else {
        for (int64_t b = 0; b < length; b += unit)
          std::reverse_copy(src + b, src + b + unit, dst + b);
      }
    }
    if (out_type_ == DT_BOOL) {
      bool* flags = output->base<bool>();
      const uint8_t* bytes = reinterpret_cast<const uint8_t*>(out);
      for (int64_t i = 0; i < output->NumElements(); ++i) flags[i] = bytes[i] != 0;
    }
  }

  bool IsExpensive() override { return false; }

 private:
  DataType out_type_ = DT_FLOAT;
  bool little_endian_ = true;
};

REGISTER_KERNEL_BUILDER(Name("DecodeRaw")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("out_type",
                                            {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT16,
                                             DT_UINT8, DT_INT16, DT_INT8, DT_INT64, DT_COMPLEX64,
                                             DT_COMPLEX128, DT_BOOL, DT_BFLOAT16}),
                        DecodeRawOp);

}  // namespace
}  // namespace sluice
