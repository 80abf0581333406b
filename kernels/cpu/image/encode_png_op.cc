// EncodePng: each [height, width, channels] image of a uint8 or uint16 tensor with any number
// of leading batch dims becomes one PNG string, the images encoded in parallel. The checks,
// their order and messages are TensorFlow's, including its 32-bit view of the dims (an image
// of 2^31 or more elements is refused first) and its INTERNAL error listing every image that
// could not be encoded (those of zero height or width).
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/png_encoder.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace image {
namespace {

class EncodePngOp : public OpKernel {
 public:
  explicit EncodePngOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int32_t compression = -1;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("compression", &compression));
    OP_REQUIRES(ctx, -1 <= compression && compression <= 9,
                errors::InvalidArgument("compression should be in [-1,9], got ", compression));
    compression_ = static_cast<int>(compression);
    const DataType dtype = ctx->input_type(0);
    OP_REQUIRES(ctx, dtype == DT_UINT8 || dtype == DT_UINT16,
                errors::InvalidArgument("image must have type uint8 or uint16, got ",
                                        DataTypeString(dtype)));
    bits_ = dtype == DT_UINT8 ? 8 : 16;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& image = ctx->input(0);
    OP_REQUIRES(
        ctx, image.dims() >= 3,
        errors::InvalidArgument("images must be at least rank 3", image.shape().DebugString()));
    OP_REQUIRES(ctx, image.NumElements() < std::numeric_limits<int32_t>::max(),
                errors::InvalidArgument("image cannot have >= int32 max elements"));
    // TensorFlow reads the dims as int32 (they are exact unless the image is empty) and
    // multiplies width by channels in 32 bits.
    const int batch_dims = image.dims() - 3;
    const int32_t height = static_cast<int32_t>(image.dim_size(batch_dims));
    const int32_t width = static_cast<int32_t>(image.dim_size(batch_dims + 1));
    const int32_t channels = static_cast<int32_t>(image.dim_size(batch_dims + 2));
    const uint32_t row_samples = static_cast<uint32_t>(width) * static_cast<uint32_t>(channels);
    OP_REQUIRES(ctx, row_samples < static_cast<uint32_t>(std::numeric_limits<int32_t>::max() / 2),
                errors::InvalidArgument("image too wide to encode"));
    OP_REQUIRES(ctx, channels >= 1 && channels <= 4,
                errors::InvalidArgument("image must have 1, 2, 3, or 4 channels, got ", channels));
    TensorShape batch_shape;
    for (int i = 0; i < batch_dims; ++i) {
      // shape-safe: a prefix of the input's own valid shape
      batch_shape.AddDim(image.dim_size(i));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, batch_shape, &output));
    const int64_t batches = batch_shape.num_elements();
    if (batches == 0) return;

    PngEncodeOptions options;
    options.width = width;
    options.height = height;
    options.channels = channels;
    options.bits = bits_;
    options.compression = compression_;
    // row_samples < 2^30 and the image < 2^31 elements, so these fit.
    options.row_bytes = static_cast<int64_t>(row_samples) * (bits_ / 8);
    const int64_t image_bytes = options.row_bytes * height;
    const uint8_t* pixels = static_cast<const uint8_t*>(image.raw_data());
    std::string* out = output->flat<std::string>().data();
    ScratchArray<uint8_t> failed;
    OP_REQUIRES_OK(ctx, failed.Allocate(ctx, batches));
    const Eigen::TensorOpCost cost(image_bytes, image_bytes, 20.0 * image_bytes);
    ParallelFor(ctx, batches, image.NumElements(), cost, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        failed.data()[i] = EncodePng(pixels + i * image_bytes, options, &out[i]) ? 0 : 1;
      }
    });
    std::string failures;
    for (int64_t i = 0; i < batches; ++i) {
      if (failed.data()[i]) absl::StrAppend(&failures, failures.empty() ? "" : ", ", i);
    }
    OP_REQUIRES(ctx, failures.empty(),
                errors::Internal("PNG encoding failed at the following flattened batch indices: ",
                                 failures));
  }

 private:
  int compression_ = -1;
  int bits_ = 8;
};

REGISTER_KERNEL_BUILDER(Name("EncodePng").Device(DEVICE_CPU), EncodePngOp);

}  // namespace
}  // namespace image
}  // namespace sluice
