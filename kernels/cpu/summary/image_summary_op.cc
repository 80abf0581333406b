// ImageSummary on the CPU: up to max_images PNG images (image/png_encoder.h) from a
// [batch, height, width, channels] tensor, channels 1 (gray), 3 (RGB) or 4 (RGBA). The values'
// tags are "<tag>/image/<i>", or "<tag>/image" when max_images is 1.
//
// uint8 images are encoded as they are. Floating images (half, float, double) are scaled one
// image at a time, as TensorFlow scales them: over the pixels whose channels are all finite,
// if the smallest value is negative, x * (127 / max|x|) + 128; otherwise x * (255 / max x); a
// scale whose divisor is below 1e-6 is 0. The scale is computed in float and converted to the
// image's type, the affine map is evaluated in the image's type (half rounds after each
// operation) and truncated to uint8. A pixel with a non-finite channel is painted `bad_color`,
// which must then have at least `channels` entries.
//
// Errors are TensorFlow's (INVALID_ARGUMENT): bad attrs when the kernel is built, a non-scalar
// tag, a tensor that is not 4-D with 1, 3 or 4 channels, dims of 2^31 or more (or height *
// width of 2^29 or more), an empty image (height, width or channels 0; an empty batch is fine
// and gives an empty Summary). A PNG encoder failure is INTERNAL ("PNG encoding failed").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/png_encoder.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/summary/summary_output.h"
#include "proto/summary.pb.h"
#include "proto/tensor.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

constexpr int64_t k2To31 = int64_t{1} << 31;
constexpr int64_t k2To29 = int64_t{1} << 29;

bool IsFinite(half x) { return Eigen::numext::isfinite(x); }
bool IsFinite(float x) { return std::isfinite(x); }
bool IsFinite(double x) { return std::isfinite(x); }

// Truncation toward zero, straight from the value's own type: a double just below an integer
// must not round up through float first.
uint8_t TruncateToUint8(half x) { return static_cast<uint8_t>(static_cast<float>(x)); }
uint8_t TruncateToUint8(float x) { return static_cast<uint8_t>(x); }
uint8_t TruncateToUint8(double x) { return static_cast<uint8_t>(x); }

template <typename T>
bool AllFinite(const T* pixel, int depth) {
  for (int c = 0; c < depth; ++c) {
    if (!IsFinite(pixel[c])) return false;
  }
  return true;
}

// Scales one [hw, depth] image of `values` into `out` (see the file comment).
template <typename T>
void NormalizeImage(const T* values, int64_t hw, int depth, const uint8_t* bad_color,
                    uint8_t* out) {
  float image_min = std::numeric_limits<float>::infinity();
  float image_max = -image_min;
  for (int64_t i = 0; i < hw; ++i) {
    const T* pixel = values + i * depth;
    if (!AllFinite(pixel, depth)) continue;
    for (int c = 0; c < depth; ++c) {
      const float value = static_cast<float>(pixel[c]);
      image_min = std::min(image_min, value);
      image_max = std::max(image_max, value);
    }
  }
  constexpr float kZeroThreshold = 1e-6f;
  T scale;
  T offset;
  if (image_min < 0) {
    const float max_abs = std::max(std::abs(image_min), std::abs(image_max));
    scale = static_cast<T>(max_abs < kZeroThreshold ? 0.0f : 127.0f / max_abs);
    offset = static_cast<T>(128.0f);
  } else {
    scale = static_cast<T>(image_max < kZeroThreshold ? 0.0f : 255.0f / image_max);
    offset = static_cast<T>(0.0f);
  }
  for (int64_t i = 0; i < hw; ++i) {
    const T* pixel = values + i * depth;
    uint8_t* target = out + i * depth;
    if (!AllFinite(pixel, depth)) {
      std::copy(bad_color, bad_color + depth, target);
      continue;
    }
    for (int c = 0; c < depth; ++c) {
      // Two separate operations in T, as TensorFlow's Eigen expression evaluates them; the
      // result lies in [0, 256), so the truncation is defined.
      const T scaled = pixel[c] * scale;
      const T shifted = scaled + offset;
      target[c] = TruncateToUint8(shifted);
    }
  }
}

class ImageSummaryOp : public OpKernel {
 public:
  explicit ImageSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int64_t max_images;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_images", &max_images));
    OP_REQUIRES(ctx, max_images < k2To31, errors::InvalidArgument("max_images must be < 2^31"));
    max_images_ = static_cast<int>(max_images);
    const TensorProto* proto = nullptr;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("bad_color", &proto));
    OP_REQUIRES_OK(ctx, TensorFromProto(ctx->allocator(), *proto, &bad_color_));
    OP_REQUIRES(ctx, bad_color_.dtype() == DT_UINT8,
                errors::InvalidArgument("bad_color must be uint8, got ",
                                        DataTypeString(bad_color_.dtype())));
    OP_REQUIRES(ctx, bad_color_.dims() == 1,
                errors::InvalidArgument("bad_color must be a vector, got shape ",
                                        bad_color_.shape().DebugString()));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tag = ctx->input(0);
    const Tensor& tensor = ctx->input(1);
    OP_REQUIRES(ctx, tag.dims() == 0, errors::InvalidArgument("Tags must be a scalar"));
    OP_REQUIRES(ctx,
                tensor.dims() == 4 &&
                    (tensor.dim_size(3) == 1 || tensor.dim_size(3) == 3 || tensor.dim_size(3) == 4),
                errors::InvalidArgument("Tensor must be 4-D with last dim 1, 3, or 4, not ",
                                        tensor.shape().DebugString()));
    OP_REQUIRES(
        ctx,
        tensor.dim_size(0) < k2To31 && tensor.dim_size(1) < k2To31 && tensor.dim_size(2) < k2To31 &&
            tensor.dim_size(1) * tensor.dim_size(2) < k2To29,
        errors::InvalidArgument("Tensor too large for summary ", tensor.shape().DebugString()));
    // The limits above keep these in int.
    const int batch = static_cast<int>(tensor.dim_size(0));
    const int height = static_cast<int>(tensor.dim_size(1));
    const int width = static_cast<int>(tensor.dim_size(2));
    const int depth = static_cast<int>(tensor.dim_size(3));
    const int64_t hw = int64_t{height} * width;
    OP_REQUIRES(ctx, hw > 0 && depth > 0,
                errors::InvalidArgument("input tensor must have non-zero dims. Found: [", batch,
                                        ", ", height, ", ", width, ", ", depth, "]."));
    if (tensor.dtype() != DT_UINT8) {
      OP_REQUIRES(ctx, bad_color_.dim_size(0) >= depth,
                  errors::InvalidArgument("expected depth <= bad_color.size, got depth = ", depth,
                                          ", bad_color.size = ", bad_color_.dim_size(0)));
    }
    const std::string& base_tag = tag.scalar<std::string>()();
    const int count = std::min(max_images_, batch);
    const int64_t image_size = hw * depth;
    // One image's pixels scaled to uint8, from the device's allocator.
    ScratchArray<uint8_t> scaled;
    if (tensor.dtype() != DT_UINT8) OP_REQUIRES_OK(ctx, scaled.Allocate(ctx, image_size));
    Summary summary;
    for (int i = 0; i < count; ++i) {
      const uint8_t* pixels = nullptr;
      switch (tensor.dtype()) {
        case DT_UINT8:
          pixels = tensor.base<uint8_t>() + i * image_size;
          break;
        case DT_HALF:
          NormalizeImage(tensor.base<half>() + i * image_size, hw, depth,
                         bad_color_.base<uint8_t>(), scaled.data());
          pixels = scaled.data();
          break;
        case DT_FLOAT:
          NormalizeImage(tensor.base<float>() + i * image_size, hw, depth,
                         bad_color_.base<uint8_t>(), scaled.data());
          pixels = scaled.data();
          break;
        case DT_DOUBLE:
          NormalizeImage(tensor.base<double>() + i * image_size, hw, depth,
                         bad_color_.base<uint8_t>(), scaled.data());
          pixels = scaled.data();
          break;
        default:
          ctx->CtxFailure(
              errors::Internal("ImageSummary has no kernel for ", DataTypeString(tensor.dtype())));
          return;
      }
      Summary::Value* v = summary.add_value();
      // The tag depends on how many images were asked for, not on how many there are.
      v->set_tag(max_images_ > 1 ? absl::StrCat(base_tag, "/image/", i)
                                 : absl::StrCat(base_tag, "/image"));
      Summary::Image* image = v->mutable_image();
      image->set_height(height);
      image->set_width(width);
      image->set_colorspace(depth);
      // TensorFlow's settings for summary images: 8-bit samples, zlib's default level
      // (`image` here is the Summary field, hence the qualified namespace).
      sluice::image::PngEncodeOptions png;
      png.width = width;
      png.height = height;
      png.row_bytes = int64_t{width} * depth;
      png.channels = depth;
      png.bits = 8;
      png.compression = -1;
      OP_REQUIRES(ctx, sluice::image::EncodePng(pixels, png, image->mutable_encoded_image_string()),
                  errors::Internal("PNG encoding failed"));
    }
    OP_REQUIRES_OK(ctx, summary::SetSummaryOutput(ctx, summary));
  }

 private:
  int max_images_;
  Tensor bad_color_;
};

REGISTER_KERNEL_BUILDER(Name("ImageSummary").Device(DEVICE_CPU), ImageSummaryOp);

}  // namespace
}  // namespace sluice
