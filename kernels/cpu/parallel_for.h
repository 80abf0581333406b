// ParallelFor: splits a kernel's loop over the device's intra-op Eigen thread pool when the
// work is large enough to pay for the hand-off, and runs it inline otherwise.
//
// Contract: fn(first, last) is called on disjoint ranges that cover [0, n) exactly once; the
// calls may run concurrently on pool threads, and ParallelFor returns only when all have
// finished. `elements` is the total number of output elements (the size that decides whether
// to go parallel); `unit_cost` is the cost of one of the n units (Eigen's cost model picks the
// block size from it).
#ifndef SLUICE_KERNELS_CPU_PARALLEL_FOR_H_
#define SLUICE_KERNELS_CPU_PARALLEL_FOR_H_

#include <cstdint>
#include <utility>

#include "runtime/device_base.h"
#include "runtime/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {

// Below this many output elements a loop stays on the calling thread: handing a smaller one
// to the intra-op pool costs more than it saves.
constexpr int64_t kMinParallelElements = 32 * 1024;

template <typename Fn>
void ParallelFor(OpKernelContext* ctx, int64_t n, int64_t elements,
                 const Eigen::TensorOpCost& unit_cost, Fn&& fn) {
  const Eigen::ThreadPoolDevice* device = ctx->device()->eigen_cpu_device();
  if (device == nullptr || elements < kMinParallelElements || n < 2 ||
      device->numThreads() < 2) {
    fn(int64_t{0}, n);
    return;
  }
  device->parallelFor(n, unit_cost, [&fn](Eigen::Index first, Eigen::Index last) {
    fn(static_cast<int64_t>(first), static_cast<int64_t>(last));
  });
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_PARALLEL_FOR_H_
