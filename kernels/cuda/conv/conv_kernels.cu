// The CUDA kernels of conv_launch.h: filter layout changes, zero padding and direct pooling.
//
// Each is a grid-stride loop with one output element per iteration; the index arithmetic is
// conv_index.h's, which the host tests check. Filters and padding only move elements, so
// they are written per element size (16 or 32 bits), not per type.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/cuda/conv/conv_index.h"
#include "kernels/cuda/conv/conv_launch.h"

namespace sluice {
namespace cuda {
namespace {

constexpr int kThreads = 256;

// Blocks for a grid-stride loop over n elements: one element per thread up to a cap past
// which threads loop (more blocks only add scheduling work).
unsigned BlocksFor(int64_t n) {
  constexpr int64_t kMaxBlocks = 8192;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

__device__ int64_t GridStart() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ int64_t GridStride() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

template <typename Bits>
__global__ void FilterToCudnnKernel(const Bits* __restrict__ hwio, Bits* __restrict__ out,
                                    FilterDims dims, FilterLayout layout, int64_t n) {
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    out[i] = hwio[HwioSourceIndex(i, dims, layout)];
  }
}

template <typename Bits>
__global__ void ZeroPadKernel(const Bits* __restrict__ in, Bits* __restrict__ out, PadDims pad,
                              int64_t n) {
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    const int64_t source = PadSourceIndex(i, pad);
    out[i] = source < 0 ? Bits(0) : in[source];
  }
}

// Conversions between an element type and float.
__device__ float ToFloat(float x) { return x; }
__device__ float ToFloat(__half x) { return __half2float(x); }
__device__ float ToFloat(__nv_bfloat16 x) { return __bfloat162float(x); }
template <typename T>
__device__ T FromFloat(float x);
template <>
__device__ float FromFloat<float>(float x) {
  return x;
}
template <>
__device__ __half FromFloat<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__device__ __nv_bfloat16 FromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

template <typename T>
__global__ void PoolKernel(const T* __restrict__ in, T* __restrict__ out, PoolDims dims,
                           PoolMode mode, float lowest, int64_t n) {
  const auto load = [in](int64_t j) { return ToFloat(in[j]); };
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    out[i] = FromFloat<T>(PoolOutput(dims, i, mode, lowest, load));
  }
}

template <typename T>
void Pool(const void* in, void* out, const PoolDims& dims, PoolMode mode, float lowest, int64_t n,
          CUstream_st* stream) {
  PoolKernel<T><<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<const T*>(in),
                                                       static_cast<T*>(out), dims, mode, lowest, n);
}

}  // namespace

bool LaunchFilterToCudnn(const void* hwio, void* out, const FilterDims& dims, FilterLayout layout,
                         int element_bytes, CUstream_st* stream) {
  const int64_t n = dims.rows * dims.cols * dims.in_depth * dims.out_depth;
  if (element_bytes != 2 && element_bytes != 4) return false;
  if (n == 0) return true;
  if (element_bytes == 2) {
    FilterToCudnnKernel<<<BlocksFor(n), kThreads, 0, stream>>>(
        static_cast<const uint16_t*>(hwio), static_cast<uint16_t*>(out), dims, layout, n);
  } else {
    FilterToCudnnKernel<<<BlocksFor(n), kThreads, 0, stream>>>(
        static_cast<const uint32_t*>(hwio), static_cast<uint32_t*>(out), dims, layout, n);
  }
  return true;
}

bool LaunchZeroPad(const void* in, void* out, const PadDims& pad, int element_bytes,
                   CUstream_st* stream) {
  const int64_t n = pad.out[0] * pad.out[1] * pad.out[2] * pad.out[3];
  if (element_bytes != 2 && element_bytes != 4) return false;
  if (n == 0) return true;
  if (element_bytes == 2) {
    ZeroPadKernel<<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<const uint16_t*>(in),
                                                         static_cast<uint16_t*>(out), pad, n);
  } else {
    ZeroPadKernel<<<BlocksFor(n), kThreads, 0, stream>>>(static_cast<const uint32_t*>(in),
                                                         static_cast<uint32_t*>(out), pad, n);
  }
  return true;
}

bool LaunchPool(const void* in, void* out, const PoolDims& dims, PoolMode mode, ConvElement type,
                CUstream_st* stream) {
  const int64_t n = dims.batch * dims.out_rows * dims.out_cols * dims.depth;
  if (n == 0) return true;
  // The lowest finite value of each type, where a max window starts (as the CPU kernels').
  switch (type) {
    case ConvElement::kFloat:
      Pool<float>(in, out, dims, mode, -3.40282347e38f, n, stream);
      return true;
    case ConvElement::kHalf:
      Pool<__half>(in, out, dims, mode, -65504.0f, n, stream);
      return true;
    case ConvElement::kBFloat16:
      Pool<__nv_bfloat16>(in, out, dims, mode, -3.38953139e38f, n, stream);
      return true;
  }
  return false;
}

}  // namespace cuda
}  // namespace sluice
