// PaddedRowsCopy: a read-only float matrix whose rows are a multiple of 4 KiB long, copied
// once with each row padded by one cache line, for the GEMMs that multiply by it.
//
// A GEMM reads its right-hand matrix down the columns while it packs it. When the rows are
// a multiple of 4 KiB apart, every row of such a column falls into the same L1 cache sets
// and they evict each other: the transformer block's [256, 1024] feed-forward weights
// multiplied 30% slower than the [1024, 256] ones with the same number of FLOPs (oneDNN 2.6,
// AVX2, batch 1). A copy whose rows are 64 bytes longer spreads them over the sets. Only a
// read-only buffer (a Const's value) is copied: its contents cannot change, so one copy per
// buffer serves every step.
//
// Thread safety: Get may be called concurrently.
#ifndef SLUICE_KERNELS_CPU_LINALG_PADDED_ROWS_H_
#define SLUICE_KERNELS_CPU_LINALG_PADDED_ROWS_H_

#include <cstdint>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

class PaddedRowsCopy {
 public:
  // Elements added to each row of the copy: one 64-byte line of floats.
  static constexpr int64_t kPadding = 16;

  // Whether `matrix` (rows x cols floats, row-major, not transposed) is one to copy: float,
  // read-only, more than one row, and rows a multiple of 4 KiB long.
  static bool Applies(const Tensor& matrix, int64_t rows, int64_t cols);

  // The copy of `matrix` with rows of cols + kPadding elements (the padding zeroed), made on
  // the first call for a buffer and kept while the buffer is the same; it is allocated as a
  // temp of `ctx`, so it counts against the device's allocator for as long as it is kept.
  // REQUIRES: Applies.
  absl::Status Get(OpKernelContext* ctx, const Tensor& matrix, int64_t rows, int64_t cols,
                   Tensor* copy);

 private:
  absl::Mutex mu_;
  Tensor source_ ABSL_GUARDED_BY(mu_);  // keeps the buffer, and so its address, alive
  Tensor copy_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_PADDED_ROWS_H_
