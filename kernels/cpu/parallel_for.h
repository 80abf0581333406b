// ParallelFor: splits a kernel's loop over the device's intra-op pool when the work is large
// enough to pay for the hand-off, and runs it inline otherwise.
//
// Contract: fn(first, last) is called on disjoint ranges that cover [0, n) exactly once; the
// calls may run concurrently on pool threads, and ParallelFor returns only when all have
// finished. `elements` is the total number of output elements (the size that decides whether
// to go parallel); `unit_cost` is the cost of one of the n units (Eigen's cost model picks
// the number of threads worth using from it). With `align` > 1, every range but the last
// starts and ends at a multiple of `align`: Eigen expressions over a range take their
// vectorised path on whole packets and the scalar one on the rest, which may round
// differently, so aligned ranges keep a kernel's result independent of how the loop was
// split.
//
// How it runs (why it is not Eigen's ThreadPoolDevice::parallelFor): the range is cut into
// blocks whose boundaries depend only on n, the cost and the device's fixed thread count,
// never on the machine's load. The kernel's team (OpKernelContext::intra_op_threads, from
// the core budget) decides how many threads take part: the calling thread and team - 1
// helpers scheduled on the pool, all claiming blocks from a shared counter. The caller
// works instead of sleeping, and it waits only for blocks another thread has already
// started: a helper the scheduler has not run yet claims nothing, and the caller does its
// blocks. So a loop never waits for a thread that is not running (Eigen's parallelFor
// divides the range up front and waits for every part).
#ifndef SLUICE_KERNELS_CPU_PARALLEL_FOR_H_
#define SLUICE_KERNELS_CPU_PARALLEL_FOR_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "graph/core/size_arithmetic.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {

// Below this many output elements a loop stays on the calling thread: handing a smaller one
// to the intra-op pool costs more than it saves.
constexpr int64_t kMinParallelElements = 32 * 1024;

namespace parallel_for_internal {

// Runs block(0) ... block(num_blocks - 1), each exactly once, on the calling thread and on
// up to `team` - 1 helpers scheduled on `pool`; returns when all have run.
void RunBlocks(Eigen::ThreadPoolInterface* pool, int team, int64_t num_blocks,
               absl::FunctionRef<void(int64_t)> block);

// The block size for n units of `unit_cost` on a device of `device_threads` threads: at
// least the size Eigen's cost model deems worth a task, at most n / (4 * device_threads)
// blocks' worth when that is larger (so the blocks are few and even), rounded up to
// `align`.
int64_t BlockSize(int64_t n, const Eigen::TensorOpCost& unit_cost, int device_threads,
                  int64_t align);

}  // namespace parallel_for_internal

namespace parallel_for_internal {

// How ParallelFor runs n units: num_blocks blocks of `block` units on a team of `team`
// threads over `pool`; num_blocks == 1 means inline on the calling thread.
struct Split {
  Eigen::ThreadPoolInterface* pool = nullptr;
  int team = 1;
  int64_t block = 0;
  int64_t num_blocks = 1;
};
Split PlanSplit(OpKernelContext* ctx, int64_t n, int64_t elements,
                const Eigen::TensorOpCost& unit_cost, int64_t align);

}  // namespace parallel_for_internal

template <typename Fn>
void ParallelFor(OpKernelContext* ctx, int64_t n, int64_t elements,
                 const Eigen::TensorOpCost& unit_cost, Fn&& fn, int64_t align = 1) {
  const parallel_for_internal::Split split =
      parallel_for_internal::PlanSplit(ctx, n, elements, unit_cost, align);
  if (split.num_blocks < 2) {
    fn(int64_t{0}, n);
    return;
  }
  const int64_t block = split.block;
  parallel_for_internal::RunBlocks(split.pool, split.team, split.num_blocks,
                                   [&](int64_t b) { fn(b * block, std::min(n, (b + 1) * block)); });
}

// ParallelFor for loops that need a working array: each call fn(first, last, scratch) gets
// its own `scratch_elements` Ts (a ScratchArray slice, value-initialised once, not between
// calls) from the device's allocator. The arrays are taken before any call runs, so a
// refusal returns RESOURCE_EXHAUSTED and fn never runs.
template <typename T, typename Fn>
absl::Status ParallelForWithScratch(OpKernelContext* ctx, int64_t n, int64_t elements,
                                    const Eigen::TensorOpCost& unit_cost, int64_t scratch_elements,
                                    Fn&& fn, int64_t align = 1) {
  const parallel_for_internal::Split split =
      parallel_for_internal::PlanSplit(ctx, n, elements, unit_cost, align);
  const int64_t total = MultiplyWithoutOverflow(split.num_blocks, scratch_elements);
  ScratchArray<T> scratch;
  const absl::Status status =
      scratch.Allocate(ctx, total < 0 ? std::numeric_limits<int64_t>::max() : total);
  if (!status.ok()) return status;
  if (split.num_blocks < 2) {
    fn(int64_t{0}, n, scratch.data());
    return absl::OkStatus();
  }
  const int64_t block = split.block;
  T* const base = scratch.data();
  parallel_for_internal::RunBlocks(split.pool, split.team, split.num_blocks, [&](int64_t b) {
    fn(b * block, std::min(n, (b + 1) * block), base + b * scratch_elements);
  });
  return absl::OkStatus();
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_PARALLEL_FOR_H_
