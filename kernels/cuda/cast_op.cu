// The CUDA Cast kernel: one grid-stride loop per (source, destination) pair of float, half,
// bfloat16, double, int32, int64 and bool, over the conversions of cast_functors.h.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/cuda/cast_functors.h"
#include "kernels/cuda/cwise_launch.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"

namespace sluice {
namespace cuda {
namespace {

template <typename Src, typename Dst, bool kTruncate>
__global__ void CastKernel(const Src* x, Dst* y, int64_t n) {
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    y[i] = kTruncate ? TruncatingConvert<Dst>(x[i]) : Convert<Dst>(x[i]);
  }
}

// Calls fn(T{}) for the element type T of `type`.
template <typename Fn>
bool VisitCastType(ElementType type, Fn&& fn) {
  switch (type) {
    case ElementType::kDouble:
      fn(double{});
      return true;
    case ElementType::kInt32:
      fn(int32_t{});
      return true;
    case ElementType::kInt64:
      fn(int64_t{});
      return true;
    case ElementType::kBool:
      fn(bool{});
      return true;
    default:
      return VisitFloatType(type, fn);
  }
}

}  // namespace

bool CastSupported(ElementType src, ElementType dst) {
  bool supported = false;
  VisitCastType(src, [&](auto) { VisitCastType(dst, [&](auto) { supported = src != dst; }); });
  return supported;
}

bool LaunchCast(ElementType src, ElementType dst, bool truncate, const void* x, void* y, int64_t n,
                CUstream_st* stream) {
  if (!CastSupported(src, dst)) return false;
  VisitCastType(src, [&](auto src_tag) {
    VisitCastType(dst, [&](auto dst_tag) {
      using Src = decltype(src_tag);
      using Dst = decltype(dst_tag);
      if constexpr (!std::is_same_v<Src, Dst>) {
        const Src* in = static_cast<const Src*>(x);
        Dst* out = static_cast<Dst*>(y);
        if constexpr (kTruncates<Src, Dst>) {
          if (truncate) {
            CastKernel<Src, Dst, true><<<BlocksFor(n), kBlockThreads, 0, stream>>>(in, out, n);
            return;
          }
        }
        CastKernel<Src, Dst, false><<<BlocksFor(n), kBlockThreads, 0, stream>>>(in, out, n);
      }
    });
  });
  return true;
}

}  // namespace cuda
}  // namespace sluice
