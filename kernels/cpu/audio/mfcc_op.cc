// Mfcc on the CPU: the mel-frequency cepstral coefficients (mfcc.h) of every frame of a
// [channels, frames, bins] squared-magnitude spectrogram, giving [channels, frames,
// dct_coefficient_count].
//
// Errors, INVALID_ARGUMENT with TensorFlow's messages: a spectrogram not of rank 3, a
// sample_rate that is not a scalar, and "Mfcc initialization failed for channel count <bins>,
// sample rate <rate> and filterbank_channel_count <n>" for the attrs and inputs
// MfccPlan::Initialize refuses.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/audio/mfcc.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class MfccOp : public OpKernel {
 public:
  explicit MfccOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    float upper, lower;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("upper_frequency_limit", &upper));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("lower_frequency_limit", &lower));
    OP_REQUIRES_OK(ctx,
                   ctx->GetAttr("filterbank_channel_count", &params_.filterbank_channel_count));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dct_coefficient_count", &params_.dct_coefficient_count));
    params_.upper_frequency_limit = upper;
    params_.lower_frequency_limit = lower;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& spectrogram = ctx->input(0);
    OP_REQUIRES(ctx, spectrogram.dims() == 3,
                errors::InvalidArgument("spectrogram must be 3-dimensional",
                                        spectrogram.shape().DebugString()));
    const Tensor& rate = ctx->input(1);
    OP_REQUIRES(ctx, rate.dims() == 0,
                errors::InvalidArgument("Input sample_rate should be a scalar tensor, got ",
                                        rate.shape().DebugString(), " instead."));
    const int32_t sample_rate = rate.scalar<int32_t>()();
    // TensorFlow reads the dims as ints.
    const int32_t bins = static_cast<int32_t>(spectrogram.dim_size(2));
    const int64_t frames = spectrogram.dim_size(0) * spectrogram.dim_size(1);

    audio::MfccPlan plan;
    bool valid = false;
    OP_REQUIRES_OK(ctx, plan.Initialize(ctx, params_, bins, sample_rate, &valid));
    OP_REQUIRES(
        ctx, valid,
        errors::InvalidArgument("Mfcc initialization failed for channel count ", bins,
                                ", sample rate ", sample_rate, " and filterbank_channel_count ",
                                params_.filterbank_channel_count));
    // Many frames of 2 bins with many coefficients could overflow the element count.
    TensorShape shape;
    OP_REQUIRES_OK(
        ctx, TensorShape::BuildTensorShape(
                 {spectrogram.dim_size(0), spectrogram.dim_size(1), params_.dct_coefficient_count},
                 &shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    const float* in = spectrogram.flat<float>().data();
    float* out = output->flat<float>().data();
    const int64_t channels = params_.filterbank_channel_count;
    const int64_t coefficients = params_.dct_coefficient_count;
    const int64_t width = spectrogram.dim_size(2);
    const Eigen::TensorOpCost cost(sizeof(float) * width, sizeof(float) * coefficients,
                                   10.0 * width + 2.0 * channels * coefficients);
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<double>(
                            ctx, frames, output->NumElements(), cost, channels,
                            [&](int64_t first, int64_t last, double* bands) {
                              for (int64_t f = first; f < last; ++f) {
                                plan.Compute(in + f * width, bands, out + f * coefficients);
                              }
                            }));
  }

 private:
  audio::MfccParams params_;
};

REGISTER_KERNEL_BUILDER(Name("Mfcc").Device(DEVICE_CPU), MfccOp);

}  // namespace
}  // namespace sluice
