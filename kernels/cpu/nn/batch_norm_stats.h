// The per-channel loops of FusedBatchNorm on the CPU: batch moments and normalization.
//
// Data is viewed as a BatchNormLayout (batch_norm_args.h). Moments accumulate in
// double over fixed blocks of `outer` that are combined in order, so the results are the
// same whatever the number of threads. Both functions split over the intra-op pool.
//
// REQUIRES: the tensor has outer * channels * inner > 0 elements of type T (float, half or
// bfloat16); statistics are float.
#ifndef SLUICE_KERNELS_CPU_NN_BATCH_NORM_STATS_H_
#define SLUICE_KERNELS_CPU_NN_BATCH_NORM_STATS_H_

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/nn/batch_norm_args.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {

namespace batch_norm_internal {

// Rows of `outer` per partial-sum block; fixed so that results do not depend on threads.
constexpr int64_t kRowsPerBlock = 256;

inline int64_t NumBlocks(const BatchNormLayout& l) {
  return (l.outer + kRowsPerBlock - 1) / kRowsPerBlock;
}

// partial[block * C + c] = the sum of f(x) over the block's rows, for every channel c.
// `partial` holds NumBlocks(l) * C doubles.
template <typename T, typename F>
void BlockSums(OpKernelContext* ctx, const BatchNormLayout& l, const T* x, F f, double* p) {
  const int64_t blocks = NumBlocks(l);
  std::fill(p, p + blocks * l.channels, 0.0);
  const double block_elements = static_cast<double>(kRowsPerBlock * l.channels * l.inner);
  const int64_t total = l.outer * l.channels * l.inner;
  ParallelFor(ctx, blocks, total,
              Eigen::TensorOpCost(block_elements * sizeof(T), 0, block_elements * 3),
              [&](int64_t first, int64_t last) {
                for (int64_t b = first; b < last; ++b) {
                  double* sums = p + b * l.channels;
                  const int64_t row_end = std::min(l.outer, (b + 1) * kRowsPerBlock);
                  for (int64_t r = b * kRowsPerBlock; r < row_end; ++r) {
                    for (int64_t c = 0; c < l.channels; ++c) {
                      const T* v = x + (r * l.channels + c) * l.inner;
                      double s = 0;
                      for (int64_t i = 0; i < l.inner; ++i) s += f(c, static_cast<float>(v[i]));
                      sums[c] += s;
                    }
                  }
                }
              });
}

}  // namespace batch_norm_internal

// mean[c] and the biased variance var[c] of x over every dim but the channels (two passes:
// the variance sums squared deviations from the mean). RESOURCE_EXHAUSTED when the
// allocator refuses the partial sums.
template <typename T>
absl::Status BatchMoments(OpKernelContext* ctx, const BatchNormLayout& l, const T* x, float* mean,
                          float* var) {
  const int64_t blocks = batch_norm_internal::NumBlocks(l);
  ScratchArray<double> partial;
  RETURN_IF_ERROR(partial.Allocate(ctx, blocks * l.channels));
  ScratchArray<double> mean_d;
  RETURN_IF_ERROR(mean_d.Allocate(ctx, l.channels));
  const double count = static_cast<double>(l.outer * l.inner);
  batch_norm_internal::BlockSums(
      ctx, l, x, [](int64_t, float v) { return static_cast<double>(v); }, partial.data());
  for (int64_t b = 0; b < blocks; ++b) {
    for (int64_t c = 0; c < l.channels; ++c) mean_d[c] += partial[b * l.channels + c];
  }
  for (int64_t c = 0; c < l.channels; ++c) mean_d[c] /= count;
  const double* m = mean_d.data();
  batch_norm_internal::BlockSums(
      ctx, l, x,
      [m](int64_t c, float v) {
        const double d = static_cast<double>(v) - m[c];
        return d * d;
      },
      partial.data());
  for (int64_t c = 0; c < l.channels; ++c) {
    double s = 0;
    for (int64_t b = 0; b < blocks; ++b) s += partial[b * l.channels + c];
    mean[c] = static_cast<float>(m[c]);
    var[c] = static_cast<float>(s / count);
  }
  return absl::OkStatus();
}

// y = (x - mean[c]) * multiplier[c] + offset[c], computed in float. y may alias x.
template <typename T>
void Normalize(OpKernelContext* ctx, const BatchNormLayout& l, const T* x, const float* mean,
               const float* multiplier, const float* offset, T* y) {
  const int64_t total = l.outer * l.channels * l.inner;
  // Channels last: one task row is a pixel's channel vector. Channels first: one channel's
  // plane of `inner` elements.
  const bool channels_last = l.inner == 1;
  const int64_t rows = channels_last ? l.outer : l.outer * l.channels;
  const double row_elements = static_cast<double>(channels_last ? l.channels : l.inner);
  const Eigen::TensorOpCost row_cost(row_elements * sizeof(T), row_elements * sizeof(T),
                                     row_elements * 3);
  ParallelFor(ctx, rows, total, row_cost, [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r) {
      if (channels_last) {
        const T* xr = x + r * l.channels;
        T* yr = y + r * l.channels;
        for (int64_t c = 0; c < l.channels; ++c) {
          yr[c] = static_cast<T>((static_cast<float>(xr[c]) - mean[c]) * multiplier[c] + offset[c]);
        }
      } else {
        const int64_t c = r % l.channels;
        const float mc = mean[c];
        const float sc = multiplier[c];
        const float oc = offset[c];
        const T* xr = x + r * l.inner;
        T* yr = y + r * l.inner;
        for (int64_t i = 0; i < l.inner; ++i) {
          yr[i] = static_cast<T>((static_cast<float>(xr[i]) - mc) * sc + oc);
        }
      }
    }
  });
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_NN_BATCH_NORM_STATS_H_
