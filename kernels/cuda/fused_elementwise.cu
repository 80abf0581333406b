// A GPU `_FusedElementwise`: one grid-stride pass, each thread evaluating the program for
// its elements. See fused_elementwise_launch.h.
#include <cstdint>

#include "kernels/cuda/fused_elementwise_launch.h"
// Every result slot is written before a later step reads it (the program's steps come in
// order, BuildElementwiseProgram); nvcc cannot see that through the indices.
#pragma nv_diag_suppress 549
#include "kernels/cuda/fused_elementwise_program.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"

namespace sluice {
namespace cuda {
namespace {

// The program is a launch argument (kernel parameter memory: every thread reads the same
// step at once, which that memory serves as a broadcast).
template <typename S>
__global__ void FusedElementwiseKernel(const ElementwiseProgram program, int64_t n, S* out) {
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    out[i] = EvaluateElementwise<S>(program, i);
  }
}

}  // namespace

bool LaunchFusedElementwise(ElementType type, const ElementwiseProgram& program, int64_t elements,
                            void* out, CUstream_st* stream) {
  return VisitFloatType(type, [&](auto tag) {
    using S = decltype(tag);
    if (elements == 0) return;
    FusedElementwiseKernel<S><<<BlocksFor(elements), kBlockThreads, 0, stream>>>(
        program, elements, static_cast<S*>(out));
  });
}

}  // namespace cuda
}  // namespace sluice
