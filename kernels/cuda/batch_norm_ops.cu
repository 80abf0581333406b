// The CUDA FusedBatchNorm kernels: per-element normalisation, per-channel batch moments (one
// block per channel, double sums reduced in a fixed order, so results are deterministic) and
// the statistics outputs. See batch_norm_launch.h.
//
// Rounding follows the CPU kernel: __f*_rn intrinsics keep nvcc from contracting a multiply
// and an add into one fused operation, which would round once where the CPU rounds twice.
// The moments read one channel's elements per block: strided for channels-last data (a
// coalesced tile-per-block reduction would be faster; not done yet).
#include <cstdint>

#include "kernels/cuda/batch_norm_launch.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"

namespace sluice {
namespace cuda {
namespace {

template <typename S>
__global__ void ApplyKernel(const S* x, const float* scale, const float* offset, const float* mean,
                            const float* variance, float epsilon, S* y, BatchNormShape shape) {
  const int64_t n = shape.outer * shape.channels * shape.inner;
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    const int64_t c = (shape.inner == 1 ? i : i / shape.inner) % shape.channels;
    const float multiplier = __fdiv_rn(scale[c], __fsqrt_rn(__fadd_rn(variance[c], epsilon)));
    const float centred = __fsub_rn(Load<S>(x[i]), mean[c]);
    y[i] = Store<S>(__fadd_rn(__fmul_rn(centred, multiplier), offset[c]));
  }
}

// The sum of v over the block, in thread order; every thread gets it.
__device__ double BlockSum(double v) {
  __shared__ double partial[kBlockThreads];
  __syncthreads();  // an earlier call's readers are done
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int width = kBlockThreads / 2; width > 0; width /= 2) {
    if (threadIdx.x < width) partial[threadIdx.x] += partial[threadIdx.x + width];
    __syncthreads();
  }
  return partial[0];
}

// Block c: channel c's elements (r, c, i) for r < outer, i < inner.
template <typename S>
__global__ void MomentsKernel(const S* x, BatchNormShape shape, float* mean, float* variance) {
  const int64_t c = blockIdx.x;
  const int64_t count = shape.outer * shape.inner;
  const auto element = [&](int64_t k) {
    const int64_t r = k / shape.inner;
    const int64_t i = k - r * shape.inner;
    return static_cast<double>(Load<S>(x[(r * shape.channels + c) * shape.inner + i]));
  };
  double sum = 0;
  for (int64_t k = threadIdx.x; k < count; k += blockDim.x) sum += element(k);
  const double m = BlockSum(sum) / static_cast<double>(count);
  double squares = 0;
  for (int64_t k = threadIdx.x; k < count; k += blockDim.x) {
    const double d = element(k) - m;
    squares += d * d;
  }
  const double v = BlockSum(squares) / static_cast<double>(count);
  if (threadIdx.x == 0) {
    mean[c] = static_cast<float>(m);
    variance[c] = static_cast<float>(v);
  }
}

__global__ void StatisticsKernel(bool training, const float* m, const float* v,
                                 const float* old_mean, const float* old_variance, float f,
                                 float bessel, float* mean_out, float* variance_out,
                                 int64_t channels) {
  for (int64_t c = GridStart(); c < channels; c += GridStride()) {
    if (!training) {
      const float mc = m[c];
      const float vc = v[c];
      mean_out[c] = mc;
      variance_out[c] = vc;
    } else if (f == 1.0f) {
      mean_out[c] = m[c];
      variance_out[c] = __fmul_rn(v[c], bessel);
    } else {
      const float om = old_mean[c];
      const float ov = old_variance[c];
      const float keep = __fsub_rn(1.0f, f);
      mean_out[c] = __fadd_rn(__fmul_rn(keep, om), __fmul_rn(f, m[c]));
      variance_out[c] = __fadd_rn(__fmul_rn(keep, ov), __fmul_rn(__fmul_rn(f, bessel), v[c]));
    }
  }
}

__global__ void FillKernel(float value, float* out, int64_t n) {
  for (int64_t i = GridStart(); i < n; i += GridStride()) out[i] = value;
}

}  // namespace

bool LaunchBatchNormApply(ElementType type, const void* x, const float* scale, const float* offset,
                          const float* mean, const float* variance, float epsilon, void* y,
                          const BatchNormShape& shape, CUstream_st* stream) {
  const int64_t n = shape.outer * shape.channels * shape.inner;
  return VisitFloatType(type, [&](auto tag) {
    using S = decltype(tag);
    ApplyKernel<S><<<BlocksFor(n), kBlockThreads, 0, stream>>>(static_cast<const S*>(x), scale,
                                                               offset, mean, variance, epsilon,
                                                               static_cast<S*>(y), shape);
  });
}

bool LaunchBatchMoments(ElementType type, const void* x, const BatchNormShape& shape, float* mean,
                        float* variance, CUstream_st* stream) {
  return VisitFloatType(type, [&](auto tag) {
    using S = decltype(tag);
    MomentsKernel<S><<<static_cast<unsigned>(shape.channels), kBlockThreads, 0, stream>>>(
        static_cast<const S*>(x), shape, mean, variance);
  });
}

void LaunchBatchNormStatistics(bool training, const float* m, const float* v, const float* old_mean,
                               const float* old_variance, float factor, float bessel,
                               float* mean_out, float* variance_out, int64_t channels,
                               CUstream_st* stream) {
  StatisticsKernel<<<BlocksFor(channels), kBlockThreads, 0, stream>>>(
      training, m, v, old_mean, old_variance, factor, bessel, mean_out, variance_out, channels);
}

void LaunchFillFloat(float value, float* out, int64_t n, CUstream_st* stream) {
  if (n == 0) return;
  FillKernel<<<BlocksFor(n), kBlockThreads, 0, stream>>>(value, out, n);
}

}  // namespace cuda
}  // namespace sluice
