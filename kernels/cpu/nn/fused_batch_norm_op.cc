// FusedBatchNorm, FusedBatchNormV2 and FusedBatchNormV3 on the CPU, forward pass (TensorFlow's
// semantics). V2 is V1 with the data type T (float, half or bfloat16) apart from the
// statistics' type U (float).
//
//   y = (x - mean) * rsqrt(variance + epsilon) * scale + offset, per channel
//
// Inference (is_training=false) takes mean and variance from the inputs and passes them
// through as batch_mean/batch_variance. Training computes the batch statistics over every
// dim but the channels: y uses the biased variance; batch_variance is the running estimate,
// Bessel-corrected (n / (n - 1)) and, when exponential_avg_factor f != 1, blended as
// (1 - f) * old + f * new with the inputs. reserve_space_1/2 hold the mean and the biased
// variance the gradient needs (the given mean/variance in inference). An empty x gives NaN
// statistics, as in TensorFlow.
//
// reserve_space_3 (V3 only) carries nothing on the CPU; its shape is the one TensorFlow's
// CPU kernels give: [0] where its oneDNN kernel runs (4-D float and bfloat16), a scalar 0
// where its Eigen kernel does (half, and 5-D data).
//
// Layouts: channels last (NHWC, NDHWC) is a [rows, C] matrix; channels first (NCHW, NCDHW)
// is [N, C, inner]. T is float, half or bfloat16; statistics (U) are float and accumulate
// in double, in fixed blocks, so results do not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/batch_norm_args.h"
#include "kernels/cpu/nn/batch_norm_stats.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// Fills output `index` (U = float) with `value`.
absl::Status FillOutput(OpKernelContext* ctx, int index, const TensorShape& shape, float value) {
  Tensor* t = nullptr;
  RETURN_IF_ERROR(ctx->allocate_output(index, shape, &t));
  std::fill_n(t->flat<float>().data(), t->NumElements(), value);
  return absl::OkStatus();
}

template <typename T, bool kV3>
class FusedBatchNormOp : public OpKernel {
 public:
  explicit FusedBatchNormOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
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
    const int64_t channels = layout.channels;

    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, x.shape(), &y));
    if (kV3) OP_REQUIRES_OK(ctx, FillOutput(ctx, 5, ReserveSpace3Shape(x), 0.0f));
    if (x.NumElements() == 0) {
      const float nan = std::numeric_limits<float>::quiet_NaN();
      OP_REQUIRES_OK(ctx, FillOutput(ctx, 1, scale.shape(), nan));
      OP_REQUIRES_OK(ctx, FillOutput(ctx, 2, scale.shape(), nan));
      OP_REQUIRES_OK(ctx, FillOutput(ctx, 3, scale.shape(), 0.0f));
      OP_REQUIRES_OK(ctx, FillOutput(ctx, 4, scale.shape(), 0.0f));
      return;
    }
    if (attrs_.channels_last) {
      layout.outer = x.NumElements() / channels;
      layout.inner = 1;
    } else {
      layout.outer = x.dim_size(0);
      layout.inner = x.NumElements() / (layout.outer * channels);
    }

    // The statistics y is normalized with: the batch's in training, the inputs' otherwise.
    ScratchArray<float> norm_mean, norm_var, multiplier;
    OP_REQUIRES_OK(ctx, norm_mean.Allocate(ctx, channels));
    OP_REQUIRES_OK(ctx, norm_var.Allocate(ctx, channels));
    OP_REQUIRES_OK(ctx, multiplier.Allocate(ctx, channels));
    if (attrs_.is_training) {
      OP_REQUIRES_OK(
          ctx, BatchMoments<T>(ctx, layout, x.flat<T>().data(), norm_mean.data(), norm_var.data()));
    } else {
      std::copy_n(mean.flat<float>().data(), channels, norm_mean.data());
      std::copy_n(variance.flat<float>().data(), channels, norm_var.data());
    }
    const float* scale_data = scale.flat<float>().data();
    for (int64_t c = 0; c < channels; ++c) {
      multiplier[c] = scale_data[c] / std::sqrt(norm_var[c] + attrs_.epsilon);
    }
    Normalize<T>(ctx, layout, x.flat<T>().data(), norm_mean.data(), multiplier.data(),
                 offset.flat<float>().data(), y->flat<T>().data());
    WriteStatistics(ctx, layout, mean, variance, scale.shape(), norm_mean.data(), norm_var.data());
  }

 private:
  // Outputs 1..4. Reads the mean/variance inputs before writing, as outputs 1 and 2 may
  // reuse their buffers.
  void WriteStatistics(OpKernelContext* ctx, const BatchNormLayout& layout, const Tensor& mean,
                       const Tensor& variance, const TensorShape& shape, const float* batch_mean,
                       const float* batch_var) {
    const int64_t channels = layout.channels;
    Tensor* reserve_1 = nullptr;
    Tensor* reserve_2 = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, shape, &reserve_1));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(4, shape, &reserve_2));
    std::copy_n(batch_mean, channels, reserve_1->flat<float>().data());
    std::copy_n(batch_var, channels, reserve_2->flat<float>().data());
    Tensor* mean_out = nullptr;
    Tensor* var_out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({3}, 1, shape, &mean_out));
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({4}, 2, shape, &var_out));
    float* m = mean_out->flat<float>().data();
    float* v = var_out->flat<float>().data();
    if (!attrs_.is_training) {
      std::copy_n(batch_mean, channels, m);
      std::copy_n(batch_var, channels, v);
      return;
    }
    const int64_t count = layout.outer * layout.inner;
    const float bessel = static_cast<float>(count) / static_cast<float>(count > 1 ? count - 1 : 1);
    const float f = attrs_.exponential_avg_factor;
    if (f == 1.0f) {
      for (int64_t c = 0; c < channels; ++c) {
        m[c] = batch_mean[c];
        v[c] = batch_var[c] * bessel;
      }
      return;
    }
    const float* old_mean = mean.flat<float>().data();
    const float* old_var = variance.flat<float>().data();
    for (int64_t c = 0; c < channels; ++c) {
      const float om = old_mean[c];
      const float ov = old_var[c];
      m[c] = (1 - f) * om + f * batch_mean[c];
      v[c] = (1 - f) * ov + (f * bessel) * batch_var[c];
    }
  }

  BatchNormAttrs attrs_;
};

REGISTER_KERNEL_BUILDER(Name("FusedBatchNorm").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        (FusedBatchNormOp<float, false>));
#define REGISTER_FUSED_BATCH_NORM_V2(T)                    \
  REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV2")         \
                              .Device(DEVICE_CPU)          \
                              .TypeConstraint<T>("T")      \
                              .TypeConstraint<float>("U"), \
                          (FusedBatchNormOp<T, false>));
SLUICE_CALL_float(REGISTER_FUSED_BATCH_NORM_V2) SLUICE_CALL_half(REGISTER_FUSED_BATCH_NORM_V2)
    SLUICE_CALL_bfloat16(REGISTER_FUSED_BATCH_NORM_V2)
#undef REGISTER_FUSED_BATCH_NORM_V2
#define REGISTER_FUSED_BATCH_NORM_V3(T)                    \
  REGISTER_KERNEL_BUILDER(Name("FusedBatchNormV3")         \
                              .Device(DEVICE_CPU)          \
                              .TypeConstraint<T>("T")      \
                              .TypeConstraint<float>("U"), \
                          (FusedBatchNormOp<T, true>));
        SLUICE_CALL_float(REGISTER_FUSED_BATCH_NORM_V3)
            SLUICE_CALL_half(REGISTER_FUSED_BATCH_NORM_V3)
                SLUICE_CALL_bfloat16(REGISTER_FUSED_BATCH_NORM_V3)
#undef REGISTER_FUSED_BATCH_NORM_V3

}  // namespace
}  // namespace sluice
