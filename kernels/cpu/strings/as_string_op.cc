// AsString on the CPU: each element formatted as a string, as TensorFlow formats it.
//
// The attrs make a printf-style conversion "%<fill>*.*<c>" applied with the width and
// precision as arguments (absl::StrFormat, so widths and precisions are never spliced into
// the format text): <c> is 'd'/'u' for integers, 'f', 'e' (scientific) or 'g' (shortest) for
// floating and complex values, 's' for strings. half and bfloat16 are formatted as float;
// complex values as "(real,imag)", each part formatted alone. Bools are "true"/"false" and
// ignore width and fill; strings without a width pass through unchanged; variants give their
// DebugString. Attr errors are TensorFlow's, in its order, at construction.
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using FloatingFormat =
    absl::ParsedFormat<absl::FormatConversionCharSet::kStar, absl::FormatConversionCharSet::kStar,
                       absl::FormatConversionCharSet::f | absl::FormatConversionCharSet::e |
                           absl::FormatConversionCharSet::g>;
using IntegralFormat =
    absl::ParsedFormat<absl::FormatConversionCharSet::kStar, absl::FormatConversionCharSet::kStar,
                       absl::FormatConversionCharSet::d | absl::FormatConversionCharSet::u>;
using StringFormat =
    absl::ParsedFormat<absl::FormatConversionCharSet::kStar, absl::FormatConversionCharSet::kStar,
                       absl::FormatConversionCharSet::s>;

class AsStringOp : public OpKernel {
 public:
  explicit AsStringOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    DataType dtype;
    bool scientific;
    bool shortest;
    std::string fill;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &dtype));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("precision", &precision_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("scientific", &scientific));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shortest", &shortest));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("width", &width_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fill", &fill));
    const bool floating = DataTypeIsFloating(dtype) || DataTypeIsComplex(dtype);
    if (dtype != DT_STRING && !floating) {
      OP_REQUIRES(ctx, !scientific && !shortest,
                  errors::InvalidArgument("scientific and shortest format not supported for "
                                          "datatype ",
                                          DataTypeString(dtype)));
      OP_REQUIRES(
          ctx, precision_ < 0,
          errors::InvalidArgument("precision not supported for datatype ", DataTypeString(dtype)));
    }
    OP_REQUIRES(ctx, fill.size() <= 1,
                errors::InvalidArgument("Fill string must be one or fewer characters"));
    OP_REQUIRES(ctx, !(scientific && shortest),
                errors::InvalidArgument("Cannot select both scientific and shortest notation"));
    OP_REQUIRES(ctx,
                fill.empty() || absl::string_view(" +-0#").find(fill[0]) != absl::string_view::npos,
                errors::InvalidArgument("Fill argument not supported: \"", fill, "\""));
    if (width_ < 0) width_ = 0;
    if (dtype == DT_BOOL || dtype == DT_VARIANT || (dtype == DT_STRING && width_ == 0)) return;

    char conversion;
    if (dtype == DT_STRING) {
      conversion = 's';
    } else if (DataTypeIsUnsigned(dtype)) {
      conversion = 'u';
    } else if (DataTypeIsSigned(dtype)) {
      conversion = 'd';
    } else if (floating) {
      conversion = shortest ? 'g' : (scientific ? 'e' : 'f');
    } else {
      ctx->CtxFailure(errors::InvalidArgument("Type not supported: ", DataTypeString(dtype)));
      return;
    }
    const std::string format = absl::StrCat("%", fill, "*.*", std::string(1, conversion));
    bool parsed;
    if (conversion == 's') {
      string_format_ = StringFormat::New(format);
      parsed = string_format_ != nullptr;
    } else if (conversion == 'd' || conversion == 'u') {
      integral_format_ = IntegralFormat::New(format);
      parsed = integral_format_ != nullptr;
    } else {
      floating_format_ = FloatingFormat::New(format);
      parsed = floating_format_ != nullptr;
    }
    OP_REQUIRES(ctx, parsed, errors::InvalidArgument("Invalid format: ", format));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    if (input.dtype() == DT_STRING && width_ == 0) {
      ctx->set_output(0, input);
      return;
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    const int64_t n = input.NumElements();
    if (n == 0) return;
    std::string* out = output->base<std::string>();
    switch (input.dtype()) {
      case DT_BOOL: {
        const bool* in = input.base<bool>();
        Run(ctx, n, [&](int64_t i) { out[i] = in[i] ? "true" : "false"; });
        break;
      }
      case DT_VARIANT: {
        const Variant* in = input.base<Variant>();
        Run(ctx, n, [&](int64_t i) { out[i] = in[i].DebugString(); });
        break;
      }
      case DT_STRING: {
        const std::string* in = input.base<std::string>();
        Run(ctx, n, [&](int64_t i) {
          out[i] = absl::StrFormat(*string_format_, width_, precision_, in[i]);
        });
        break;
      }
      case DT_HALF:
        FormatFloating<half>(ctx, input, out);
        break;
      case DT_BFLOAT16:
        FormatFloating<bfloat16>(ctx, input, out);
        break;
      case DT_FLOAT:
        FormatFloating<float>(ctx, input, out);
        break;
      case DT_DOUBLE:
        FormatFloating<double>(ctx, input, out);
        break;
      case DT_COMPLEX64:
        FormatComplex<complex64>(ctx, input, out);
        break;
      case DT_COMPLEX128:
        FormatComplex<complex128>(ctx, input, out);
        break;
      case DT_INT8:
        FormatIntegral<int8_t>(ctx, input, out);
        break;
      case DT_INT16:
        FormatIntegral<int16_t>(ctx, input, out);
        break;
      case DT_INT32:
        FormatIntegral<int32_t>(ctx, input, out);
        break;
      case DT_INT64:
        FormatIntegral<int64_t>(ctx, input, out);
        break;
      case DT_UINT8:
        FormatIntegral<uint8_t>(ctx, input, out);
        break;
      case DT_UINT16:
        FormatIntegral<uint16_t>(ctx, input, out);
        break;
      case DT_UINT32:
        FormatIntegral<uint32_t>(ctx, input, out);
        break;
      case DT_UINT64:
        FormatIntegral<uint64_t>(ctx, input, out);
        break;
      default:
        ctx->CtxFailure(
            errors::InvalidArgument("Cannot encode input of type ", DataTypeString(input.dtype())));
    }
  }

 private:
  // Runs fn(i) for every element, in parallel for large tensors.
  template <typename Fn>
  static void Run(OpKernelContext* ctx, int64_t n, Fn fn) {
    const Eigen::TensorOpCost cost(8, 32, 200);
    ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) fn(i);
    });
  }

  template <typename T>
  void FormatIntegral(OpKernelContext* ctx, const Tensor& input, std::string* out) const {
    const T* in = input.base<T>();
    Run(ctx, input.NumElements(),
        [&](int64_t i) { out[i] = absl::StrFormat(*integral_format_, width_, precision_, in[i]); });
  }

  template <typename T>
  void FormatFloating(OpKernelContext* ctx, const Tensor& input, std::string* out) const {
    const T* in = input.base<T>();
    Run(ctx, input.NumElements(), [&](int64_t i) { out[i] = Floating(in[i]); });
  }

  template <typename T>
  void FormatComplex(OpKernelContext* ctx, const Tensor& input, std::string* out) const {
    const T* in = input.base<T>();
    Run(ctx, input.NumElements(), [&](int64_t i) {
      out[i] = absl::StrCat("(", Floating(in[i].real()), ",", Floating(in[i].imag()), ")");
    });
  }

  // half and bfloat16 are formatted through float.
  template <typename T>
  std::string Floating(T value) const {
    using Wide = std::conditional_t<std::is_same_v<T, double>, double, float>;
    return absl::StrFormat(*floating_format_, width_, precision_, static_cast<Wide>(value));
  }

  int32_t precision_ = -1;
  int32_t width_ = -1;
  std::unique_ptr<StringFormat> string_format_;
  std::unique_ptr<IntegralFormat> integral_format_;
  std::unique_ptr<FloatingFormat> floating_format_;
};

REGISTER_KERNEL_BUILDER(Name("AsString").Device(DEVICE_CPU), AsStringOp);

}  // namespace
}  // namespace sluice
