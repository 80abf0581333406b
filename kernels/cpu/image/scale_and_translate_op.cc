// ScaleAndTranslate on the CPU: resamples NHWC images to [out_height, out_width] with a
// sampling kernel (lanczos1/3/5, gaussian, box, triangle, keyscubic, mitchellcubic), mapping
// output pixel centre x to the input coordinate (x + 0.5 - translation) / scale, per dim. The
// output is float whatever the input dtype. Keras's Resizing layer emits it for its lanczos3
// and lanczos5 interpolations (scale = out / in, no translation, no antialias).
//
// Algorithm (TensorFlow's, in float and in the same order, to match it bit for bit):
//  - Per dim, a span of input indices and their weights for every output index. With
//    antialias and downsampling the kernel is stretched by 1 / scale (a low-pass filter);
//    otherwise it is used as is. An output whose source coordinate lies outside [0, in]
//    samples nothing (a span of zero weights starting at 0). The weights of a span are
//    normalised to sum to 1 (left at 0 when their sum is about 0). All spans of a dim hold
//    `span_size` weights (the widest a kernel can reach, at most the input size); the
//    weights past a span's own end are 0 but are still multiplied in, as TensorFlow does,
//    so a NaN or infinity in their reach makes the output NaN there too.
//  - Rows first: each output row is the weighted sum of its span of input rows (converted
//    to float), accumulated in span order; then each output pixel is the weighted sum of its
//    span of that intermediate row's pixels.
//  - TensorFlow converts out-of-range floats to integers by the x86 instructions (the
//    result is the minimum integer), and flushes denormal inputs to zero; both are
//    reproduced so that extreme scales give its answers (a scale of 1e-10 fails with its
//    INTERNAL "Span is too large", a denormal scale counts as zero).
//
// Checked as TensorFlow does, with its messages: a 4-D image with a channel and non-empty
// rows and columns below 2^31 - 1, a 2-element size of positive values, scale and translation
// of two floats each, scales positive; the kernel name at construction. Where TensorFlow's
// kernel aborts (a kernel reach past 2^30 pixels makes its span size overflow), Sluice
// returns INVALID_ARGUMENT.
//
// Output rows are split over the intra-op pool; each computes its intermediate row alone.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

enum class SamplingKernel {
  kLanczos1,
  kLanczos3,
  kLanczos5,
  kGaussian,
  kBox,
  kTriangle,
  kKeysCubic,
  kMitchellCubic,
};

// The kernel_type attr's names, case-insensitively.
bool ParseSamplingKernel(absl::string_view name, SamplingKernel* kernel) {
  const std::string lower = absl::AsciiStrToLower(name);
  static const struct {
    const char* name;
    SamplingKernel kernel;
  } kNames[] = {
      {"lanczos1", SamplingKernel::kLanczos1},
      {"lanczos3", SamplingKernel::kLanczos3},
      {"lanczos5", SamplingKernel::kLanczos5},
      {"gaussian", SamplingKernel::kGaussian},
      {"box", SamplingKernel::kBox},
      {"triangle", SamplingKernel::kTriangle},
      {"keyscubic", SamplingKernel::kKeysCubic},
      {"mitchellcubic", SamplingKernel::kMitchellCubic},
  };
  for (const auto& entry : kNames) {
    if (lower == entry.name) {
      *kernel = entry.kernel;
      return true;
    }
  }
  return false;
}

// The sampling kernels: weight(x) for a distance x from the sample point, and the radius
// past which the weight is 0. Float arithmetic throughout, in TensorFlow's order.
constexpr float kPi = 3.14159265358979323846f;

// sin(pi x) sin(pi x / r) r / (pi x)^2 on [-r, r] (1 near 0).
struct LanczosKernel {
  float radius;
  float Radius() const { return radius; }
  float operator()(float x) const {
    x = std::abs(x);
    if (x > radius) return 0.0f;
    if (static_cast<double>(x) <= 1e-3) return 1.0f;
    const float pi_x = kPi * x;
    return radius * std::sin(pi_x) * std::sin(pi_x / radius) / (kPi * kPi * x * x);
  }
};

// exp(-x^2 / (2 sigma^2)) with sigma = radius / 3, radius 1.5 (the exponent in double).
struct GaussianKernel {
  float Radius() const { return 1.5f; }
  float operator()(float x) const {
    constexpr float kSigma = 1.5f / 3.0f;
    x = std::abs(x);
    if (x >= Radius()) return 0.0f;
    return static_cast<float>(
        std::exp(static_cast<double>(-x * x) / (2.0 * static_cast<double>(kSigma) * kSigma)));
  }
};

// 1 inside (-0.5, 0.5), 0.5 on its edges.
struct BoxKernel {
  float Radius() const { return 1.0f; }
  float operator()(float x) const {
    x = std::abs(x);
    if (x < 0.5f) return 1.0f;
    return x == 0.5f ? 0.5f : 0.0f;
  }
};

// 1 - |x| on (-1, 1).
struct TriangleKernel {
  float Radius() const { return 1.0f; }
  float operator()(float x) const {
    x = std::abs(x);
    return x < 1.0f ? 1.0f - x : 0.0f;
  }
};

// Keys's cubic convolution with a = -0.5 (Catmull-Rom).
struct KeysCubicKernel {
  float Radius() const { return 2.0f; }
  float operator()(float x) const {
    x = std::abs(x);
    if (x >= 2.0f) return 0.0f;
    if (x >= 1.0f) return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
    return ((1.5f * x - 2.5f) * x) * x + 1.0f;
  }
};

// Mitchell and Netravali's cubic with B = C = 1/3.
struct MitchellCubicKernel {
  float Radius() const { return 2.0f; }
  float operator()(float x) const {
    x = std::abs(x);
    if (x >= 2.0f) return 0.0f;
    if (x >= 1.0f) {
      return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x + 16.0f / 9.0f;
    }
    return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
  }
};

// Float to integer as x86's truncating conversions give it: NaN and values out of range
// become the type's minimum (C++ leaves these undefined; TensorFlow relies on the hardware).
int32_t TruncateToInt32(float v) {
  if (!(v > -2147483904.0f && v < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}
int64_t TruncateToInt64(float v) {
  if (!(v >= -9223372036854775808.0f && v < 9223372036854775808.0f)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(v);
}

// TensorFlow's CPU threads treat denormal floats as zero.
float FlushDenormal(float v) {
  return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
}

// The input span of every output index of one dim: span_size weights per output index,
// starting at input index starts[i].
struct Spans {
  int64_t span_size = 0;
  ScratchArray<int64_t> starts;  // out_size of them
  Tensor weights;                // float, [out_size * span_size]
};

template <typename Kernel>
absl::Status ComputeSpans(OpKernelContext* ctx, const Kernel& kernel, int64_t out_size,
                          int64_t in_size, float scale, float translate, bool antialias,
                          Spans* spans) {
  const float inv_scale = static_cast<float>(1.0 / static_cast<double>(scale));
  const float inv_translate = -inv_scale * translate;
  // Downsampling with antialias stretches the kernel into a low-pass filter.
  const float kernel_scale = antialias ? std::max(inv_scale, 1.0f) : 1.0f;
  const float reach = kernel.Radius() * kernel_scale;
  // 2 * reach + 1 in int32 arithmetic, which wraps around (through uint32) as TensorFlow's.
  const int32_t wrapped =
      static_cast<int32_t>(static_cast<uint32_t>(TruncateToInt32(std::ceil(reach))) * 2u + 1u);
  const int64_t span_size = std::min<int64_t>(wrapped, in_size);
  if (span_size < 0) {
    // TensorFlow aborts here (a negative temp shape).
    return errors::InvalidArgument("ScaleAndTranslate: the sampling kernel reaches over ", reach,
                                   " input pixels, more than 2^30; the scale is too small");
  }
  spans->span_size = span_size;
  RETURN_IF_ERROR(spans->starts.Allocate(ctx, out_size));
  TensorShape weights_shape;
  RETURN_IF_ERROR(TensorShape::BuildTensorShape({out_size * span_size}, &weights_shape));
  RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, weights_shape, &spans->weights));
  float* weights = spans->weights.base<float>();
  std::fill_n(weights, out_size * span_size, 0.0f);

  const float one_over_kernel_scale = 1.0f / kernel_scale;
  // One span's weights before normalisation; a span has at most span_size (checked below).
  ScratchArray<float> raw;
  RETURN_IF_ERROR(raw.Allocate(ctx, span_size));
  for (int64_t x = 0; x < out_size; ++x) {
    const float sample = (static_cast<float>(x) + 0.5f) * inv_scale + inv_translate;
    // A sample point outside the image samples nothing.
    if (sample < 0 || sample > static_cast<float>(in_size)) continue;
    const int64_t start =
        std::clamp<int64_t>(TruncateToInt64(std::ceil(sample - reach - 0.5f)), 0, in_size - 1);
    const int64_t end =
        std::clamp<int64_t>(TruncateToInt64(std::floor(sample + reach - 0.5f)), 0, in_size - 1) + 1;
    if (end - start > span_size) {
      return errors::Internal("Span is too large: ", end - start, " vs ", span_size, ".");
    }
    float total = 0.0f;
    int64_t count = 0;
    for (int64_t source = start; source < end; ++source) {
      const float distance = static_cast<float>(source) + 0.5f - sample;
      const float weight = kernel(std::abs(distance * one_over_kernel_scale));
      total += weight;
      raw[count++] = weight;
    }
    if (std::abs(total) >= 1000.0f * std::numeric_limits<float>::min()) {
      const float inverse = 1.0f / total;
      float* dst = weights + x * span_size;
      for (int64_t k = 0; k < count; ++k) *dst++ = raw[k] * inverse;
    }
    spans->starts[x] = start;
  }
  return absl::OkStatus();
}

absl::Status ComputeSpansFor(OpKernelContext* ctx, SamplingKernel kernel, int64_t out_size,
                             int64_t in_size, float scale, float translate, bool antialias,
                             Spans* spans) {
  switch (kernel) {
    case SamplingKernel::kLanczos1:
      return ComputeSpans(ctx, LanczosKernel{1.0f}, out_size, in_size, scale, translate, antialias,
                          spans);
    case SamplingKernel::kLanczos3:
      return ComputeSpans(ctx, LanczosKernel{3.0f}, out_size, in_size, scale, translate, antialias,
                          spans);
    case SamplingKernel::kLanczos5:
      return ComputeSpans(ctx, LanczosKernel{5.0f}, out_size, in_size, scale, translate, antialias,
                          spans);
    case SamplingKernel::kGaussian:
      return ComputeSpans(ctx, GaussianKernel{}, out_size, in_size, scale, translate, antialias,
                          spans);
    case SamplingKernel::kBox:
      return ComputeSpans(ctx, BoxKernel{}, out_size, in_size, scale, translate, antialias, spans);
    case SamplingKernel::kTriangle:
      return ComputeSpans(ctx, TriangleKernel{}, out_size, in_size, scale, translate, antialias,
                          spans);
    case SamplingKernel::kKeysCubic:
      return ComputeSpans(ctx, KeysCubicKernel{}, out_size, in_size, scale, translate, antialias,
                          spans);
    case SamplingKernel::kMitchellCubic:
      return ComputeSpans(ctx, MitchellCubicKernel{}, out_size, in_size, scale, translate,
                          antialias, spans);
  }
  return errors::Internal("unknown sampling kernel");
}

// The weights of output index i and how many of them reach inside the input (the span's
// zero-weight tail included).
struct SpanView {
  const float* weights;
  int64_t start;
  int64_t count;
};

SpanView Span(const Spans& spans, int64_t i, int64_t in_size) {
  const int64_t start = spans.starts[i];
  return {spans.weights.base<float>() + i * spans.span_size, start,
          std::min(start + spans.span_size, in_size) - start};
}

// RESOURCE_EXHAUSTED when the allocator refuses the intermediate rows.
template <typename T>
absl::Status ScaleAndTranslate(OpKernelContext* ctx, const T* images, int64_t batch,
                               int64_t in_height, int64_t in_width, int64_t channels,
                               int64_t out_height, int64_t out_width, const Spans& rows,
                               const Spans& cols, float* output) {
  const int64_t in_row = in_width * channels;
  const int64_t out_row = out_width * channels;
  const int64_t n = batch * out_height;
  const Eigen::TensorOpCost cost(rows.span_size * in_row * sizeof(T), out_row * sizeof(float),
                                 2.0 * (rows.span_size * in_row + cols.span_size * out_row));
  return ParallelForWithScratch<float>(
      ctx, n, n * out_row, cost, in_row, [&](int64_t first, int64_t last, float* intermediate) {
        for (int64_t r = first; r < last; ++r) {
          const int64_t b = r / out_height;
          const int64_t y = r % out_height;
          // The intermediate row: the weighted sum of the span of input rows.
          std::fill_n(intermediate, in_row, 0.0f);
          const SpanView row_span = Span(rows, y, in_height);
          const T* src = images + (b * in_height + row_span.start) * in_row;
          for (int64_t k = 0; k < row_span.count; ++k, src += in_row) {
            const float w = row_span.weights[k];
            for (int64_t i = 0; i < in_row; ++i) intermediate[i] += w * static_cast<float>(src[i]);
          }
          // The output row: per pixel, the weighted sum of its span of intermediate pixels.
          float* dst = output + r * out_row;
          for (int64_t x = 0; x < out_width; ++x, dst += channels) {
            const SpanView col_span = Span(cols, x, in_width);
            std::fill_n(dst, channels, 0.0f);
            const float* pixel = intermediate + col_span.start * channels;
            for (int64_t k = 0; k < col_span.count; ++k, pixel += channels) {
              const float w = col_span.weights[k];
              for (int64_t c = 0; c < channels; ++c) dst[c] += w * pixel[c];
            }
          }
        }
      });
}

// Reads a 2-element float vector (scale or translation), as TensorFlow's checks word it.
absl::Status ReadPair(const Tensor& t, float* first, float* second) {
  if (t.dims() != 1) {
    return errors::InvalidArgument("t must be 1-dimensional", t.shape().DebugString());
  }
  if (t.NumElements() != 2) {
    return errors::InvalidArgument("t must have two elements", t.shape().DebugString());
  }
  *first = FlushDenormal(t.base<float>()[0]);
  *second = FlushDenormal(t.base<float>()[1]);
  return absl::OkStatus();
}

template <typename T>
class ScaleAndTranslateOp : public OpKernel {
 public:
  explicit ScaleAndTranslateOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("antialias", &antialias_));
    std::string name;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("kernel_type", &name));
    OP_REQUIRES(ctx, ParseSamplingKernel(name, &kernel_),
                errors::InvalidArgument("Unrecognized kernel type: ", name));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& size = ctx->input(1);
    OP_REQUIRES(
        ctx, input.dims() == 4,
        errors::InvalidArgument("input must be 4-dimensional", input.shape().DebugString()));
    OP_REQUIRES(ctx, size.dims() == 1,
                errors::InvalidArgument("output_shape_t must be 1-dimensional",
                                        size.shape().DebugString()));
    OP_REQUIRES(ctx, size.NumElements() == 2,
                errors::InvalidArgument("output_shape_t must have two elements",
                                        size.shape().DebugString()));
    const int64_t out_height = size.base<int32_t>()[0];
    const int64_t out_width = size.base<int32_t>()[1];
    constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();
    OP_REQUIRES(ctx, input.dim_size(1) < kIntMax && input.dim_size(2) < kIntMax,
                errors::InvalidArgument("input sizes must be between 0 and max int32"));
    const int64_t batch = input.dim_size(0);
    const int64_t in_height = input.dim_size(1);
    const int64_t in_width = input.dim_size(2);
    const int64_t channels = input.dim_size(3);
    OP_REQUIRES(ctx, out_height > 0 && out_width > 0,
                errors::InvalidArgument("output dimensions must be positive"));
    OP_REQUIRES(ctx, channels > 0, errors::InvalidArgument("image must have at least one channel"));
    OP_REQUIRES(ctx, in_height > 0 && in_width > 0,
                errors::InvalidArgument("input image must be of non-zero size"));
    float row_scale = 0, col_scale = 0, row_translation = 0, col_translation = 0;
    OP_REQUIRES_OK(ctx, ReadPair(ctx->input(2), &row_scale, &col_scale));
    OP_REQUIRES(ctx, row_scale > 0 && col_scale > 0,
                errors::InvalidArgument("Scale must be greater than zero."));
    OP_REQUIRES_OK(ctx, ReadPair(ctx->input(3), &row_translation, &col_translation));

    TensorShape out_shape;
    OP_REQUIRES_OK(
        ctx, TensorShape::BuildTensorShape({batch, out_height, out_width, channels}, &out_shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (output->NumElements() == 0) return;

    Spans cols, rows;
    OP_REQUIRES_OK(ctx, ComputeSpansFor(ctx, kernel_, out_width, in_width, col_scale,
                                        col_translation, antialias_, &cols));
    OP_REQUIRES_OK(ctx, ComputeSpansFor(ctx, kernel_, out_height, in_height, row_scale,
                                        row_translation, antialias_, &rows));
    OP_REQUIRES_OK(ctx,
                   ScaleAndTranslate<T>(ctx, input.base<T>(), batch, in_height, in_width, channels,
                                        out_height, out_width, rows, cols, output->base<float>()));
  }

 private:
  SamplingKernel kernel_ = SamplingKernel::kLanczos3;
  bool antialias_ = true;
};

// The dtypes of the op's T attr (TensorFlow's CPU kernels cover each).
#define REGISTER_SCALE_AND_TRANSLATE(T)                   \
  REGISTER_KERNEL_BUILDER(Name("ScaleAndTranslate")       \
                              .Device(DEVICE_CPU)         \
                              .TypeConstraint<T>("T")     \
                              .HostMemory("size")         \
                              .HostMemory("scale")        \
                              .HostMemory("translation"), \
                          ScaleAndTranslateOp<T>);
SLUICE_CALL_int8(REGISTER_SCALE_AND_TRANSLATE) SLUICE_CALL_uint8(REGISTER_SCALE_AND_TRANSLATE)
    SLUICE_CALL_int16(REGISTER_SCALE_AND_TRANSLATE) SLUICE_CALL_uint16(REGISTER_SCALE_AND_TRANSLATE)
        SLUICE_CALL_int32(REGISTER_SCALE_AND_TRANSLATE)
            SLUICE_CALL_int64(REGISTER_SCALE_AND_TRANSLATE)
                SLUICE_CALL_FLOAT_TYPES(REGISTER_SCALE_AND_TRANSLATE)
#undef REGISTER_SCALE_AND_TRANSLATE

}  // namespace
}  // namespace sluice
