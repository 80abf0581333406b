// DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeBmp, DecodeGif, DecodeImage and
// ExtractJpegShape. As in TensorFlow, the decoding ops look at the data's leading bytes rather
// than at their own name: DecodeJpeg decodes a PNG or a one-frame GIF, DecodeGif a JPEG (as one
// frame), and only DecodeBmp and DecodeImage take BMP, whose op decodes nothing else. Sluice
// decodes JPEG, PNG, GIF and BMP; WebP and JPEG XL data is UNIMPLEMENTED (TensorFlow decodes
// them too).
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/bmp_decoder.h"
#include "kernels/cpu/image/gif_decoder.h"
#include "kernels/cpu/image/jpeg_decoder.h"
#include "kernels/cpu/image/png_decoder.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace image {
namespace {

enum class Format { kJpeg, kPng, kGif, kBmp, kWebp, kUnknown };

Format Classify(absl::string_view data) {
  if (absl::StartsWith(data, "\xff\xd8\xff")) return Format::kJpeg;
  if (absl::StartsWith(data, absl::string_view("\x89PNG\r\n\x1a\n", 8))) return Format::kPng;
  if (absl::StartsWith(data, "GIF8")) return Format::kGif;
  if (absl::StartsWith(data, "BM")) return Format::kBmp;
  if (data.size() > 12 && absl::StartsWith(data, "RIFF") && data.substr(8, 4) == "WEBP") {
    return Format::kWebp;
  }
  return Format::kUnknown;
}

class DecodeImageOp : public OpKernel {
 public:
  explicit DecodeImageOp(OpKernelConstruction* ctx) : OpKernel(ctx), op_(type_string()) {
    const bool jpeg_op = op_ == "DecodeJpeg" || op_ == "DecodeAndCropJpeg";
    if (jpeg_op) {
      int64_t ratio = 1;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("ratio", &ratio));
      OP_REQUIRES(ctx, ratio == 1 || ratio == 2 || ratio == 4 || ratio == 8,
                  errors::InvalidArgument("ratio must be 1, 2, 4, or 8, got ", ratio));
      jpeg_.ratio = static_cast<int>(ratio);
      OP_REQUIRES_OK(ctx, ctx->GetAttr("fancy_upscaling", &jpeg_.fancy_upscaling));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("try_recover_truncated", &jpeg_.try_recover_truncated));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("acceptable_fraction", &jpeg_.acceptable_fraction));
      std::string dct_method;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("dct_method", &dct_method));
      OP_REQUIRES(
          ctx,
          dct_method.empty() || dct_method == "INTEGER_FAST" || dct_method == "INTEGER_ACCURATE",
          errors::InvalidArgument(
              "dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}"));
      jpeg_.accurate_dct = dct_method == "INTEGER_ACCURATE";
    }
    if (op_ == "DecodePng" || op_ == "DecodeImage") {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    }
    if (op_ == "DecodeImage") {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("expand_animations", &expand_animations_));
    }
    if (op_ == "DecodeGif") {  // no attr: GIF's frames are RGB
      channels_ = 3;
      return;
    }
    int64_t channels = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("channels", &channels));
    OP_REQUIRES(ctx, channels == 0 || channels == 1 || channels == 3 || channels == 4,
                errors::InvalidArgument("`channels` must be 0, 1, 3 or 4 but got ", channels));
    channels_ = static_cast<int>(channels);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    OP_REQUIRES(ctx, contents.dims() == 0,
                errors::InvalidArgument("`contents` must be scalar but got shape",
                                        contents.shape().DebugString()));
    const std::string& data = contents.scalar<std::string>()();
    OP_REQUIRES(ctx, !data.empty(), errors::InvalidArgument("Input is empty."));
    OP_REQUIRES(ctx, data.size() <= static_cast<size_t>(std::numeric_limits<int>::max()),
                errors::InvalidArgument("Input contents are too large for int: ", data.size()));
    switch (Classify(data)) {
      case Format::kJpeg:
        return DecodeJpegData(ctx, data);
      case Format::kPng:
        return DecodePngData(ctx, data);
      case Format::kBmp:
        return DecodeBmpData(ctx, data);
      case Format::kGif:
        return DecodeGifData(ctx, data);
      case Format::kWebp:
        ctx->SetStatus(errors::Unimplemented(op_, ": Sluice does not decode WebP images"));
        return;
      case Format::kUnknown:
        ctx->SetStatus(errors::InvalidArgument(
            "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."));
        return;
    }
  }

 private:
  void DecodeJpegData(OpKernelContext* ctx, absl::string_view data) {
    OP_REQUIRES(ctx, channels_ != 4, errors::InvalidArgument("JPEG does not support 4 channels"));
    JpegDecodeOptions options = jpeg_;
    options.channels = channels_;
    if (op_ == "DecodeAndCropJpeg") {
      const Tensor& window = ctx->input(1);
      OP_REQUIRES(ctx, window.dims() == 1,
                  errors::InvalidArgument("crop_window must be 1-D, got shape ",
                                          window.shape().DebugString()));
      OP_REQUIRES(ctx, window.dim_size(0) == 4,
                  errors::InvalidArgument("crop_size must have four elements ",
                                          window.shape().DebugString()));
      const auto w = window.flat<int32_t>();
      options.crop = true;
      options.crop_y = w(0);
      options.crop_x = w(1);
      options.crop_height = w(2);
      options.crop_width = w(3);
    } else if (op_ == "DecodeBmp") {
      ctx->SetStatus(
          errors::InvalidArgument("Trying to decode JPEG format using DecodeBmp op. Use "
                                  "`decode_jpeg` or `decode_image` instead."));
      return;
    }
    Tensor* out = nullptr;
    ScratchArray<uint8_t> wide_source;  // the 8-bit pixels when the output is not uint8
    absl::Status status;
    const bool ok = DecodeJpeg(data, options, [&](int height, int width, int channels) {
      // The decoder passes positive dims whose product is below 2^29.
      status = ctx->allocate_output(0, ImageShape(height, width, channels), &out);
      if (!status.ok()) return static_cast<uint8_t*>(nullptr);
      if (dtype_ == DT_UINT8) return out->flat<uint8_t>().data();
      status = wide_source.Allocate(ctx, static_cast<int64_t>(height) * width * channels);
      return status.ok() ? wide_source.data() : nullptr;
    });
    OP_REQUIRES_OK(ctx, status);
    OP_REQUIRES(
        ctx, ok,
        errors::InvalidArgument("jpeg::Uncompress failed. Invalid JPEG data or crop window."));
    Widen(wide_source.data(), out);
  }

  // The shape of one decoded image: DecodeGif's output has a frame dim. The JPEG and PNG
  // paths pass positive dims whose product they have checked.
  TensorShape ImageShape(int64_t height, int64_t width, int64_t channels) const {
    // shape-safe: positive dims, a product below 2^29 (see above)
    if (op_ == "DecodeGif") return TensorShape({1, height, width, channels});
    // shape-safe: positive dims, a product below 2^29 (see above)
    return TensorShape({height, width, channels});
  }

  // Fills `out` (uint16 or float; nothing to do for uint8) from the 8-bit samples at `in`.
  void Widen(const uint8_t* in, Tensor* out) const {
    const int64_t n = out->NumElements();
    if (dtype_ == DT_UINT16) {
      uint16_t* o = out->flat<uint16_t>().data();
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<uint16_t>(in[i] * 256);
    } else if (dtype_ == DT_FLOAT) {
      const float scale = static_cast<float>(1.0 / 255);
      float* o = out->flat<float>().data();
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(in[i]) * scale;
    }
  }

  void DecodeGifData(OpKernelContext* ctx, absl::string_view data) {
    OP_REQUIRES(ctx, channels_ == 0 || channels_ == 3,
                errors::InvalidArgument("channels must be 0 or 3 for GIF, got ", channels_));
    OP_REQUIRES(ctx, op_ != "DecodeBmp",
                errors::InvalidArgument("Trying to decode GIF format using DecodeBmp op. Use "
                                        "`decode_gif` or `decode_image` instead."));
    OP_REQUIRES(ctx, op_ != "DecodeAndCropJpeg",
                errors::InvalidArgument(
                    "DecodeAndCropJpeg operation can run on JPEG only, but detected GIF."));
    Tensor* out = nullptr;
    ScratchArray<uint8_t> wide_source;  // the 8-bit pixels when the output is not uint8
    absl::Status status;
    std::string error;
    // Only DecodeImage may ask for the first frame alone; DecodePng and DecodeJpeg count them
    // all to refuse an animation.
    const bool ok = DecodeGif(
        data, expand_animations_,
        [&](int frames, int width, int height, int channels) -> uint8_t* {
          // giflib's frame sizes are 16-bit, and their count is positive.
          if (op_ == "DecodeGif" || (op_ == "DecodeImage" && expand_animations_)) {
            // shape-safe: non-negative dims below 2^16, a positive frame count (an int)
            status = ctx->allocate_output(0, TensorShape({frames, height, width, channels}), &out);
          } else if (op_ == "DecodeImage" || frames == 1) {
            // shape-safe: non-negative dims below 2^16
            status = ctx->allocate_output(0, TensorShape({height, width, channels}), &out);
          } else {
            status = errors::InvalidArgument(
                "Got ", frames,
                " frames, but animated gifs can only be decoded by tf.io.decode_gif or "
                "tf.io.decode_image");
          }
          if (!status.ok()) return static_cast<uint8_t*>(nullptr);
          if (dtype_ == DT_UINT8) return out->flat<uint8_t>().data();
          status = wide_source.Allocate(ctx, out->NumElements());
          return status.ok() ? wide_source.data() : nullptr;
        },
        &error);
    OP_REQUIRES_OK(ctx, status);
    OP_REQUIRES(ctx, ok,
                errors::InvalidArgument("Invalid GIF data (size ", data.size(), "), ", error));
    Widen(wide_source.data(), out);
  }

  void DecodeBmpData(OpKernelContext* ctx, absl::string_view data) {
    OP_REQUIRES(
        ctx, channels_ != 1,
        errors::InvalidArgument("`channels` must be 0, 3 or 4 for BMP, but got ", channels_));
    if (op_ != "DecodeBmp" && op_ != "DecodeImage") {
      ctx->SetStatus(errors::InvalidArgument(
          op_ == "DecodeAndCropJpeg"
              ? std::string("DecodeAndCropJpeg operation can run on JPEG only, but detected BMP.")
              : "Trying to decode BMP format using a wrong op. Use `decode_bmp` or "
                "`decode_image` instead. Op used: " +
                    op_));
      return;
    }
    BmpLayout layout;
    OP_REQUIRES_OK(ctx, ReadBmpLayout(data, &layout));
    const int channels = channels_ != 0 ? channels_ : layout.channels;
    Tensor* out = nullptr;
    // shape-safe: ReadBmpLayout keeps width * height below 2^28, both positive
    OP_REQUIRES_OK(
        ctx, ctx->allocate_output(0, TensorShape({layout.height, layout.width, channels}), &out));
    if (dtype_ == DT_UINT8) {
      DecodeBmpPixels(data, layout, channels, out->flat<uint8_t>().data());
      return;
    }
    // TensorFlow sizes this buffer with the signed height and so fails on a top-down BMP;
    // Sluice decodes it.
    ScratchArray<uint8_t> narrow;
    OP_REQUIRES_OK(ctx, narrow.Allocate(ctx, out->NumElements()));
    DecodeBmpPixels(data, layout, channels, narrow.data());
    Widen(narrow.data(), out);
  }

  void DecodePngData(OpKernelContext* ctx, absl::string_view data) {
    const int bits = dtype_ == DT_UINT8 ? 8 : 16;
    PngDecoder decoder;
    OP_REQUIRES(ctx, decoder.Start(data, channels_, bits),
                errors::InvalidArgument("Invalid PNG. Failed to initialize decoder."));
    const int64_t width = decoder.width(), height = decoder.height();
    OP_REQUIRES(ctx,
                width < (int64_t{1} << 27) && height < (int64_t{1} << 27) &&
                    width * height < (int64_t{1} << 29),
                errors::InvalidArgument("PNG size too large for int: ", width, " by ", height));
    Tensor* out = nullptr;
    // Positive dims (Start refuses an empty image) checked just above.
    OP_REQUIRES_OK(ctx,
                   ctx->allocate_output(0, ImageShape(height, width, decoder.channels()), &out));
    OP_REQUIRES(ctx, op_ != "DecodeBmp",
                errors::InvalidArgument("Trying to decode PNG format using DecodeBmp op. Use "
                                        "`decode_png` or `decode_image` instead."));
    OP_REQUIRES(ctx, op_ != "DecodeAndCropJpeg",
                errors::InvalidArgument(
                    "DecodeAndCropJpeg operation can run on JPEG only, but detected PNG."));
    const int64_t row_samples = width * decoder.channels();
    if (dtype_ == DT_UINT8) {
      OP_REQUIRES(ctx, decoder.Finish(out->flat<uint8_t>().data(), row_samples),
                  errors::InvalidArgument("Invalid PNG data, size ", data.size()));
    } else if (dtype_ == DT_UINT16) {
      OP_REQUIRES(
          ctx,
          decoder.Finish(reinterpret_cast<uint8_t*>(out->flat<uint16_t>().data()), row_samples * 2),
          errors::InvalidArgument("Invalid PNG data, size ", data.size()));
    } else {
      ScratchArray<uint16_t> wide;
      OP_REQUIRES_OK(ctx, wide.Allocate(ctx, height * row_samples));
      OP_REQUIRES(ctx, decoder.Finish(reinterpret_cast<uint8_t*>(wide.data()), row_samples * 2),
                  errors::InvalidArgument("Invalid PNG data, size ", data.size()));
      const float scale = static_cast<float>(1.0 / 65535);
      float* o = out->flat<float>().data();
      for (int64_t i = 0; i < height * row_samples; ++i) {
        o[i] = static_cast<float>(wide.data()[i]) * scale;
      }
    }
  }

  const std::string op_;
  JpegDecodeOptions jpeg_;  // TensorFlow's defaults for DecodePng and DecodeImage
  DataType dtype_ = DT_UINT8;
  bool expand_animations_ = true;
  int channels_ = 0;
};

class ExtractJpegShapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    OP_REQUIRES(ctx, contents.dims() == 0,
                errors::InvalidArgument("contents must be scalar, got shape ",
                                        contents.shape().DebugString()));
    const std::string& data = contents.scalar<std::string>()();
    int height = 0, width = 0, channels = 0;
    OP_REQUIRES(ctx, JpegHeaderShape(data, &height, &width, &channels),
                errors::InvalidArgument("Invalid JPEG data, size ", data.size()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({3}), &out));
    if (out->dtype() == DT_INT32) {
      auto v = out->flat<int32_t>();
      v(0) = height;
      v(1) = width;
      v(2) = channels;
    } else {
      auto v = out->flat<int64_t>();
      v(0) = height;
      v(1) = width;
      v(2) = channels;
    }
  }
};

REGISTER_KERNEL_BUILDER(Name("DecodeJpeg").Device(DEVICE_CPU), DecodeImageOp);
REGISTER_KERNEL_BUILDER(Name("DecodeAndCropJpeg").Device(DEVICE_CPU), DecodeImageOp);
REGISTER_KERNEL_BUILDER(Name("DecodePng").Device(DEVICE_CPU), DecodeImageOp);
REGISTER_KERNEL_BUILDER(Name("DecodeBmp").Device(DEVICE_CPU), DecodeImageOp);
REGISTER_KERNEL_BUILDER(Name("DecodeGif").Device(DEVICE_CPU), DecodeImageOp);
REGISTER_KERNEL_BUILDER(Name("DecodeImage").Device(DEVICE_CPU), DecodeImageOp);
REGISTER_KERNEL_BUILDER(Name("ExtractJpegShape").Device(DEVICE_CPU), ExtractJpegShapeOp);

}  // namespace
}  // namespace image
}  // namespace sluice
