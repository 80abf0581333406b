// A fused convolution's epilogue, one grid-stride pass over its output. See
// conv_epilogue_launch.h; the arithmetic is conv_epilogue.h's.
#include <cstdint>

#include "kernels/cuda/conv_epilogue.h"
#include "kernels/cuda/conv_epilogue_launch.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"

namespace sluice {
namespace cuda {
namespace {

template <typename S>
__global__ void ConvEpilogueKernel(ConvEpilogue e, ConvEpilogueOperands ops, S* out) {
  const int argument_count = e.batch_norm ? 4 : 1;
  const S* addend = static_cast<const S*>(ops.addend);
  for (int64_t i = GridStart(); i < ops.elements; i += GridStride()) {
    const int64_t c = (ops.inner == 1 ? i : i / ops.inner) % ops.channels;
    float arg[4];
    for (int k = 0; k < argument_count; ++k)
      arg[k] = Load<S>(static_cast<const S*>(ops.args[k])[c]);
    const float residual = e.add ? Load<S>(addend[i]) : 0.0f;
    out[i] = ConvEpilogueValue<S>(e, Load<S>(out[i]), arg, residual);
  }
}

}  // namespace

bool LaunchConvEpilogue(ElementType type, const ConvEpilogue& epilogue,
                        const ConvEpilogueOperands& operands, void* out, CUstream_st* stream) {
  return VisitFloatType(type, [&](auto tag) {
    using S = decltype(tag);
    if (operands.elements == 0) return;
    ConvEpilogueKernel<S><<<BlocksFor(operands.elements), kBlockThreads, 0, stream>>>(
        epilogue, operands, static_cast<S*>(out));
  });
}

}  // namespace cuda
}  // namespace sluice
