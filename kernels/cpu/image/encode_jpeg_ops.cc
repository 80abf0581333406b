// EncodeJpeg and EncodeJpegVariableQuality: one [height, width, channels] uint8 image (1 or 3
// channels) becomes a JPEG string. EncodeJpegVariableQuality takes the quality as a scalar
// input and libjpeg's other settings at TensorFlow's defaults. Checks and messages are
// TensorFlow's; an image libjpeg cannot encode (empty, 2^29 pixels or more, XMP metadata over
// a marker's size) is TensorFlow's INTERNAL "JPEG encoding failed".
#include <cstdint>
#include <limits>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/jpeg_encoder.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace image {
namespace {

// The checks both ops make of the image before its channels.
bool CheckImage(OpKernelContext* ctx, const Tensor& image) {
  if (image.dims() != 3) {
    ctx->SetStatus(
        errors::InvalidArgument("image must be 3-dimensional", image.shape().DebugString()));
    return false;
  }
  if (image.NumElements() >= std::numeric_limits<int32_t>::max()) {
    ctx->SetStatus(errors::InvalidArgument("Cannot encode images with >= max int32 elements"));
    return false;
  }
  return true;
}

void Encode(OpKernelContext* ctx, const Tensor& image, const JpegEncodeOptions& options) {
  Tensor* output = nullptr;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &output));
  // The dims are below 2^31 (the image has fewer elements) unless it is empty, where TensorFlow
  // reads them as int32 all the same; an empty image fails in the encoder.
  const int height = static_cast<int32_t>(image.dim_size(0));
  const int width = static_cast<int32_t>(image.dim_size(1));
  OP_REQUIRES(ctx,
              EncodeJpeg(static_cast<const uint8_t*>(image.raw_data()), width, height, options,
                         &output->scalar<std::string>()()),
              errors::Internal("JPEG encoding failed"));
}

// The image's own format: 1 channel gray, 3 RGB.
bool ChannelsFromImage(OpKernelContext* ctx, const Tensor& image, int* channels) {
  const int64_t c = image.dim_size(2);
  if (c != 1 && c != 3) {
    ctx->SetStatus(errors::InvalidArgument("image must have 1 or 3 channels, got ",
                                           image.shape().DebugString()));
    return false;
  }
  *channels = static_cast<int>(c);
  return true;
}

class EncodeJpegOp : public OpKernel {
 public:
  explicit EncodeJpegOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("format", &format_));
    OP_REQUIRES(ctx, format_.empty() || format_ == "grayscale" || format_ == "rgb",
                errors::InvalidArgument("format must be '', grayscale or rgb, got ", format_));
    int32_t quality = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("quality", &quality));
    OP_REQUIRES(ctx, 0 <= quality && quality <= 100,
                errors::InvalidArgument("quality must be in [0,100], got ", quality));
    options_.quality = quality;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("progressive", &options_.progressive));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("optimize_size", &options_.optimize_size));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("chroma_downsampling", &options_.chroma_downsampling));
    std::string unit;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("density_unit", &unit));
    OP_REQUIRES(ctx, unit == "in" || unit == "cm",
                errors::InvalidArgument("density_unit must be 'in' or 'cm'", unit));
    options_.density_unit = unit == "in" ? 1 : 2;
    int32_t x_density = 0, y_density = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("x_density", &x_density));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("y_density", &y_density));
    options_.x_density = x_density;
    options_.y_density = y_density;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("xmp_metadata", &xmp_metadata_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& image = ctx->input(0);
    if (!CheckImage(ctx, image)) return;
    JpegEncodeOptions options = options_;
    options.xmp_metadata = xmp_metadata_;
    if (format_.empty()) {
      if (!ChannelsFromImage(ctx, image, &options.channels)) return;
    } else {
      options.channels = format_ == "grayscale" ? 1 : 3;
      OP_REQUIRES(ctx, image.dim_size(2) == options.channels,
                  errors::InvalidArgument("format ", format_, " expects ", options.channels,
                                          " channels, got ", image.shape().DebugString()));
    }
    Encode(ctx, image, options);
  }

 private:
  std::string format_;
  std::string xmp_metadata_;
  JpegEncodeOptions options_;
};

class EncodeJpegVariableQualityOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& image = ctx->input(0);
    if (!CheckImage(ctx, image)) return;
    const Tensor& quality = ctx->input(1);
    OP_REQUIRES(ctx, quality.dims() == 0,
                errors::InvalidArgument("quality must be scalar: ", quality.shape().DebugString()));
    JpegEncodeOptions options;
    options.quality = quality.scalar<int32_t>()();
    OP_REQUIRES(ctx, 0 <= options.quality && options.quality <= 100,
                errors::InvalidArgument("quality must be in [0,100], got ", options.quality));
    if (!ChannelsFromImage(ctx, image, &options.channels)) return;
    Encode(ctx, image, options);
  }
};

REGISTER_KERNEL_BUILDER(Name("EncodeJpeg").Device(DEVICE_CPU), EncodeJpegOp);
REGISTER_KERNEL_BUILDER(Name("EncodeJpegVariableQuality").Device(DEVICE_CPU),
                        EncodeJpegVariableQualityOp);

}  // namespace
}  // namespace image
}  // namespace sluice
