// Convolve: a stride-1 3x3 convolution by Winograd's F(m x m, 3 x 3), given the filter already
// transformed (winograd_transforms.h).
//
// The output's tiles are taken in blocks. For each block one thread transforms the input patches,
// runs the alpha^2 products [block tiles x in_depth] x [in_depth x out_depth] with oneDNN's
// single-precision GEMM, and inverse-transforms them into the output with the epilogue, so a
// block's intermediate values stay in that core's cache. Blocks are shared among `threads` OpenMP
// threads (oneDNN's own runtime, so the GEMMs run one per thread rather than spawning teams of
// their own).
//
// Scratch: ScratchFloats(geo, threads) floats, 64-byte aligned, that no one else uses during the
// call.
#ifndef SLUICE_KERNELS_CPU_LINALG_WINOGRAD_CONVOLVE_H_
#define SLUICE_KERNELS_CPU_LINALG_WINOGRAD_CONVOLVE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "kernels/cpu/linalg/winograd_transforms.h"

namespace sluice {
namespace winograd {

// Tiles per block: enough rows for the GEMMs to run near the core's peak, few enough that a block's
// transformed input and products stay in a core's L2 cache where that allows it.
int64_t BlockTiles(const TileGeometry& geo);

int64_t ScratchFloats(const TileGeometry& geo, int threads);

// u: TransformFilter's output with rows of u_row_stride floats. INTERNAL if a GEMM fails.
absl::Status Convolve(const TileGeometry& geo, const float* u, int64_t u_row_stride,
                      const float* input, const OutputEpilogue& epilogue, int threads,
                      float* scratch, float* output);

}  // namespace winograd
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_WINOGRAD_CONVOLVE_H_
