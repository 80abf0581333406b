// Launch function of the CUDA Softmax and LogSoftmax kernels (softmax_op.cu). Plain C++, as
// cwise_launch.h, and under the same contract (device buffers, enqueued on `stream` without
// waiting, false for a type the launcher was not compiled for).
#ifndef SLUICE_KERNELS_CUDA_SOFTMAX_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_SOFTMAX_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/cwise_launch.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// y = softmax (or, when `log`, log-softmax) of each row of x viewed as [rows, cols], in float
// whatever the element type: each row is shifted by its maximum, so large logits do not
// overflow. A row holding NaN or +inf, or only -inf, comes out all NaN, as on the CPU. y may
// be x. REQUIRES: rows > 0, cols > 0; type is kFloat, kHalf or kBFloat16.
bool LaunchSoftmax(ElementType type, bool log, const void* x, void* y, int64_t rows, int64_t cols,
                   CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_SOFTMAX_LAUNCH_H_
