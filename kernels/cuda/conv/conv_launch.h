// The CUDA kernels around cuDNN's convolutions and pooling (conv_kernels.cu), as plain C++
// launch functions for the g++-compiled kernel classes.
//
// Each enqueues one kernel on `stream` and returns at once; the caller checks the launch
// with LastLaunchStatus (runtime/framework/gpu/cuda_status.h). Buffers are device memory
// that stays alive until the work is done (the compute stream orders its reuse). Nothing is
// launched for zero elements. A launcher that has no kernel for its element type returns
// false and launches nothing.
#ifndef SLUICE_KERNELS_CUDA_CONV_CONV_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_CONV_CONV_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/conv/conv_index.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// The floating-point element types of the convolution and pooling kernels.
enum class ConvElement { kFloat, kHalf, kBFloat16 };

// Writes the HWIO filter `hwio` (element type of `element_bytes`, 2 or 4) into `out` in
// `layout` (same element count).
bool LaunchFilterToCudnn(const void* hwio, void* out, const FilterDims& dims, FilterLayout layout,
                         int element_bytes, CUstream_st* stream);

// Copies the 4-D tensor `in` into `out` (dims `pad.out`) at offset `pad.before`, zeros
// elsewhere (zero bits are 0.0 in every floating-point type).
bool LaunchZeroPad(const void* in, void* out, const PadDims& pad, int element_bytes,
                   CUstream_st* stream);

// Pools `in` (NHWC walk of `dims`) into `out` (batch * out_rows * out_cols * depth elements)
// as PoolOutput does, rounding each result to the element type.
bool LaunchPool(const void* in, void* out, const PoolDims& dims, PoolMode mode, ConvElement type,
                CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CONV_CONV_LAUNCH_H_
