// FusedBatchNorm (float) and FusedBatchNormV3 (float, half, bfloat16 data; float statistics)
// on GPUs, forward pass, training and inference, with the CPU kernel's checks and messages
// (kernels/cpu/nn/batch_norm_args.h), outputs and arithmetic (batch_norm_ops.cu):
//
//   y = (x - mean) * (scale / sqrt(variance + epsilon)) + offset, per channel
//
// Inference normalises with the mean and variance inputs and passes them through as
// batch_mean/batch_variance and reserve_space_1/2. Training normalises with the batch's mean
// and biased variance (reserve_space_1/2) and outputs the running estimates (Bessel-corrected,
// blended by exponential_avg_factor). An empty x gives NaN statistics. reserve_space_3 has the
// CPU kernel's shape and carries nothing.
#include <cstdint>
#include <limits>

#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/batch_norm_args.h"
#include "kernels/cuda/batch_norm_launch.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

class GpuFusedBatchNormOp : public OpKernel {
 public:
  explicit GpuFusedBatchNormOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ToElementType(input_type(0), &type_));
    OP_REQUIRES_OK(ctx, ParseBatchNormAttrs(ctx, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& scale = ctx->input(1);
    const Tensor& offset = ctx->input(2);
    const Tensor& mean = ctx->input(3);
    const Tensor& variance = ctx->input(4);
    BatchNormLayout layout;
    OP_REQUIRES_OK(ctx, CheckBatchNormArgs(attrs_, x, scale, offset, mean, variance, &layout));
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;

    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, x.shape(), &y));
    if (num_outputs() == 6) {
      Tensor* reserve_3 = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(5, ReserveSpace3Shape(x), &reserve_3));
      LaunchFillFloat(0.0f, reserve_3->flat<float>().data(), reserve_3->NumElements(), stream);
    }
    const TensorShape& shape = scale.shape();
    Tensor* reserve_1 = nullptr;
    Tensor* reserve_2 = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, shape, &reserve_1));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(4, shape, &reserve_2));
    Tensor* mean_out = nullptr;
    Tensor* variance_out = nullptr;
    if (x.NumElements() == 0) {
      const float nan = std::numeric_limits<float>::quiet_NaN();
      OP_REQUIRES_OK(ctx, ctx->allocate_output(1, shape, &mean_out));
      OP_REQUIRES_OK(ctx, ctx->allocate_output(2, shape, &variance_out));
      LaunchFillFloat(nan, mean_out->flat<float>().data(), shape.num_elements(), stream);
      LaunchFillFloat(nan, variance_out->flat<float>().data(), shape.num_elements(), stream);
      LaunchFillFloat(0.0f, reserve_1->flat<float>().data(), shape.num_elements(), stream);
      LaunchFillFloat(0.0f, reserve_2->flat<float>().data(), shape.num_elements(), stream);
      OP_REQUIRES_OK(ctx, LaunchStatus(true, *this));
      return;
    }

    const BatchNormShape bn{layout.outer, layout.channels, layout.inner};
    float* batch_mean = reserve_1->flat<float>().data();
    float* batch_variance = reserve_2->flat<float>().data();
    const float* old_mean = mean.flat<float>().data();
    const float* old_variance = variance.flat<float>().data();
    bool launched = true;
    if (attrs_.is_training) {
      launched = LaunchBatchMoments(type_, x.raw_data(), bn, batch_mean, batch_variance, stream);
    } else {
      // reserve_space_1/2 are the inputs' statistics.
      LaunchBatchNormStatistics(false, old_mean, old_variance, nullptr, nullptr, 1.0f, 1.0f,
                                batch_mean, batch_variance, layout.channels, stream);
    }
    launched =
        launched && LaunchBatchNormApply(type_, x.raw_data(), scale.flat<float>().data(),
                                         offset.flat<float>().data(), batch_mean, batch_variance,
                                         attrs_.epsilon, y->raw_data(), bn, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));

    // Outputs 1 and 2 may take the mean and variance inputs' buffers: each channel's input is
    // read before its output is written.
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({3}, 1, shape, &mean_out));
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({4}, 2, shape, &variance_out));
    const int64_t count = layout.outer * layout.inner;
    const float bessel = static_cast<float>(count) / static_cast<float>(count > 1 ? count - 1 : 1);
    LaunchBatchNormStatistics(attrs_.is_training, batch_mean, batch_variance, old_mean,
                              old_variance, attrs_.exponential_avg_factor, bessel,
                              mean_out->flat<float>().data(), variance_out->flat<float>().data(),
                              layout.channels, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(true, *this));
  }

 private:
  ElementType type_ = ElementType::kFloat;
  BatchNormAttrs attrs_;
};

REGISTER_KERNEL_BUILDER(Name("FusedBatchNorm").Device(DEVICE_GPU).TypeConstraint<float>("T"),
                        GpuFusedBatchNormOp);
REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV3")
                            .Device(DEVICE_GPU)
                            .TypeConstraint("T", FloatTypes())
                            .TypeConstraint<float>("U"),
                        GpuFusedBatchNormOp);

}  // namespace
}  // namespace cuda
}  // namespace sluice
