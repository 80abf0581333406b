// KernelCosts: what each node of an executor graph costs, learned from timed runs; both
// executors (executor.cc, frame_executor.cc) decide from it which nodes run inline, which
// are handed to another thread and which get an intra-op team.
#ifndef SLUICE_RUNTIME_EXECUTOR_KERNEL_COSTS_H_
#define SLUICE_RUNTIME_EXECUTOR_KERNEL_COSTS_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

#include "runtime/executor/executor_graph.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace sluice {

// Which nodes are worth another thread, learned as TensorFlow's executor learns it: a
// kernel that calls itself expensive (the default on CPU) is timed while its estimate is
// expensive, and once the moving average of its cycles falls under kExpensiveCycles it is
// scheduled like a cheap one (inline, no hand-off to the pool, which costs more than a
// scalar add). TensorFlow then stops timing it; here one run in kResampleRuns of the node
// is still timed, so a kernel whose inputs grow is noticed, while the two cycle-counter
// reads (tens of cycles each, a tenth of a scalar node) are off the common path. Per node,
// shared by every step; updated without ordering (plain loads and stores, no
// read-modify-write): a stale estimate or a lost count only changes where one node runs or
// when it is timed next.
//
// The same samples decide which nodes are worth an intra-op team: a sample times the team
// the kernel ran with estimates its work on one thread, and a node whose work averages
// under kTeamWorkCycles runs with a team of one (the fork and join of a team costs a few
// microseconds and a wake-up per member, more than such a node gains). The estimate does
// not depend on the team, so the choice does not oscillate between team sizes.
class KernelCosts {
 public:
  // About 2-3 microseconds, TensorFlow's threshold.
  static constexpr uint32_t kExpensiveCycles = 8000;
  static constexpr uint32_t kMaxSampleCycles = 2 * kExpensiveCycles;
  static constexpr uint32_t kResampleRuns = 16;
  // About 100 microseconds of one core's work: below it, waking a sleeping team member
  // (tens of microseconds on a virtual machine) costs more than the team saves.
  static constexpr uint32_t kTeamWorkCycles = 300000;
  static constexpr uint32_t kHandOffWorkCycles = 100000;

  explicit KernelCosts(const ExecutorGraph& layout) : nodes_(new Node[layout.num_nodes()]) {
    for (int i = 0; i < layout.num_nodes(); ++i) {
      const ExecutorNode& item = layout.node(i);
      // Start well above the threshold: a few cheap runs are needed to run inline.
      nodes_[i].cycles.store(item.expensive ? 8 * kExpensiveCycles : 0, std::memory_order_relaxed);
      nodes_[i].untimed_runs.store(0, std::memory_order_relaxed);
      // Unknown work: a full team until measured.
      nodes_[i].work.store(kUnknownWork, std::memory_order_relaxed);
    }
  }

  // Whether node `id` is worth more than one intra-op thread.
  bool WorthATeam(int32_t id) const {
    return nodes_[id].work.load(std::memory_order_relaxed) > kTeamWorkCycles;
  }
  // Whether node `id` is worth handing to another thread of the inter-op pool: its work
  // must pay for waking that thread and, often, for this thread's sleep at the end of the
  // step (tens of microseconds on a virtual machine).
  bool WorthAHandOff(int32_t id) const {
    return nodes_[id].work.load(std::memory_order_relaxed) > kHandOffWorkCycles;
  }

  bool IsExpensive(int32_t id) const {
    return nodes_[id].cycles.load(std::memory_order_relaxed) > kExpensiveCycles;
  }
  // Whether to time this run of node `id` (one whose kernel calls itself expensive).
  bool ShouldTime(int32_t id) {
    if (IsExpensive(id)) return true;
    std::atomic<uint32_t>& runs = nodes_[id].untimed_runs;
    const uint32_t n = runs.load(std::memory_order_relaxed) + 1;
    runs.store(n, std::memory_order_relaxed);
    return n % kResampleRuns == 0;
  }
  // A sample counts for at most kMaxSampleCycles, so that one run stretched by preemption
  // or contention cannot flip a cheap node (it takes three such runs in a row); a node
  // whose every run is expensive still converges above the threshold.
  // `team` is the number of threads the run used.
  void Update(int32_t id, uint64_t elapsed, int team) {
    const uint64_t clamped = std::min<uint64_t>(elapsed, kMaxSampleCycles);
    std::atomic<uint32_t>& cycles = nodes_[id].cycles;
    const uint64_t old = cycles.load(std::memory_order_relaxed);
    cycles.store(static_cast<uint32_t>((3 * old + clamped) / 4), std::memory_order_relaxed);
    const uint64_t sample = std::min<uint64_t>(elapsed * std::max(team, 1), kUnknownWork - 1);
    std::atomic<uint32_t>& work = nodes_[id].work;
    const uint64_t old_work = work.load(std::memory_order_relaxed);
    work.store(
        static_cast<uint32_t>(old_work == kUnknownWork ? sample : (3 * old_work + sample) / 4),
        std::memory_order_relaxed);
  }

  // A cycle count where the CPU has a cheap one, else nanoseconds.
  static uint64_t Now() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
#endif
  }

 private:
  static constexpr uint32_t kUnknownWork = UINT32_MAX;

  struct Node {
    std::atomic<uint32_t> cycles;        // moving average of the timed runs
    std::atomic<uint32_t> untimed_runs;  // runs while cheap, for resampling
    std::atomic<uint32_t> work;          // moving average of cycles x team
  };
  std::unique_ptr<Node[]> nodes_;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_EXECUTOR_KERNEL_COSTS_H_
