// The CUDA ArgMax/ArgMin kernel: one thread per output element scans its column of the
// [outer, reduced, inner] view, as the CPU kernel does (kernels/cpu/reduction/
// argminmax_ops.cc): from index 0 and the lowest (highest) value of the element type, taking
// a later element only when it compares strictly greater (less), so ties keep the first index
// and NaN is never picked. See reduction_launch.h.
#include <cstdint>

#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"
#include "kernels/cuda/reduction_launch.h"

namespace sluice {
namespace cuda {
namespace {

// The lowest finite value of S, as float.
template <typename S>
__device__ float Lowest();
template <>
__device__ float Lowest<float>() {
  return -3.40282347e+38f;
}
template <>
__device__ float Lowest<Half>() {
  return -65504.0f;
}
template <>
__device__ float Lowest<BFloat16>() {
  return -3.38953139e+38f;  // -0x1.fep+127
}

template <typename S, bool kMax>
__global__ void ArgKernel(const S* x, int64_t outer, int64_t reduced, int64_t inner, int64_t* out) {
  const int64_t n = outer * inner;
  for (int64_t k = GridStart(); k < n; k += GridStride()) {
    const int64_t o = k / inner;
    const int64_t i = k - o * inner;
    const S* column = x + o * reduced * inner + i;
    float best = kMax ? Lowest<S>() : -Lowest<S>();
    int64_t index = 0;
    for (int64_t r = 0; r < reduced; ++r) {
      const float v = Load<S>(column[r * inner]);
      if (kMax ? v > best : v < best) {
        best = v;
        index = r;
      }
    }
    out[k] = index;
  }
}

}  // namespace

bool LaunchArgReduce(bool max, ElementType type, const void* in, int64_t outer, int64_t reduced,
                     int64_t inner, int64_t* out, CUstream_st* stream) {
  const int64_t n = outer * inner;
  return VisitFloatType(type, [&](auto tag) {
    using S = decltype(tag);
    const S* x = static_cast<const S*>(in);
    if (max) {
      ArgKernel<S, true><<<BlocksFor(n), kBlockThreads, 0, stream>>>(x, outer, reduced, inner, out);
    } else {
      ArgKernel<S, false>
          <<<BlocksFor(n), kBlockThreads, 0, stream>>>(x, outer, reduced, inner, out);
    }
  });
}

}  // namespace cuda
}  // namespace sluice
