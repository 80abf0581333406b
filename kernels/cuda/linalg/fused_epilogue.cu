// A GPU _FusedMatMul's epilogue: bias and activation in one pass over the product.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/cuda/linalg/fused_activation.h"
#include "kernels/cuda/linalg/fused_epilogue_launch.h"

namespace sluice {
namespace gpu_fused {
namespace {

template <typename T>
struct Wide {
  using type = float;
};
template <>
struct Wide<double> {
  using type = double;
};

__device__ inline float ToWide(float x) { return x; }
__device__ inline double ToWide(double x) { return x; }
__device__ inline float ToWide(__half x) { return __half2float(x); }
__device__ inline float ToWide(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T>
__device__ inline T FromWide(typename Wide<T>::type x);
template <>
__device__ inline float FromWide<float>(float x) {
  return x;
}
template <>
__device__ inline double FromWide<double>(double x) {
  return x;
}
template <>
__device__ inline __half FromWide<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__device__ inline __nv_bfloat16 FromWide<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

template <typename T>
__global__ void BiasActivationKernel(T* out, const T* bias, long long rows, long long cols,
                                     int activation, float alpha) {
  using W = typename Wide<T>::type;
  const long long n = rows * cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    // Rounded to T after the bias, as a separate BiasAdd then activation would.
    const T biased = FromWide<T>(ToWide(out[i]) + ToWide(bias[i % cols]));
    out[i] = FromWide<T>(Activate<W>(activation, alpha, ToWide(biased)));
  }
}

template <typename T>
void Launch(cudaStream_t stream, int activation, float alpha, void* out, const void* bias,
            long long rows, long long cols) {
  constexpr int kThreads = 256;
  const long long n = rows * cols;
  const long long blocks = std::min<long long>((n + kThreads - 1) / kThreads, 65535LL * 16);
  BiasActivationKernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<T*>(out), static_cast<const T*>(bias), rows, cols, activation, alpha);
}

}  // namespace

void LaunchBiasActivation(CUstream_st* stream, ElementType type, int activation,
                          float leakyrelu_alpha, void* out, const void* bias, int64_t rows,
                          int64_t cols) {
  if (rows == 0 || cols == 0) return;
  switch (type) {
    case ElementType::kFloat:
      Launch<float>(stream, activation, leakyrelu_alpha, out, bias, rows, cols);
      break;
    case ElementType::kHalf:
      Launch<__half>(stream, activation, leakyrelu_alpha, out, bias, rows, cols);
      break;
    case ElementType::kBfloat16:
      Launch<__nv_bfloat16>(stream, activation, leakyrelu_alpha, out, bias, rows, cols);
      break;
    case ElementType::kDouble:
      Launch<double>(stream, activation, leakyrelu_alpha, out, bias, rows, cols);
      break;
  }
}

}  // namespace gpu_fused
}  // namespace sluice
