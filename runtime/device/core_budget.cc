// The process's core budget and the thread that samples the machine's load.
#include "runtime/device/core_budget.h"

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace sluice {
namespace core_budget_internal {

std::vector<CpuTimes> ParseProcStat(const std::string& text) {
  std::vector<CpuTimes> cpus;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::ConsumePrefix(&line, "cpu")) continue;
    std::vector<absl::string_view> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (fields.size() < 5) continue;
    CpuTimes times;
    // The aggregate line is "cpu  ..." (its first field is the user time); per-CPU lines
    // are "cpuN ...", whose first field after the prefix is N.
    size_t first = 0;
    if (line.empty() || line[0] != ' ') {
      int cpu = 0;
      if (!absl::SimpleAtoi(fields[0], &cpu)) continue;
      times.cpu = cpu;
      first = 1;
    }
    uint64_t values[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    bool ok = true;
    for (size_t i = 0; i < 8 && first + i < fields.size(); ++i) {
      ok = ok && absl::SimpleAtoi(fields[first + i], &values[i]);
    }
    if (!ok) continue;
    // user nice system idle iowait irq softirq steal
    times.busy = values[0] + values[1] + values[2] + values[5] + values[6] + values[7];
    times.total = times.busy + values[3] + values[4];
    cpus.push_back(times);
  }
  return cpus;
}

namespace {

std::optional<int> QuotaCores(double quota, double period) {
  if (quota <= 0 || period <= 0) return std::nullopt;
  return std::max(1, static_cast<int>(std::ceil(quota / period - 1e-9)));
}

}  // namespace

std::optional<int> QuotaCoresFromCpuMax(const std::string& text) {
  std::vector<absl::string_view> fields =
      absl::StrSplit(absl::StripAsciiWhitespace(text), ' ', absl::SkipEmpty());
  double quota = 0, period = 0;
  if (fields.size() != 2 || fields[0] == "max" || !absl::SimpleAtod(fields[0], &quota) ||
      !absl::SimpleAtod(fields[1], &period)) {
    return std::nullopt;
  }
  return QuotaCores(quota, period);
}

std::optional<int> QuotaCoresFromCfs(const std::string& quota_text,
                                     const std::string& period_text) {
  double quota = 0, period = 0;
  if (!absl::SimpleAtod(absl::StripAsciiWhitespace(quota_text), &quota) ||
      !absl::SimpleAtod(absl::StripAsciiWhitespace(period_text), &period)) {
    return std::nullopt;
  }
  return QuotaCores(quota, period);
}

int BusyCoresWithHysteresis(double average_busy, int previous) {
  if (std::abs(average_busy - previous) < 0.6) return previous;
  return std::max(0, static_cast<int>(std::lround(average_busy)));
}

}  // namespace core_budget_internal

namespace {

using core_budget_internal::CpuTimes;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The CPUs of this process's affinity mask (empty if it cannot be read).
std::vector<int> AffinityCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int i = 0; i < CPU_SETSIZE; ++i) {
    if (CPU_ISSET(i, &set)) cpus.push_back(i);
  }
  return cpus;
}

// The cgroup CPU quota in cores, if any: v2's cpu.max of this process's cgroup, else v1's
// cpu controller files.
std::optional<int> CgroupQuotaCores() {
  std::string path;
  std::string v1_path;
  for (absl::string_view line : absl::StrSplit(ReadFile("/proc/self/cgroup"), '\n')) {
    // "0::/path" (v2) or "N:cpu,cpuacct:/path" (v1).
    std::vector<absl::string_view> fields = absl::StrSplit(line, absl::MaxSplits(':', 2));
    if (fields.size() != 3) continue;
    if (fields[0] == "0" && fields[1].empty()) path = std::string(fields[2]);
    for (absl::string_view controller : absl::StrSplit(fields[1], ',')) {
      if (controller == "cpu") v1_path = std::string(fields[2]);
    }
  }
  if (std::optional<int> v2 = core_budget_internal::QuotaCoresFromCpuMax(
          ReadFile("/sys/fs/cgroup" + path + "/cpu.max"))) {
    return v2;
  }
  for (const std::string& dir :
       {"/sys/fs/cgroup/cpu" + v1_path, "/sys/fs/cgroup/cpu,cpuacct" + v1_path}) {
    std::optional<int> v1 = core_budget_internal::QuotaCoresFromCfs(
        ReadFile(dir + "/cpu.cfs_quota_us"), ReadFile(dir + "/cpu.cfs_period_us"));
    if (v1) return v1;
  }
  return std::nullopt;
}

int UsableCores() {
  const std::vector<int> cpus = AffinityCpus();
  int cores = cpus.empty() ? static_cast<int>(std::thread::hardware_concurrency())
                           : static_cast<int>(cpus.size());
  if (std::optional<int> quota = CgroupQuotaCores()) cores = std::min(cores, *quota);
  return std::max(cores, 1);
}

double SecondsOf(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

}  // namespace

CoreBudget::CoreBudget() : usable_cores_(UsableCores()) {}

CoreBudget& CoreBudget::Get() {
  static CoreBudget* budget = new CoreBudget();
  return *budget;
}

namespace {
// How many Occupants the calling thread holds (nested ones count once).
thread_local int occupants_on_this_thread = 0;
}  // namespace

CoreBudget::Occupant::Occupant(CoreBudget& budget, bool promised) : budget_(budget) {
  if (occupants_on_this_thread++ == 0) {
    if (!promised) budget_.occupied_.fetch_add(1, std::memory_order_relaxed);
  } else if (promised) {
    // Handed to a runner that ran it inline, on a thread already counted.
    budget_.occupied_.fetch_sub(1, std::memory_order_relaxed);
  }
}

CoreBudget::Occupant::~Occupant() {
  if (--occupants_on_this_thread == 0) budget_.occupied_.fetch_sub(1, std::memory_order_relaxed);
}

CoreBudget::Claim::Claim(CoreBudget& budget, int max_threads) : budget_(budget) {
  // The claiming thread is itself one of the occupied cores when it runs a step's nodes.
  const bool counted = occupants_on_this_thread > 0;
  const int others = budget.occupied() - (counted ? 1 : 0);
  team_ = std::max(1, std::min(max_threads, budget.free_cores() - others));
  added_ = counted ? team_ - 1 : team_;
  budget.occupied_.fetch_add(added_, std::memory_order_relaxed);
}

// Samples the affinity CPUs' busy time every kSamplePeriod and publishes the cores busy
// elsewhere into CoreBudget::Get().
class LoadSampler {
 public:
  LoadSampler() : cpus_(AffinityCpus()), ticks_per_second_(sysconf(_SC_CLK_TCK)) {
    // Without its thread (the system refused it) nothing is sampled and the budget goes on
    // assuming that no other process is busy: a worse guess, never a failure.
    try {
      thread_ = std::thread([this] { Loop(); });
    } catch (const std::system_error&) {
    }
  }
  ~LoadSampler() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  struct Sample {
    double wall_s = 0;
    double own_cpu_s = 0;
    double busy_s = 0;  // busy time of the affinity CPUs, all processes
  };

  bool TakeSample(Sample* sample) const {
    if (ticks_per_second_ <= 0) return false;
    const std::vector<CpuTimes> times = core_budget_internal::ParseProcStat(ReadFile("/proc/stat"));
    uint64_t busy = 0;
    bool any = false;
    for (const CpuTimes& cpu : times) {
      if (cpu.cpu < 0) continue;
      if (!cpus_.empty() && !std::binary_search(cpus_.begin(), cpus_.end(), cpu.cpu)) continue;
      busy += cpu.busy;
      any = true;
    }
    if (!any) return false;
    sample->wall_s = SecondsOf(CLOCK_MONOTONIC);
    sample->own_cpu_s = SecondsOf(CLOCK_PROCESS_CPUTIME_ID);
    sample->busy_s = static_cast<double>(busy) / ticks_per_second_;
    return true;
  }

  void Loop() {
    std::deque<Sample> window;
    int published = 0;
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      Sample sample;
      if (TakeSample(&sample)) {
        window.push_back(sample);
        if (window.size() > CoreBudget::kWindowSamples + 1) window.pop_front();
        if (window.size() >= 2) {
          const Sample& first = window.front();
          const double wall = sample.wall_s - first.wall_s;
          const double elsewhere =
              (sample.busy_s - first.busy_s) - (sample.own_cpu_s - first.own_cpu_s);
          if (wall > 0) {
            published = core_budget_internal::BusyCoresWithHysteresis(
                std::max(0.0, elsewhere / wall), published);
            CoreBudget::Get().set_busy_elsewhere(published);
          }
        }
      }
      wake_.wait_for(lock, CoreBudget::kSamplePeriod, [this] { return stop_; });
    }
  }

  const std::vector<int> cpus_;  // sorted
  const long ticks_per_second_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

std::shared_ptr<LoadSampler> AcquireLoadSampler() {
  static std::mutex mu;
  static auto* current = new std::weak_ptr<LoadSampler>();
  std::lock_guard<std::mutex> lock(mu);
  std::shared_ptr<LoadSampler> sampler = current->lock();
  if (sampler == nullptr) {
    sampler = std::make_shared<LoadSampler>();
    *current = sampler;
  }
  return sampler;
}

}  // namespace sluice
