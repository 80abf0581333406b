// CoreBudget: how many threads a CPU kernel may use right now, so that Sluice's threads
// never outnumber the cores they can actually get.
//
// Why: an intra-op team (an OpenMP team inside a oneDNN primitive, a ParallelFor over the
// Eigen pool) finishes only when its slowest member does. When another process keeps a core
// busy, or two kernels run teams at once, a member waits for a scheduler time slice (a few
// milliseconds) and a 100-microsecond kernel takes milliseconds: the step's latency becomes
// that of the scheduler, not of the work (docs/threading.md has the measurements).
//
// The budget has three inputs:
//   - the cores this process may use: the CPUs of its affinity mask, bounded by a cgroup CPU
//     quota (cgroup v2 cpu.max or v1 cpu.cfs_quota_us/cfs_period_us) when there is one;
//   - how many of those cores other processes keep busy: a LoadSampler thread reads the
//     busy time of the affinity CPUs from /proc/stat every kSamplePeriod, subtracts this
//     process's own CPU time, and averages over the last kWindowSamples samples; the count
//     of busy cores it publishes moves only when the average is 0.6 core away from it, so
//     a steady neighbour gives a steady budget;
//   - how many cores this process's own threads occupy at this moment: one for each thread
//     that runs a step's nodes (an Occupant, held by the executors' loops, or promised by
//     PromiseCore when a node is handed to another thread, before that thread wakes), plus
//     the other members of each team a Claim formed.
// A kernel's team is max(1, min(its thread cap, free cores - cores the process's other
// threads occupy)), where free cores = usable cores - cores busy elsewhere, at least 1. So a
// team never counts on a core that a node handed to another thread, or another team, is
// using: such a member would wait for a scheduler time slice and the whole team with it.
// Cheap kernels never claim. The executors hand a node to another thread only while
// occupied() < free_cores().
//
// The sampler thread exists while a handle from AcquireLoadSampler is alive (CPU devices
// with more than one intra-op thread and sessions with more than one inter-op thread hold
// one); without one, free_cores() is usable_cores(). When /proc/stat cannot be read,
// nothing is subtracted.
//
// The sampler samples only while someone asks: free_cores() is called only to size a team
// or to decide a hand-off, i.e. for kernels whose measured work is 100,000 cycles or more
// (and an expensive kernel's first runs, before it is measured), and after
// kDormantAfterSamples periods without a call the sampler sleeps until the next one. A
// model whose every node is small (or a session between requests) then has no thread
// waking at all: each wake took its core from a step for 50-100 microseconds when no core
// was idle (with a busy neighbour, transformer_small's p99.9 went from about 55 to 90 us).
// The call that wakes it gets the count published before it slept; the sampler at once
// publishes the average over the time it slept, and from the next period its window again.
//
// The arithmetic (parsing /proc/stat and cgroup files, the hysteresis) is exposed as free
// functions for tests. Thread safety: everything here may be called from any thread.
#ifndef SLUICE_RUNTIME_DEVICE_CORE_BUDGET_H_
#define SLUICE_RUNTIME_DEVICE_CORE_BUDGET_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

class CoreBudget {
 public:
  // A sample costs its core 30-70 microseconds on a virtual machine (a thread woken from
  // sleep runs its first system calls cold), so few: every 50 ms, averaged over 100 ms.
  static constexpr std::chrono::milliseconds kSamplePeriod{50};
  static constexpr int kWindowSamples = 2;
  // Periods without a call of free_cores() after which the sampler sleeps (200 ms).
  static constexpr int kDormantAfterSamples = 4;

  // The process-wide budget.
  static CoreBudget& Get();

  // Cores this process may use (affinity and quota), at least 1; fixed at first use.
  int usable_cores() const { return usable_cores_; }
  // usable_cores() minus the cores other processes keep busy, at least 1. Keeps the
  // sampler awake, or wakes it (see above).
  int free_cores() const {
    if (!demanded_.load(std::memory_order_relaxed)) NoteDemand();
    const int pinned = pinned_free_cores_.load(std::memory_order_relaxed);
    if (pinned > 0) return pinned;
    const int busy = busy_elsewhere_.load(std::memory_order_relaxed);
    return busy >= usable_cores_ ? 1 : usable_cores_ - busy;
  }

  // Cores this process's threads occupy now (see above); an estimate, read relaxed.
  int occupied() const { return occupied_.load(std::memory_order_relaxed); }

  // The calling thread runs a step's nodes while an Occupant lives, and occupies a core.
  // Nested occupants on one thread (a kernel that runs a function's nodes inline) count
  // once. `promised`: PromiseCore was called for this thread's work when it was handed over;
  // the occupant takes that promise over instead of counting again.
  class Occupant {
   public:
    Occupant(CoreBudget& budget, bool promised);
    ~Occupant();
    Occupant(const Occupant&) = delete;
    Occupant& operator=(const Occupant&) = delete;

   private:
    CoreBudget& budget_;
  };
  // Counts a core for work handed to another thread, from the hand-off until that thread's
  // Occupant (constructed with promised = true) ends.
  void PromiseCore() { occupied_.fetch_add(1, std::memory_order_relaxed); }

  // An expensive kernel running now; its team size is fixed when it starts.
  class Claim {
   public:
    // `max_threads` >= 1 is the kernel's cap (its device's intra-op thread count).
    Claim(CoreBudget& budget, int max_threads);
    ~Claim() { budget_.occupied_.fetch_sub(added_, std::memory_order_relaxed); }
    Claim(const Claim&) = delete;
    Claim& operator=(const Claim&) = delete;
    int team() const { return team_; }

   private:
    CoreBudget& budget_;
    int team_;
    int added_;  // the cores this claim added to occupied_
  };

  // For tests and the sampler: sets the cores busy elsewhere.
  void set_busy_elsewhere(int cores) { busy_elsewhere_.store(cores, std::memory_order_relaxed); }
  // For tests whose expectations need a number of free cores whatever else the machine runs
  // (a suite's other tests): free_cores() returns `cores` until pinned again with 0.
  void PinFreeCoresForTesting(int cores) {
    pinned_free_cores_.store(cores, std::memory_order_relaxed);
  }
  // Samples the sampler has taken and published since the process started (for tests: a
  // count read after it moved comes with the count of busy cores published with it).
  uint64_t samples_taken() const { return samples_taken_.load(std::memory_order_acquire); }

 private:
  friend class LoadSampler;
  CoreBudget();
  // Records a call of free_cores() and wakes a dormant sampler.
  void NoteDemand() const;

  const int usable_cores_;
  std::atomic<int> busy_elsewhere_{0};
  std::atomic<int> pinned_free_cores_{0};
  std::atomic<int> occupied_{0};

  // The sampler's sleep lives here rather than in the sampler: the budget is never
  // destroyed, so a wake never touches a sampler that is being stopped.
  mutable std::atomic<bool> demanded_{false};  // free_cores() called since the last sample
  mutable std::atomic<bool> sampler_dormant_{false};
  mutable std::mutex sampler_mu_;
  mutable std::condition_variable sampler_wake_;
  std::atomic<uint64_t> samples_taken_{0};
};

// Keeps the process's LoadSampler thread running while held (shared by every holder).
// If the system refuses that thread, nothing is sampled: the budget assumes idle cores.
class LoadSampler;
std::shared_ptr<LoadSampler> AcquireLoadSampler();

namespace core_budget_internal {

// Busy and total jiffies of one CPU line of /proc/stat ("cpu3 user nice system idle iowait
// irq softirq steal ..."). Busy counts user, nice, system, irq, softirq and steal (time a
// hypervisor gave to someone else is as lost as time another process used).
struct CpuTimes {
  int cpu = -1;  // -1 for the aggregate "cpu" line
  uint64_t busy = 0;
  uint64_t total = 0;
};
// Every cpu line of a /proc/stat text.
std::vector<CpuTimes> ParseProcStat(const std::string& text);

// Cores a cgroup quota allows (rounded up), from cgroup v2's cpu.max text ("max 100000" or
// "150000 100000"); nullopt when unlimited or unparsable.
std::optional<int> QuotaCoresFromCpuMax(const std::string& text);
// The same from cgroup v1's cfs_quota_us and cfs_period_us texts (quota -1: unlimited).
std::optional<int> QuotaCoresFromCfs(const std::string& quota, const std::string& period);

// The busy-core count to publish given the average cores busy elsewhere and the count
// published before: unchanged while the average is within 0.6 of it, else the average
// rounded to the nearest count; never negative.
int BusyCoresWithHysteresis(double average_busy, int previous);

// The file the sampler reads instead of /proc/stat (tests write one to make a neighbour's
// busy time whatever they need); an empty path restores /proc/stat.
void SetProcStatPathForTesting(const std::string& path);

}  // namespace core_budget_internal
}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_CORE_BUDGET_H_
