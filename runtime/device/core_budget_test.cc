#include "runtime/device/core_budget.h"

#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace sluice {
namespace {

using core_budget_internal::BusyCoresWithHysteresis;
using core_budget_internal::CpuTimes;
using core_budget_internal::ParseProcStat;
using core_budget_internal::QuotaCoresFromCfs;
using core_budget_internal::QuotaCoresFromCpuMax;

TEST(ParseProcStatTest, AggregateAndPerCpuLines) {
  const std::vector<CpuTimes> cpus = ParseProcStat(
      "cpu  100 1 20 500 7 3 4 5 0 0\n"
      "cpu0 60 0 10 250 3 2 1 2 0 0\n"
      "cpu1 40 1 10 250 4 1 3 3 0 0\n"
      "intr 12345 0 0\n"
      "ctxt 999\n");
  ASSERT_EQ(cpus.size(), 3u);
  EXPECT_EQ(cpus[0].cpu, -1);
  EXPECT_EQ(cpus[0].busy, 100u + 1 + 20 + 3 + 4 + 5);  // user nice system irq softirq steal
  EXPECT_EQ(cpus[0].total, cpus[0].busy + 500 + 7);    // plus idle and iowait
  EXPECT_EQ(cpus[1].cpu, 0);
  EXPECT_EQ(cpus[1].busy, 60u + 10 + 2 + 1 + 2);
  EXPECT_EQ(cpus[2].cpu, 1);
  EXPECT_EQ(cpus[2].total, 40u + 1 + 10 + 250 + 4 + 1 + 3 + 3);
}

TEST(ParseProcStatTest, OldKernelsWithoutStealAndGarbage) {
  // Four-field lines (very old kernels) are too short; lines with garbage are skipped.
  const std::vector<CpuTimes> cpus = ParseProcStat(
      "cpu0 1 2 3\n"
      "cpu1 10 0 5 100 0\n"
      "cpux 1 2 3 4 5\n"
      "cpu2 a b c d e\n");
  ASSERT_EQ(cpus.size(), 1u);
  EXPECT_EQ(cpus[0].cpu, 1);
  EXPECT_EQ(cpus[0].busy, 15u);
  EXPECT_EQ(cpus[0].total, 115u);
  EXPECT_TRUE(ParseProcStat("").empty());
}

TEST(QuotaTest, CgroupV2CpuMax) {
  EXPECT_EQ(QuotaCoresFromCpuMax("max 100000\n"), std::nullopt);
  EXPECT_EQ(QuotaCoresFromCpuMax("200000 100000\n"), 2);
  EXPECT_EQ(QuotaCoresFromCpuMax("150000 100000"), 2);  // rounded up
  EXPECT_EQ(QuotaCoresFromCpuMax("50000 100000"), 1);
  EXPECT_EQ(QuotaCoresFromCpuMax(""), std::nullopt);
  EXPECT_EQ(QuotaCoresFromCpuMax("junk"), std::nullopt);
}

TEST(QuotaTest, CgroupV1Cfs) {
  EXPECT_EQ(QuotaCoresFromCfs("-1\n", "100000\n"), std::nullopt);
  EXPECT_EQ(QuotaCoresFromCfs("400000\n", "100000\n"), 4);
  EXPECT_EQ(QuotaCoresFromCfs("", ""), std::nullopt);
}

TEST(HysteresisTest, MovesOnlyWhenFarFromThePublishedCount) {
  EXPECT_EQ(BusyCoresWithHysteresis(0.0, 0), 0);
  EXPECT_EQ(BusyCoresWithHysteresis(0.55, 0), 0);  // noise
  EXPECT_EQ(BusyCoresWithHysteresis(0.97, 0), 1);  // a neighbour arrives
  EXPECT_EQ(BusyCoresWithHysteresis(0.45, 1), 1);  // it dips: still counted
  EXPECT_EQ(BusyCoresWithHysteresis(1.55, 1), 1);
  EXPECT_EQ(BusyCoresWithHysteresis(0.3, 1), 0);  // it left
  EXPECT_EQ(BusyCoresWithHysteresis(2.8, 0), 3);
  EXPECT_EQ(BusyCoresWithHysteresis(-0.9, 1), 0);  // never negative
}

TEST(CoreBudgetTest, UsableCoresFollowTheAffinityMask) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_GE(CoreBudget::Get().usable_cores(), 1);
  EXPECT_LE(CoreBudget::Get().usable_cores(), CPU_COUNT(&set));
}

TEST(CoreBudgetTest, TeamsTakeOnlyCoresNoOtherThreadOccupies) {
  CoreBudget& budget = CoreBudget::Get();
  budget.PinFreeCoresForTesting(4);
  ASSERT_EQ(budget.occupied(), 0);
  {
    // A thread that is not running a step's nodes: its team counts it too.
    CoreBudget::Claim first(budget, 64);
    EXPECT_EQ(first.team(), 4);
    EXPECT_EQ(budget.occupied(), 4);
    // Nothing is left: another kernel gets a team of one, its own thread.
    CoreBudget::Claim second(budget, 64);
    EXPECT_EQ(second.team(), 1);
    EXPECT_EQ(budget.occupied(), 5);
  }
  EXPECT_EQ(budget.occupied(), 0);
  {
    // An executor thread (an Occupant) and a node handed to another thread (a promise):
    // two cores are taken, and this thread's team is its own core plus the two left.
    const CoreBudget::Occupant loop(budget, /*promised=*/false);
    budget.PromiseCore();
    EXPECT_EQ(budget.occupied(), 2);
    {
      CoreBudget::Claim team(budget, 64);
      EXPECT_EQ(team.team(), 3);
      EXPECT_EQ(budget.occupied(), 4);
      CoreBudget::Claim capped(budget, 2);
      EXPECT_EQ(capped.team(), 1);
    }
    EXPECT_EQ(budget.occupied(), 2);
    // The handed-over node's thread takes the promise over and gives it back when done.
    std::thread([&budget] {
      const CoreBudget::Occupant handed(budget, /*promised=*/true);
      EXPECT_EQ(budget.occupied(), 2);
    }).join();
    EXPECT_EQ(budget.occupied(), 1);
    {
      // Nested loops on one thread (a function's nodes run inline) count once; a promise
      // run inline by the runner on a counted thread is given back.
      const CoreBudget::Occupant nested(budget, /*promised=*/false);
      EXPECT_EQ(budget.occupied(), 1);
      budget.PromiseCore();
      const CoreBudget::Occupant inline_run(budget, /*promised=*/true);
      EXPECT_EQ(budget.occupied(), 1);
    }
    EXPECT_EQ(budget.occupied(), 1);
  }
  EXPECT_EQ(budget.occupied(), 0);
  budget.PinFreeCoresForTesting(0);
}

TEST(CoreBudgetTest, FreeCoresLeaveOutWhatOtherProcessesUse) {
  CoreBudget& budget = CoreBudget::Get();
  const int usable = budget.usable_cores();
  budget.set_busy_elsewhere(0);
  EXPECT_EQ(CoreBudget::Claim(budget, 64).team(), usable);
  // Other processes keep all but one core busy, or more than all: one core is left.
  budget.set_busy_elsewhere(usable - 1);
  EXPECT_EQ(budget.free_cores(), 1);
  EXPECT_EQ(CoreBudget::Claim(budget, 64).team(), 1);
  budget.set_busy_elsewhere(usable + 5);
  EXPECT_EQ(budget.free_cores(), 1);
  budget.set_busy_elsewhere(0);
  EXPECT_EQ(budget.free_cores(), usable);
}

TEST(LoadSamplerTest, StartsAndStopsWithItsHolders) {
  std::shared_ptr<LoadSampler> a = AcquireLoadSampler();
  std::shared_ptr<LoadSampler> b = AcquireLoadSampler();
  EXPECT_EQ(a, b);
  // A few sampling periods: the sampler publishes a count without crashing, and an idle
  // test machine leaves at least one core free by construction.
  std::this_thread::sleep_for(4 * CoreBudget::kSamplePeriod);
  EXPECT_GE(CoreBudget::Get().free_cores(), 1);
  a.reset();
  b.reset();
  std::shared_ptr<LoadSampler> c = AcquireLoadSampler();
  EXPECT_NE(c, nullptr);
}

// Polls until samples_taken() has not moved for `quiet` or `deadline` passed; returns
// whether it went quiet.
bool WaitUntilSamplingStops(std::chrono::milliseconds quiet, std::chrono::milliseconds deadline) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  uint64_t seen = CoreBudget::Get().samples_taken();
  auto unchanged_since = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(CoreBudget::kSamplePeriod / 4);
    const uint64_t now_seen = CoreBudget::Get().samples_taken();
    if (now_seen != seen) {
      seen = now_seen;
      unchanged_since = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - unchanged_since >= quiet) {
      return true;
    }
  }
  return false;
}

TEST(LoadSamplerTest, SamplesOnlyWhileAsked) {
  CoreBudget& budget = CoreBudget::Get();
  std::shared_ptr<LoadSampler> sampler = AcquireLoadSampler();
  // Asked steadily (as kernels that size teams ask) for longer than the dormancy delay,
  // it keeps sampling.
  const uint64_t before = budget.samples_taken();
  const auto asked_for = 4 * CoreBudget::kDormantAfterSamples * CoreBudget::kSamplePeriod;
  for (auto end = std::chrono::steady_clock::now() + asked_for;
       std::chrono::steady_clock::now() < end;) {
    EXPECT_GE(budget.free_cores(), 1);
    std::this_thread::sleep_for(CoreBudget::kSamplePeriod / 2);
  }
  EXPECT_GE(budget.samples_taken() - before,
            static_cast<uint64_t>(2 * CoreBudget::kDormantAfterSamples));

  // Nobody asks: it stops (ten periods without a sample).
  ASSERT_TRUE(WaitUntilSamplingStops(10 * CoreBudget::kSamplePeriod, std::chrono::seconds(10)));

  // One question wakes it, and it samples again at once.
  const uint64_t asleep = budget.samples_taken();
  EXPECT_GE(budget.free_cores(), 1);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (budget.samples_taken() == asleep && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_GT(budget.samples_taken(), asleep);

  // A sampler stopped while asleep joins (the test would hang otherwise).
  ASSERT_TRUE(WaitUntilSamplingStops(10 * CoreBudget::kSamplePeriod, std::chrono::seconds(10)));
  sampler.reset();
}

// A /proc/stat of the affinity CPUs whose busy time the test sets: `busy_ticks` of user
// time on the first CPU, none elsewhere, all the rest idle.
void WriteProcStat(const std::string& path, uint64_t busy_ticks) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  std::ofstream out(path, std::ios::trunc);
  bool first = true;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    out << "cpu" << cpu << " " << (first ? busy_ticks : 0) << " 0 0 1000000 0 0 0 0 0 0\n";
    first = false;
  }
  ASSERT_TRUE(out.good());
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(LoadSamplerTest, AWakeCountsWhatWasBusyWhileItSlept) {
  CoreBudget& budget = CoreBudget::Get();
  if (budget.usable_cores() < 2) GTEST_SKIP() << "needs two usable cores";
  // A fake /proc/stat, so that the machine's real load (a test suite's other tests) does not
  // count: nothing busy elsewhere to begin with.
  const std::string path = std::string(getenv("TEST_TMPDIR")) + "/proc_stat";
  WriteProcStat(path, 0);
  core_budget_internal::SetProcStatPathForTesting(path);
  budget.set_busy_elsewhere(0);
  std::shared_ptr<LoadSampler> sampler = AcquireLoadSampler();
  ASSERT_TRUE(WaitUntilSamplingStops(10 * CoreBudget::kSamplePeriod, std::chrono::seconds(10)));
  // A question wakes it; its last sample before sleeping again comes after this moment.
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(budget.free_cores(), budget.usable_cores());
  ASSERT_TRUE(WaitUntilSamplingStops(10 * CoreBudget::kSamplePeriod, std::chrono::seconds(10)));
  // While it sleeps, another process keeps one core busy from then on.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  WriteProcStat(path, static_cast<uint64_t>(SecondsSince(asked) * sysconf(_SC_CLK_TCK)));

  // The question that wakes it gets the count from before; the sample taken at the wake
  // averages over the sleep and is published before the next period's window (in which
  // nothing more is busy) could be.
  const uint64_t asleep = budget.samples_taken();
  EXPECT_EQ(budget.free_cores(), budget.usable_cores());
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (budget.samples_taken() == asleep && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(budget.free_cores(), budget.usable_cores() - 1);

  sampler.reset();
  core_budget_internal::SetProcStatPathForTesting("");
  budget.set_busy_elsewhere(0);
}

}  // namespace
}  // namespace sluice
