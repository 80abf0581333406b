// The fork-join under ParallelFor: blocks claimed from a shared counter by the caller and its
// helpers.
#include "kernels/cpu/parallel_for.h"

#include <atomic>
#include <chrono>

#include "absl/synchronization/mutex.h"
#include "graph/core/tensor_types.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace sluice {
namespace parallel_for_internal {
namespace {

// The state of one loop. Helpers hold a reference: one that starts after the loop is over
// (its thread was not running) still reads `next`, finds no block and drops it.
struct Loop {
  Loop(int64_t blocks, absl::FunctionRef<void(int64_t)> fn, int refs)
      : num_blocks(blocks), block(fn), refs(refs) {}

  // Claims and runs blocks until none is left.
  void Work() {
    for (;;) {
      const int64_t b = next.fetch_add(1, std::memory_order_relaxed);
      if (b >= num_blocks) return;
      block(b);
      if (done.fetch_add(1, std::memory_order_acq_rel) + 1 == num_blocks) {
        absl::MutexLock lock(&mu);
        finished = true;
      }
    }
  }

  void Unref() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  const int64_t num_blocks;
  // Valid until every block has run: only a thread that claimed a block calls it.
  const absl::FunctionRef<void(int64_t)> block;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> done{0};
  std::atomic<int> refs;
  absl::Mutex mu;
  bool finished ABSL_GUARDED_BY(mu) = false;
};

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// How long the caller spins for blocks still running on helpers before it sleeps: a few
// blocks' worth on a running thread; a helper preempted mid-block costs a sleep, not a spin.
constexpr std::chrono::microseconds kSpinBeforeSleep{50};

}  // namespace

void RunBlocks(Eigen::ThreadPoolInterface* pool, int team, int64_t num_blocks,
               absl::FunctionRef<void(int64_t)> block) {
  const int helpers = static_cast<int>(std::min<int64_t>(team - 1, num_blocks - 1));
  if (helpers <= 0 || pool == nullptr) {
    for (int64_t b = 0; b < num_blocks; ++b) block(b);
    return;
  }
  Loop* loop = new Loop(num_blocks, block, helpers + 1);
  for (int i = 0; i < helpers; ++i) {
    pool->Schedule([loop] {
      loop->Work();
      loop->Unref();
    });
  }
  loop->Work();
  // Every block is claimed; wait for those still running elsewhere.
  if (loop->done.load(std::memory_order_acquire) < num_blocks) {
    const auto deadline = std::chrono::steady_clock::now() + kSpinBeforeSleep;
    int spins = 0;
    while (loop->done.load(std::memory_order_acquire) < num_blocks) {
      CpuRelax();
      if (++spins % 64 == 0 && std::chrono::steady_clock::now() > deadline) {
        absl::MutexLock lock(&loop->mu);
        loop->mu.Await(absl::Condition(&loop->finished));
        break;
      }
    }
  }
  loop->Unref();
}

int64_t BlockSize(int64_t n, const Eigen::TensorOpCost& unit_cost, int device_threads,
                  int64_t align) {
  using CostModel = Eigen::TensorCostModel<Eigen::ThreadPoolDevice>;
  const double worth_a_task = 1.0 / CostModel::taskSize(1, unit_cost);
  const int64_t even = (n + 4 * int64_t{device_threads} - 1) / (4 * int64_t{device_threads});
  int64_t block = std::max<int64_t>(
      {int64_t{1}, even, static_cast<int64_t>(std::min<double>(worth_a_task, n))});
  block = (block + align - 1) / align * align;
  return std::min(block, n);
}

Split PlanSplit(OpKernelContext* ctx, int64_t n, int64_t elements,
                const Eigen::TensorOpCost& unit_cost, int64_t align) {
  Split split;
  const Eigen::ThreadPoolDevice* device = ctx->device()->eigen_cpu_device();
  const int team = std::min(ctx->intra_op_threads(), device == nullptr ? 1 : device->numThreads());
  if (team < 2 || elements < kMinParallelElements || n < 2) return split;
  const int worth = Eigen::TensorCostModel<Eigen::ThreadPoolDevice>::numThreads(n, unit_cost, team);
  const int64_t block = BlockSize(n, unit_cost, device->numThreads(), std::max<int64_t>(align, 1));
  const int64_t num_blocks = (n + block - 1) / block;
  if (worth < 2 || num_blocks < 2) return split;
  split.pool = device->getPool();
  split.team = worth;
  split.block = block;
  split.num_blocks = num_blocks;
  return split;
}

}  // namespace parallel_for_internal
}  // namespace sluice
