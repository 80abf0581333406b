// ReducePass: one [outer, reduced, inner] reduction pass (see reduction_plan.h) with a
// reducer of reducers.h, split over the device's intra-op pool.
//
// Layouts:
//  - inner == 1: each output folds one contiguous row; the row is read with kLanes
//    independent accumulators so the loop vectorises without reassociating one chain.
//  - inner > 1: each output row accumulates whole input rows elementwise (contiguous in
//    inner, so it vectorises), in blocks of kBlock columns to stay in cache.
// Work is split over outputs. When there are too few outputs to keep the pool busy but many
// inputs per output (a full reduction, or reducing the leading axis of a tall matrix), the
// reduced axis itself is cut into chunks whose partial results are folded at the end; this
// only regroups an associative Combine.
#ifndef SLUICE_KERNELS_CPU_REDUCTION_REDUCE_LOOPS_H_
#define SLUICE_KERNELS_CPU_REDUCTION_REDUCE_LOOPS_H_

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {

constexpr int kLanes = 8;
constexpr int64_t kBlock = 1024;
// Chunks of the reduced axis are at least this many input elements.
constexpr int64_t kMinChunkElements = 16 * 1024;

template <typename In, typename R>
typename R::Acc ReduceRow(const In* x, int64_t n) {
  using Acc = typename R::Acc;
  Acc lanes[kLanes];
  for (int j = 0; j < kLanes; ++j) lanes[j] = R::Identity();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) lanes[j] = R::Combine(lanes[j], static_cast<Acc>(x[i + j]));
  }
  for (; i < n; ++i) lanes[0] = R::Combine(lanes[0], static_cast<Acc>(x[i]));
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) lanes[j] = R::Combine(lanes[j], lanes[j + width]);
  }
  return lanes[0];
}

// out[i] = fold over r < rows of x[r * stride + i], for i < n.
template <typename In, typename R>
void ReduceColumns(const In* x, int64_t rows, int64_t stride, int64_t n, typename R::Acc* out) {
  using Acc = typename R::Acc;
  for (int64_t i = 0; i < n; ++i) out[i] = R::Identity();
  for (int64_t r = 0; r < rows; ++r) {
    const In* row = x + r * stride;
    for (int64_t i = 0; i < n; ++i) out[i] = R::Combine(out[i], static_cast<Acc>(row[i]));
  }
}

// Reduces [outer, reduced, inner] `src` into [outer, inner] `dst` on the calling thread or
// split over outputs.
template <typename In, typename R>
void ReduceByOutputs(OpKernelContext* ctx, const In* src, typename R::Acc* dst,
                     const ReductionPass& p) {
  const int64_t total = p.outer * p.reduced * p.inner;
  const Eigen::TensorOpCost element_cost(sizeof(In), 0, 1);
  if (p.inner == 1) {
    ParallelFor(ctx, p.outer, total, element_cost * static_cast<double>(p.reduced),
                [&](int64_t first, int64_t last) {
                  for (int64_t o = first; o < last; ++o) {
                    dst[o] = ReduceRow<In, R>(src + o * p.reduced, p.reduced);
                  }
                });
    return;
  }
  const int64_t blocks = (p.inner + kBlock - 1) / kBlock;
  const int64_t block_elements = std::min(p.inner, kBlock) * p.reduced;
  ParallelFor(ctx, p.outer * blocks, total, element_cost * static_cast<double>(block_elements),
              [&](int64_t first, int64_t last) {
                for (int64_t u = first; u < last; ++u) {
                  const int64_t o = u / blocks;
                  const int64_t begin = (u % blocks) * kBlock;
                  const int64_t n = std::min(kBlock, p.inner - begin);
                  ReduceColumns<In, R>(src + o * p.reduced * p.inner + begin, p.reduced, p.inner, n,
                                       dst + o * p.inner + begin);
                }
              });
}

// Reduces one [reduced, inner] slab in chunks of the reduced axis: partial results of each
// chunk in parallel, then their fold. REQUIRES: 1 <= chunks <= reduced (ReducePass below).
template <typename In, typename R>
absl::Status ReduceByChunks(OpKernelContext* ctx, const In* src, typename R::Acc* dst,
                            int64_t reduced, int64_t inner, int64_t chunks) {
  using Acc = typename R::Acc;
  Tensor partial;
  // shape-safe: chunks <= reduced (REQUIRES), so no larger than the input slab [reduced, inner]
  RETURN_IF_ERROR(
      ctx->allocate_temp(DataTypeToEnum<Acc>::value, TensorShape({chunks, inner}), &partial));
  Acc* partials = partial.base<Acc>();
  const int64_t rows_per_chunk = (reduced + chunks - 1) / chunks;
  const Eigen::TensorOpCost chunk_cost(sizeof(In) * rows_per_chunk * inner, 0,
                                       rows_per_chunk * inner);
  ParallelFor(ctx, chunks, reduced * inner, chunk_cost, [&](int64_t first, int64_t last) {
    for (int64_t c = first; c < last; ++c) {
      const int64_t begin = std::min(reduced, c * rows_per_chunk);
      const int64_t rows = std::min(reduced, begin + rows_per_chunk) - begin;
      if (inner == 1) {
        partials[c] = ReduceRow<In, R>(src + begin, rows);
      } else {
        ReduceColumns<In, R>(src + begin * inner, rows, inner, inner, partials + c * inner);
      }
    }
  });
  ReduceColumns<Acc, R>(partials, chunks, inner, inner, dst);
  return absl::OkStatus();
}

template <typename In, typename R>
absl::Status ReducePass(OpKernelContext* ctx, const In* src, typename R::Acc* dst,
                        const ReductionPass& p) {
  const int threads = ctx->device()->eigen_cpu_device() == nullptr
                          ? 1
                          : ctx->device()->eigen_cpu_device()->numThreads();
  const int64_t slab = p.reduced * p.inner;
  if (threads > 1 && p.outer * std::max<int64_t>(1, p.inner / kBlock) < threads &&
      slab >= 2 * kMinChunkElements && p.reduced >= 2 * kLanes) {
    const int64_t chunks = std::min<int64_t>({4 * threads, slab / kMinChunkElements, p.reduced});
    for (int64_t o = 0; o < p.outer; ++o) {
      RETURN_IF_ERROR((ReduceByChunks<In, R>(ctx, src + o * slab, dst + o * p.inner, p.reduced,
                                             p.inner, chunks)));
    }
    return absl::OkStatus();
  }
  ReduceByOutputs<In, R>(ctx, src, dst, p);
  return absl::OkStatus();
}

}  // namespace reduction
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_REDUCTION_REDUCE_LOOPS_H_
