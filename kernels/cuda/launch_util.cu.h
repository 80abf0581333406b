// What the .cu files of kernels/cuda share: launch shapes for grid-stride loops and the
// dispatch from an ElementType to the element type a kernel template takes. nvcc only.
#ifndef SLUICE_KERNELS_CUDA_LAUNCH_UTIL_CU_H_
#define SLUICE_KERNELS_CUDA_LAUNCH_UTIL_CU_H_

#include <cstdint>

#include "kernels/cuda/cwise_launch.h"
#include "kernels/cuda/half_bits.h"

namespace sluice {
namespace cuda {

// Threads per block of the elementwise kernels.
constexpr int kBlockThreads = 256;

// Blocks for a grid-stride loop over n elements: one element per thread up to a cap past
// which threads loop (more blocks than this only add scheduling work; a Hopper GPU runs
// about 1,000 such blocks at once).
inline unsigned BlocksFor(int64_t n) {
  constexpr int64_t kMaxBlocks = 8192;
  const int64_t blocks = (n + kBlockThreads - 1) / kBlockThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

// The first element and the stride of this thread in a grid-stride loop.
__device__ inline int64_t GridStart() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline int64_t GridStride() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

// Combines v over the kGroup threads (32: a warp; kBlockThreads: the whole block) that share
// one row, with `combine` (associative; applied in the same order for every launch of the
// same shape, so results are deterministic). Every thread of the group gets the result.
// REQUIRES: kGroup is 32 or kBlockThreads, the block has kBlockThreads threads, and for
// kBlockThreads every thread of the block calls it (it synchronises the block).
template <int kGroup, typename Combine>
__device__ float GroupReduce(float v, Combine combine) {
  static_assert(kGroup == 32 || kGroup == kBlockThreads, "a warp or the block");
  for (int offset = 16; offset > 0; offset /= 2) {
    v = combine(v, __shfl_xor_sync(0xffffffffu, v, offset));
  }
  if constexpr (kGroup == kBlockThreads) {
    constexpr int kWarps = kBlockThreads / 32;
    __shared__ float warp_results[kWarps];
    __syncthreads();  // an earlier call's readers are done with warp_results
    if (threadIdx.x % 32 == 0) warp_results[threadIdx.x / 32] = v;
    __syncthreads();
    v = warp_results[0];
    for (int w = 1; w < kWarps; ++w) v = combine(v, warp_results[w]);
  }
  return v;
}

// Calls fn(S{}) with S the element type of `type` among float, Half and BFloat16; false for
// any other type.
template <typename Fn>
bool VisitFloatType(ElementType type, Fn&& fn) {
  switch (type) {
    case ElementType::kFloat:
      fn(float{});
      return true;
    case ElementType::kHalf:
      fn(Half{});
      return true;
    case ElementType::kBFloat16:
      fn(BFloat16{});
      return true;
    default:
      return false;
  }
}

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_LAUNCH_UTIL_CU_H_
