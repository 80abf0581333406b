#include "runtime/device/team_placement.h"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags);

namespace sluice {
namespace {

cpu_set_t MaskOfThisThread() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  EXPECT_EQ(pthread_getaffinity_np(pthread_self(), sizeof(mask), &mask), 0);
  return mask;
}

// The affinity masks of the members of an OpenMP region of `team` threads of this thread,
// other than this thread's own. All accesses hold one constant-initialized mutex, the order
// ThreadSanitizer can see (libgomp's fork and join it cannot).
std::mutex record_mu;
struct WorkerMasks {
  pthread_t master;
  std::vector<cpu_set_t> masks;
};

void RecordWorkerMask(void* data) {
  auto* record = static_cast<WorkerMasks*>(data);
  const cpu_set_t mask = MaskOfThisThread();
  std::lock_guard<std::mutex> lock(record_mu);
  if (pthread_equal(pthread_self(), record->master)) return;
  record->masks.push_back(mask);
}

std::vector<cpu_set_t> MasksOfWorkers(int team) {
  WorkerMasks record;
  {
    std::lock_guard<std::mutex> lock(record_mu);
    record.master = pthread_self();
  }
  GOMP_parallel(&RecordWorkerMask, &record, static_cast<unsigned>(team), 0);
  std::lock_guard<std::mutex> lock(record_mu);
  return std::move(record.masks);
}

int OnlyCpuOf(const cpu_set_t& mask) {
  if (CPU_COUNT(&mask) != 1) return -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &mask)) return cpu;
  }
  return -1;
}

TEST(TeamPlacementTest, TeamOfOneChangesNothing) {
  const cpu_set_t before = MaskOfThisThread();
  {
    const TeamPlacement placement(1);
    EXPECT_FALSE(placement.placed());
    const cpu_set_t during = MaskOfThisThread();
    EXPECT_TRUE(CPU_EQUAL(&before, &during));
  }
}

TEST(TeamPlacementTest, MembersRunOnDistinctCpusAndTheMasterGetsItsMaskBack) {
  const cpu_set_t before = MaskOfThisThread();
  if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "needs two CPUs in this thread's mask";
  for (int round = 0; round < 3; ++round) {  // later rounds reuse the last placement
    const TeamPlacement placement(2);
    ASSERT_TRUE(placement.placed());
    const int master_cpu = OnlyCpuOf(MaskOfThisThread());
    ASSERT_GE(master_cpu, 0) << "the master is pinned to one CPU";
    EXPECT_TRUE(CPU_ISSET(master_cpu, &before));
    EXPECT_EQ(sched_getcpu(), master_cpu);
    const std::vector<cpu_set_t> workers = MasksOfWorkers(2);
    ASSERT_EQ(workers.size(), 1u);
    const int worker_cpu = OnlyCpuOf(workers[0]);
    ASSERT_GE(worker_cpu, 0) << "the worker is pinned to one CPU";
    EXPECT_NE(worker_cpu, master_cpu);
    EXPECT_TRUE(CPU_ISSET(worker_cpu, &before));
  }
  const cpu_set_t after = MaskOfThisThread();
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

TEST(TeamPlacementTest, TeamLargerThanTheMaskIsNotPlaced) {
  const cpu_set_t before = MaskOfThisThread();
  const TeamPlacement placement(CPU_COUNT(&before) + 1);
  EXPECT_FALSE(placement.placed());
  const cpu_set_t during = MaskOfThisThread();
  EXPECT_TRUE(CPU_EQUAL(&before, &during));
}

// A thread the user pinned to one CPU keeps that CPU: a team of two does not fit its mask.
TEST(TeamPlacementTest, AThreadPinnedByItsUserStaysAsItIs) {
  const cpu_set_t before = MaskOfThisThread();
  int first = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE && first < 0; ++cpu) {
    if (CPU_ISSET(cpu, &before)) first = cpu;
  }
  ASSERT_GE(first, 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(one), &one), 0);
  {
    const TeamPlacement placement(2);
    EXPECT_FALSE(placement.placed());
    EXPECT_EQ(OnlyCpuOf(MaskOfThisThread()), first);
  }
  EXPECT_EQ(OnlyCpuOf(MaskOfThisThread()), first);
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(before), &before), 0);
}

}  // namespace
}  // namespace sluice
