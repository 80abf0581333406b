// AdjustContrastv2, AdjustSaturation and AdjustHue on the CPU (float images [..., h, w, c];
// TensorFlow registers no other CPU type), each TensorFlow's arithmetic step for step:
//  - contrast: per image and channel, the mean of the h * w values, summed by folding the
//    plane in halves (the second half added onto the first, an odd middle row kept) and
//    scaled by 1.0f / (h * w); then out = mean + factor * (in - mean);
//  - saturation: RGB to HSV (hue offsets added in double, as TensorFlow's constants are),
//    S scaled and clamped to [0, 1] (NaN to 0), back to RGB;
//  - hue: RGB to hue in [0, 6) and the min and max channel, the hue shifted by 6 * delta and
//    brought back into [0, 6) by adding or subtracting 6, back to RGB.
// TensorFlow's loops that bring a hue back into range never end for values so large that
// adding 6 (or 2) leaves them unchanged; here such values are reduced with fmod instead, an
// answer TensorFlow never gives. A float that does not fit an int converts to INT_MIN, as
// x86 converts it in TensorFlow.
#include <cmath>
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// static_cast<int>(x) as x86's cvttss2si computes it: INT_MIN for NaN and out-of-range x.
int TruncateToInt(float x) {
  if (x > -2147483904.0f && x < 2147483648.0f) return static_cast<int>(x);
  return std::numeric_limits<int>::min();
}

// Adds `step` to x while below(x) holds, as TensorFlow's loop does, unless that would take
// more than kMaxSteps steps (then TensorFlow's loop may never end; fmod stands in).
template <typename Below>
float StepInto(float x, float step, Below below, float period) {
  constexpr int kMaxSteps = 1 << 16;
  for (int i = 0; i < kMaxSteps; ++i) {
    if (!below(x)) return x;
    x += step;
  }
  return std::fmod(x, period);
}

// ---- AdjustSaturation ----------------------------------------------------------------

void RgbToHsv(float r, float g, float b, float* h, float* s, float* v) {
  const float vv = std::max(r, std::max(g, b));
  const float range = vv - std::min(r, std::min(g, b));
  *s = vv > 0 ? range / vv : 0.0f;
  const float norm = 1.0f / (6.0f * range);
  float hh;
  if (r == vv) {
    hh = norm * (g - b);
  } else if (g == vv) {
    hh = static_cast<float>(static_cast<double>(norm * (b - r)) + 2.0 / 6.0);
  } else {
    hh = static_cast<float>(static_cast<double>(norm * (r - g)) + 4.0 / 6.0);
  }
  if (range <= 0.0f) hh = 0;
  if (hh < 0.0f) hh = hh + 1;
  *v = vv;
  *h = hh;
}

void HsvToRgb(float h, float s, float v, float* out) {
  const float c = s * v;
  const float m = v - c;
  const float dh = h * 6;
  const int category = TruncateToInt(dh);
  float fmodu = StepInto(
      dh, 2.0f, [](float x) { return x <= 0; }, 2.0f);
  fmodu = StepInto(
      fmodu, -2.0f, [](float x) { return x >= 2.0f; }, 2.0f);
  const float x = c * (1 - std::abs(fmodu - 1));
  float rr = 0, gg = 0, bb = 0;
  switch (category) {
    case 0:
      rr = c;
      gg = x;
      break;
    case 1:
      rr = x;
      gg = c;
      break;
    case 2:
      gg = c;
      bb = x;
      break;
    case 3:
      gg = x;
      bb = c;
      break;
    case 4:
      rr = x;
      bb = c;
      break;
    case 5:
      rr = c;
      bb = x;
      break;
    default:
      break;
  }
  out[0] = rr + m;
  out[1] = gg + m;
  out[2] = bb + m;
}

void AdjustSaturationPixel(const float* in, float scale, float* out) {
  float h, s, v;
  RgbToHsv(in[0], in[1], in[2], &h, &s, &v);
  s = std::min(1.0f, std::max(0.0f, s * scale));
  HsvToRgb(h, s, v, out);
}

// ---- AdjustHue -------------------------------------------------------------------------

// The hue in [0, 6] and the min and max channel; which channel is which follows
// TensorFlow's comparisons (ties fall on its side).
void RgbToHueRange(float r, float g, float b, float* h, float* v_min, float* v_max) {
  float v_mid;
  int category;
  if (r < g) {
    if (b < r) {
      *v_max = g, v_mid = r, *v_min = b, category = 1;
    } else if (b > g) {
      *v_max = b, v_mid = g, *v_min = r, category = 3;
    } else {
      *v_max = g, v_mid = b, *v_min = r, category = 2;
    }
  } else if (b < g) {
    *v_max = r, v_mid = g, *v_min = b, category = 0;
  } else if (b > r) {
    *v_max = b, v_mid = r, *v_min = g, category = 4;
  } else {
    *v_max = r, v_mid = b, *v_min = g, category = 5;
  }
  if (*v_max == *v_min) {
    *h = 0;
    return;
  }
  const float ratio = (v_mid - *v_min) / (*v_max - *v_min);
  *h = category + ((category & 1) == 0 ? ratio : (1 - ratio));
}

void HueRangeToRgb(float h, float v_min, float v_max, float* out) {
  const int category = TruncateToInt(h);
  float ratio = h - category;
  if ((category & 1) != 0) ratio = 1 - ratio;
  const float v_mid = v_min + ratio * (v_max - v_min);
  float r, g, b;
  switch (category) {
    case 0:
      r = v_max, g = v_mid, b = v_min;
      break;
    case 1:
      r = v_mid, g = v_max, b = v_min;
      break;
    case 2:
      r = v_min, g = v_max, b = v_mid;
      break;
    case 3:
      r = v_min, g = v_mid, b = v_max;
      break;
    case 4:
      r = v_mid, g = v_min, b = v_max;
      break;
    default:
      r = v_max, g = v_min, b = v_mid;
      break;
  }
  out[0] = r;
  out[1] = g;
  out[2] = b;
}

void AdjustHuePixel(const float* in, float delta, float* out) {
  float h, v_min, v_max;
  RgbToHueRange(in[0], in[1], in[2], &h, &v_min, &v_max);
  constexpr int kRange = 6;
  h += delta * kRange;
  h = StepInto(
      h, float{kRange}, [](float x) { return x < 0; }, float{kRange});
  h = StepInto(
      h, -float{kRange}, [](float x) { return x >= kRange; }, float{kRange});
  HueRangeToRgb(h, v_min, v_max, out);
}

// Checks images of rank >= 3 whose last dim is 3 and a scalar parameter, in TensorFlow's
// order, naming the parameter `name`.
absl::Status CheckRgbImages(const Tensor& images, const Tensor& param, const char* name) {
  if (images.dims() < 3) {
    return errors::InvalidArgument("input must be at least 3-D, got shape",
                                   images.shape().DebugString());
  }
  if (param.dims() != 0) {
    return errors::InvalidArgument(name, " must be scalar: ", param.shape().DebugString());
  }
  const int64_t channels = images.dim_size(images.dims() - 1);
  if (channels != 3) {
    return errors::InvalidArgument("input must have 3 channels but instead has ", channels,
                                   " channels.");
  }
  return absl::OkStatus();
}

// AdjustSaturation (kHue false) and AdjustHue (kHue true).
template <bool kHue>
class AdjustPixelsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& param = ctx->input(1);
    OP_REQUIRES_OK(ctx, CheckRgbImages(images, param, kHue ? "delta" : "scale"));
    Tensor* output = nullptr;
    if (kHue) {
      OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, images.shape(), &output));
    } else {
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &output));
    }
    const int64_t pixels = images.NumElements() / 3;
    if (pixels == 0) return;
    const float value = param.base<float>()[0];
    const float* in = images.base<float>();
    float* out = output->base<float>();
    const Eigen::TensorOpCost cost(12, 12, 30);
    ParallelFor(ctx, pixels, images.NumElements(), cost, [&](int64_t first, int64_t last) {
      for (int64_t p = first; p < last; ++p) {
        // Read the pixel first: with AdjustHue the output may be the input's buffer.
        const float pixel[3] = {in[3 * p], in[3 * p + 1], in[3 * p + 2]};
        if (kHue) {
          AdjustHuePixel(pixel, value, out + 3 * p);
        } else {
          AdjustSaturationPixel(pixel, value, out + 3 * p);
        }
      }
    });
  }
};

// ---- AdjustContrastv2 ------------------------------------------------------------------

// The per-channel means of one image plane [pixels, channels] into `means`, folding the
// plane into `sum` (pixels * channels floats) as TensorFlow does.
void PlaneMeans(const float* plane, int64_t pixels, int64_t channels, float* sum, float* means) {
  int64_t remaining = pixels;
  bool first_round = true;
  do {
    const int64_t right = remaining / 2;
    const int64_t left = remaining - right;
    if (first_round) {
      for (int64_t i = 0; i < right * channels; ++i) sum[i] = plane[left * channels + i] + plane[i];
      if (left > right) {
        for (int64_t i = 0; i < channels; ++i) {
          sum[right * channels + i] = plane[right * channels + i];
        }
      }
    } else {
      for (int64_t i = 0; i < right * channels; ++i) sum[i] += sum[left * channels + i];
    }
    remaining = left;
    first_round = false;
  } while (remaining > 1);
  const float scale = 1.0f / pixels;
  for (int64_t c = 0; c < channels; ++c) means[c] = sum[c] * scale;
}

class AdjustContrastOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& factor = ctx->input(1);
    OP_REQUIRES(ctx, images.dims() >= 3,
                errors::InvalidArgument("input must be at least 3-D, got shape",
                                        images.shape().DebugString()));
    OP_REQUIRES(
        ctx, factor.dims() == 0,
        errors::InvalidArgument("contrast_factor must be scalar: ", factor.shape().DebugString()));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &output));
    if (images.NumElements() == 0) return;
    const int64_t channels = images.dim_size(images.dims() - 1);
    const int64_t pixels = images.dim_size(images.dims() - 3) * images.dim_size(images.dims() - 2);
    const int64_t plane = pixels * channels;
    const int64_t batch = images.NumElements() / plane;
    const float f = factor.base<float>()[0];
    const float* in = images.base<float>();
    float* out = output->base<float>();
    // Per block: the folding area of one plane and its means.
    const Eigen::TensorOpCost cost(plane * 8.0, plane * 4.0, plane * 4.0);
    OP_REQUIRES_OK(
        ctx, ParallelForWithScratch<float>(ctx, batch, images.NumElements(), cost, plane + channels,
                                           [&](int64_t first, int64_t last, float* scratch) {
                                             float* const means = scratch + plane;
                                             for (int64_t b = first; b < last; ++b) {
                                               const float* x = in + b * plane;
                                               float* y = out + b * plane;
                                               PlaneMeans(x, pixels, channels, scratch, means);
                                               for (int64_t i = 0; i < plane; ++i) {
                                                 const float mean = means[i % channels];
                                                 y[i] = mean + f * (x[i] - mean);
                                               }
                                             }
                                           }));
  }
};

REGISTER_KERNEL_BUILDER(Name("AdjustContrastv2").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        AdjustContrastOp);
REGISTER_KERNEL_BUILDER(Name("AdjustSaturation").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        AdjustPixelsOp<false>);
REGISTER_KERNEL_BUILDER(Name("AdjustHue").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        AdjustPixelsOp<true>);

}  // namespace
}  // namespace sluice
