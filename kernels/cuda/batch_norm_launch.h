// Launch functions of the CUDA FusedBatchNorm kernels (batch_norm_ops.cu). Contract as
// cwise_launch.h's: device buffers, enqueued on `stream`, errors left for LastLaunchStatus,
// false (nothing launched) for an element type other than float, half and bfloat16.
//
// Data is [outer, channels, inner] (kernels/cpu/nn/batch_norm_args.h's BatchNormLayout);
// statistics are float. The arithmetic is the CPU kernel's, operation for operation, with no
// fused multiply-adds, so outputs match it bit for bit where its sums do (batch_norm_stats.h).
#ifndef SLUICE_KERNELS_CUDA_BATCH_NORM_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_BATCH_NORM_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/cwise_launch.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

struct BatchNormShape {
  int64_t outer = 0;
  int64_t channels = 0;
  int64_t inner = 0;
};

// y = (x - mean[c]) * (scale[c] / sqrt(variance[c] + epsilon)) + offset[c] per element, in
// float, rounded to the element type. y may be x.
bool LaunchBatchNormApply(ElementType type, const void* x, const float* scale, const float* offset,
                          const float* mean, const float* variance, float epsilon, void* y,
                          const BatchNormShape& shape, CUstream_st* stream);

// mean[c] and the biased variance[c] over every dim but the channels: sums in double, the
// variance as the mean of squared deviations from the double mean (two passes), as the CPU.
// REQUIRES: outer * inner >= 1.
bool LaunchBatchMoments(ElementType type, const void* x, const BatchNormShape& shape, float* mean,
                        float* variance, CUstream_st* stream);

// The statistics outputs for each channel c < channels. Training: batch_mean/batch_variance
// are the running estimates, from the batch's mean and biased variance (m, v) and the inputs'
// (old_mean, old_variance, read only when factor != 1):
//   factor == 1: mean_out = m, variance_out = v * bessel
//   otherwise:   mean_out = (1 - f) * old_mean + f * m,
//                variance_out = (1 - f) * old_variance + (f * bessel) * v.
// Inference: mean_out/variance_out = m/v (the inputs). mean_out and variance_out may be
// old_mean's and old_variance's buffers.
void LaunchBatchNormStatistics(bool training, const float* m, const float* v, const float* old_mean,
                               const float* old_variance, float factor, float bessel,
                               float* mean_out, float* variance_out, int64_t channels,
                               CUstream_st* stream);

// out[i] = value for i < n (n >= 0).
void LaunchFillFloat(float value, float* out, int64_t n, CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_BATCH_NORM_LAUNCH_H_
