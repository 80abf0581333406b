// ParallelFor: splits a kernel's loop over the device's intra-op Eigen thread pool when the
// work is large enough to pay for the hand-off, and runs it inline otherwise.
//
// Contract: fn(first, last) is called on disjoint ranges that cover [0, n) exactly once; the
// calls may run concurrently on pool threads, and ParallelFor returns only when all have
// finished. `elements` is the total number of output elements (the size that decides whether
// to go parallel); `unit_cost` is the cost of one of the n units (Eigen's cost model picks the
// block size from it). With `align` > 1, every range but the last starts and ends at a
// multiple of `align`: Eigen expressions over a range take their vectorised path on whole
// packets and the scalar one on the rest, which may round differently, so aligned ranges
// keep a kernel's result independent of how the loop was split.
#ifndef SLUICE_KERNELS_CPU_PARALLEL_FOR_H_
#define SLUICE_KERNELS_CPU_PARALLEL_FOR_H_

#include <cstdint>
#include <utility>

#include "runtime/framework/device_base.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {

// Below this many output elements a loop stays on the calling thread: handing a smaller one
// to the intra-op pool costs more than it saves.
constexpr int64_t kMinParallelElements = 32 * 1024;

template <typename Fn>
void ParallelFor(OpKernelContext* ctx, int64_t n, int64_t elements,
                 const Eigen::TensorOpCost& unit_cost, Fn&& fn, int64_t align = 1) {
  const Eigen::ThreadPoolDevice* device = ctx->device()->eigen_cpu_device();
  if (device == nullptr || elements < kMinParallelElements || n < 2 || device->numThreads() < 2) {
    fn(int64_t{0}, n);
    return;
  }
  const auto call = [&fn](Eigen::Index first, Eigen::Index last) {
    fn(static_cast<int64_t>(first), static_cast<int64_t>(last));
  };
  if (align <= 1) {
    device->parallelFor(n, unit_cost, call);
    return;
  }
  device->parallelFor(
      n, unit_cost,
      [align](Eigen::Index block) -> Eigen::Index { return (block + align - 1) / align * align; },
      call);
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_PARALLEL_FOR_H_
