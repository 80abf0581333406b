// The copy loop shared by Pad, PadV2 and MirrorPad once their kernels have validated the
// paddings.
//
// A PadPlan says, for every dim and every output coordinate along it, which input coordinate
// supplies it, or -1 where the output is padding (constant padding; mirror padding never
// has -1). PadRows walks the output one innermost row at a time: a row whose outer
// coordinates hit padding is all `pad_value`; otherwise the row's run of real input
// elements is one contiguous copy and its edges are filled per element. Rows are split over
// the intra-op pool when the output is large.
#ifndef SLUICE_KERNELS_CPU_INDEXING_PAD_ROWS_H_
#define SLUICE_KERNELS_CPU_INDEXING_PAD_ROWS_H_

#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

struct PadPlan {
  // REQUIRES: at least one dim; in_dims[d] >= 1 wherever source[d] has a non-negative entry.
  absl::InlinedVector<int64_t, 8> in_dims;
  absl::InlinedVector<int64_t, 8> out_dims;
  // source[d][o]: the input coordinate of output coordinate o along dim d, or -1. Set by
  // AllocateSources: out_dims[d] entries per dim, in `sources`.
  absl::InlinedVector<int64_t*, 8> source;
  ScratchArray<int64_t> sources;
  // Along the innermost dim, output [inner_begin, inner_begin + in_dims.back()) is the
  // input row unchanged.
  int64_t inner_begin = 0;
};

// Takes plan->source's arrays (every dim's out_dims entries, back to back) from ctx's
// allocator, for the kernel to fill: a dim's map is as long as the padded dim, which the
// paddings' values decide. RESOURCE_EXHAUSTED when the allocator refuses them.
inline absl::Status AllocateSources(OpKernelContext* ctx, PadPlan* plan) {
  int64_t total = 0;
  for (const int64_t size : plan->out_dims) {
    // Past int64, the allocation is refused as too large.
    total = size <= std::numeric_limits<int64_t>::max() - total
                ? total + size
                : std::numeric_limits<int64_t>::max();
  }
  RETURN_IF_ERROR(plan->sources.Allocate(ctx, total));
  plan->source.clear();
  int64_t* next = plan->sources.data();
  for (const int64_t size : plan->out_dims) {
    plan->source.push_back(next);  // on the heap, bounded: one pointer per dim of the plan
    next += size;
  }
  return absl::OkStatus();
}

template <typename U>
void PadRows(OpKernelContext* ctx, const PadPlan& plan, const U* in, U* out, const U& pad_value) {
  const int rank = static_cast<int>(plan.out_dims.size());
  const int outer_rank = rank - 1;
  const int64_t inner = plan.out_dims[outer_rank];
  const int64_t in_inner = plan.in_dims[outer_rank];
  const int64_t* const inner_source = plan.source[outer_rank];
  // heap-ok: one per dim of the input (rank <= 254)
  absl::InlinedVector<int64_t, 8> in_strides(rank, 1);
  for (int d = rank - 2; d >= 0; --d) in_strides[d] = in_strides[d + 1] * plan.in_dims[d + 1];
  int64_t rows = 1;
  for (int d = 0; d < outer_rank; ++d) rows *= plan.out_dims[d];
  const Eigen::TensorOpCost cost(in_inner * sizeof(U), inner * sizeof(U), inner);
  ParallelFor(ctx, rows, rows * inner, cost, [&](int64_t first, int64_t last) {
    // heap-ok: one per outer dim of the input (rank <= 254)
    absl::InlinedVector<int64_t, 8> coord(outer_rank, 0);
    for (int64_t d = outer_rank - 1, rest = first; d >= 0; --d) {
      coord[d] = rest % plan.out_dims[d];
      rest /= plan.out_dims[d];
    }
    for (int64_t row = first; row < last; ++row) {
      U* dst = out + row * inner;
      int64_t offset = 0;
      bool padding = false;
      for (int d = 0; d < outer_rank; ++d) {
        const int64_t src = plan.source[d][coord[d]];
        if (src < 0) {
          padding = true;
          break;
        }
        offset += src * in_strides[d];
      }
      if (padding) {
        std::fill_n(dst, inner, pad_value);
      } else {
        const U* src_row = in + offset;
        for (int64_t j = 0; j < plan.inner_begin; ++j) {
          dst[j] = inner_source[j] < 0 ? pad_value : src_row[inner_source[j]];
        }
        std::copy_n(src_row, in_inner, dst + plan.inner_begin);
        for (int64_t j = plan.inner_begin + in_inner; j < inner; ++j) {
          dst[j] = inner_source[j] < 0 ? pad_value : src_row[inner_source[j]];
        }
      }
      for (int d = outer_rank - 1; d >= 0; --d) {
        if (++coord[d] < plan.out_dims[d]) break;
        coord[d] = 0;
      }
    }
  });
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_INDEXING_PAD_ROWS_H_
