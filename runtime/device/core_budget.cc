// The process's core budget and the thread that samples the machine's load.
#include "runtime/device/core_budget.h"

#include <fcntl.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

namespace {
std::mutex proc_stat_path_mu;
std::string* proc_stat_path = new std::string("/proc/stat");
}  // namespace

void SetProcStatPathForTesting(const std::string& path) {
  std::lock_guard<std::mutex> lock(proc_stat_path_mu);
  *proc_stat_path = path.empty() ? "/proc/stat" : path;
}

std::string ProcStatPath() {
  std::lock_guard<std::mutex> lock(proc_stat_path_mu);
  return *proc_stat_path;
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

void CoreBudget::NoteDemand() const {
  // With the sampler's "dormant, unless demanded" check in Loop, these sequentially
  // consistent operations make sure one side sees the other: either the sampler sees the
  // demand and stays awake, or this sees it dormant and wakes it.
  demanded_.store(true);
  if (sampler_dormant_.load()) {
    {
      std::lock_guard<std::mutex> lock(sampler_mu_);
      sampler_dormant_.store(false);
    }
    sampler_wake_.notify_all();
  }
}

// Samples the affinity CPUs' busy time every kSamplePeriod while free_cores() is being
// called, and publishes the cores busy elsewhere into CoreBudget::Get().
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
    CoreBudget& budget = CoreBudget::Get();
    {
      std::lock_guard<std::mutex> lock(budget.sampler_mu_);
      stop_ = true;
    }
    budget.sampler_wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  struct Sample {
    double wall_s = 0;
    double own_cpu_s = 0;
    double busy_s = 0;  // busy time of the affinity CPUs, all processes
  };

  // /proc/stat into text_ with plain reads (no stream objects per sample: the sampler's
  // time is taken from a core a step may be using; the path is copied once per sample).
  bool ReadProcStat() {
    const int fd = open(core_budget_internal::ProcStatPath().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    size_t size = 0;
    for (;;) {
      if (text_.size() < size + 4096) text_.resize(size + 4096);
      const ssize_t n = read(fd, &text_[size], text_.size() - size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      size += static_cast<size_t>(n);
    }
    close(fd);
    text_.resize(size);
    return size > 0;
  }

  bool TakeSample(Sample* sample) {
    if (ticks_per_second_ <= 0 || !ReadProcStat()) return false;
    const std::vector<CpuTimes> times = core_budget_internal::ParseProcStat(text_);
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

  // Publishes the cores busy elsewhere between the window's first and last samples.
  void Publish(const std::deque<Sample>& window, int* published) {
    if (window.size() < 2) return;
    const Sample& first = window.front();
    const Sample& last = window.back();
    const double wall = last.wall_s - first.wall_s;
    const double elsewhere = (last.busy_s - first.busy_s) - (last.own_cpu_s - first.own_cpu_s);
    if (wall <= 0) return;
    *published =
        core_budget_internal::BusyCoresWithHysteresis(std::max(0.0, elsewhere / wall), *published);
    CoreBudget::Get().set_busy_elsewhere(*published);
  }

  void Loop() {
    CoreBudget& budget = CoreBudget::Get();
    std::deque<Sample> window;
    int published = 0;
    int periods_without_demand = 0;
    std::unique_lock<std::mutex> lock(budget.sampler_mu_);
    while (!stop_) {
      Sample sample;
      if (TakeSample(&sample)) {
        window.push_back(sample);
        if (window.size() > CoreBudget::kWindowSamples + 1) window.pop_front();
        Publish(window, &published);
        budget.samples_taken_.fetch_add(1, std::memory_order_release);
      }
      periods_without_demand = budget.demanded_.exchange(false) ? 0 : periods_without_demand + 1;
      if (periods_without_demand < CoreBudget::kDormantAfterSamples) {
        budget.sampler_wake_.wait_for(lock, CoreBudget::kSamplePeriod, [this] { return stop_; });
        continue;
      }
      // Nobody has asked for a while: sleep until someone does (NoteDemand).
      budget.sampler_dormant_.store(true);
      if (!budget.demanded_.load()) {
        budget.sampler_wake_.wait(
            lock, [this, &budget] { return stop_ || !budget.sampler_dormant_.load(); });
      }
      budget.sampler_dormant_.store(false);
      periods_without_demand = 0;
      if (stop_) break;
      // At once, the average over the time asleep (better than the count from before it),
      // then a fresh window from now on.
      if (TakeSample(&sample)) {
        if (!window.empty()) {
          const Sample before = window.back();
          window.assign({before, sample});
          Publish(window, &published);
        }
        window.assign({sample});
        budget.samples_taken_.fetch_add(1, std::memory_order_release);
      }
      budget.sampler_wake_.wait_for(lock, CoreBudget::kSamplePeriod, [this] { return stop_; });
    }
  }

  const std::vector<int> cpus_;  // sorted
  const long ticks_per_second_;
  std::string text_;   // the last /proc/stat read
  bool stop_ = false;  // guarded by CoreBudget's sampler_mu_
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
