// The launch of a GPU _FusedMatMul's epilogue (fused_epilogue.cu): in place over a row-major
// [rows, cols] output, out[r][c] = Activate(out[r][c] + bias[c]), the sum rounded to the
// output's type first as TensorFlow's separate BiasAdd would, computed in float (double for
// double). Plain C++: callers need no CUDA header.
#ifndef SLUICE_KERNELS_CUDA_LINALG_FUSED_EPILOGUE_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_LINALG_FUSED_EPILOGUE_LAUNCH_H_

#include <cstdint>

struct CUstream_st;

namespace sluice {
namespace gpu_fused {

enum class ElementType { kFloat, kHalf, kBfloat16, kDouble };

// Enqueues the epilogue on `stream`; launch errors are the caller's to read
// (LastLaunchStatus). Nothing is launched when rows or cols is 0.
void LaunchBiasActivation(CUstream_st* stream, ElementType type, int activation,
                          float leakyrelu_alpha, void* out, const void* bias, int64_t rows,
                          int64_t cols);

}  // namespace gpu_fused
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_LINALG_FUSED_EPILOGUE_LAUNCH_H_
