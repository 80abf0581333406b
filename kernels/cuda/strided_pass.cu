// A strided pass (strided_pass.h), one thread per kept element.
#include <cstdint>

#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"
#include "kernels/cuda/strided_pass.h"

namespace sluice {
namespace cuda {
namespace {

template <typename S>
__global__ void StridedPassKernel(const PassShape pass, const S* src, S* dst) {
  for (int64_t i = GridStart(); i < pass.kept; i += GridStride()) {
    int64_t s = 0, d = 0;
    PassOffsets(pass, i, &s, &d);
    dst[d] = PassValue<S>(pass, src, s);
  }
}

}  // namespace

bool LaunchStridedPass(ElementType type, const PassShape& pass, const void* src, void* dst,
                       CUstream_st* stream) {
  return VisitFloatType(type, [&](auto tag) {
    using S = decltype(tag);
    if (pass.kept == 0) return;
    StridedPassKernel<S><<<BlocksFor(pass.kept), kBlockThreads, 0, stream>>>(
        pass, static_cast<const S*>(src), static_cast<S*>(dst));
  });
}

}  // namespace cuda
}  // namespace sluice
