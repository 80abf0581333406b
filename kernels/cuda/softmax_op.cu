// The CUDA Softmax and LogSoftmax kernel (softmax_launch.h): each row of [rows, cols] is
// handled by a group of threads (a warp for rows of up to 1024 elements, a whole block of 256
// threads for longer ones), in three passes over the row: its maximum, the sum of
// exp(x - max), then the outputs
//   Softmax:    exp(x - max) * (1 / sum)       LogSoftmax: (x - max) - log(sum)
// as Sluice's CPU kernel computes them. The maximum skips NaN, but a NaN element makes the sum
// NaN and so the whole row, as does +inf (inf - inf) or a row of only -inf: TensorFlow's rows.
#include <cstdint>

#include "kernels/cuda/cwise_functors.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"
#include "kernels/cuda/softmax_launch.h"

namespace sluice {
namespace cuda {
namespace {

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};

template <typename S, bool kLog, int kRowThreads>
__global__ void SoftmaxKernel(const S* x, S* y, int64_t rows, int64_t cols) {
  constexpr int kRowsPerBlock = kBlockThreads / kRowThreads;
  const int lane = threadIdx.x % kRowThreads;
  const int64_t first =
      static_cast<int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kRowThreads;
  const int64_t step = static_cast<int64_t>(gridDim.x) * kRowsPerBlock;
  // With a whole block per row every thread takes the same rows, so the block-wide
  // GroupReduce is reached by all or none.
  for (int64_t row = first; row < rows; row += step) {
    const S* in = x + row * cols;
    S* out = y + row * cols;
    float max = -INFINITY;
    for (int64_t c = lane; c < cols; c += kRowThreads) max = fmaxf(max, Load<S>(in[c]));
    max = GroupReduce<kRowThreads>(max, MaxOp());
    float sum = 0.0f;
    for (int64_t c = lane; c < cols; c += kRowThreads) sum += Exp(Load<S>(in[c]) - max);
    sum = GroupReduce<kRowThreads>(sum, SumOp());
    if constexpr (kLog) {
      const float log_sum = Log(sum);
      for (int64_t c = lane; c < cols; c += kRowThreads) {
        out[c] = Store<S>((Load<S>(in[c]) - max) - log_sum);
      }
    } else {
      const float inv_sum = 1.0f / sum;
      for (int64_t c = lane; c < cols; c += kRowThreads) {
        out[c] = Store<S>(Exp(Load<S>(in[c]) - max) * inv_sum);
      }
    }
  }
}

template <typename S, bool kLog, int kRowThreads>
void Launch(const void* x, void* y, int64_t rows, int64_t cols, CUstream_st* stream) {
  constexpr int64_t kRowsPerBlock = kBlockThreads / kRowThreads;
  constexpr int64_t kMaxBlocks = 65535;
  const int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  SoftmaxKernel<S, kLog, kRowThreads>
      <<<static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks), kBlockThreads, 0,
         stream>>>(static_cast<const S*>(x), static_cast<S*>(y), rows, cols);
}

}  // namespace

bool LaunchSoftmax(ElementType type, bool log, const void* x, void* y, int64_t rows, int64_t cols,
                   CUstream_st* stream) {
  return VisitFloatType(type, [&](auto tag) {
    using S = decltype(tag);
    // A warp per row while each lane has at most 32 elements of it.
    const bool warp = cols <= 1024;
    if (log) {
      warp ? Launch<S, true, 32>(x, y, rows, cols, stream)
           : Launch<S, true, kBlockThreads>(x, y, rows, cols, stream);
    } else {
      warp ? Launch<S, false, 32>(x, y, rows, cols, stream)
           : Launch<S, false, kBlockThreads>(x, y, rows, cols, stream);
    }
  });
}

}  // namespace cuda
}  // namespace sluice
