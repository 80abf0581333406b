#include "runtime/device/team_placement.h"

#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <vector>

// libgomp's entry for `#pragma omp parallel num_threads(n)`: runs fn(data) on the calling
// thread and on n - 1 of its workers, and returns when all have. (See the header for why
// it is called directly.)
extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags);

namespace sluice {
namespace {

bool UserBindsOpenMpThreads() {
  static const bool binds = [] {
    for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY"}) {
      if (std::getenv(name) != nullptr) return true;
    }
    return false;
  }();
  return binds;
}

bool PinCallingThreadTo(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return pthread_setaffinity_np(pthread_self(), sizeof(one), &one) == 0;
}

// What the workers of one placement region read, on the master's stack. Every access holds
// `placement_mu`, one mutex for the process (constant-initialized, so creating it writes no
// memory): libgomp is not instrumented, so ThreadSanitizer cannot see the order its
// fork and join give (the master fills the list before the region and its stack frame is
// gone after), and a mutex it sees gives it. Only placement regions, which are rare, take it.
std::mutex placement_mu;
struct WorkerCpus {
  pthread_t master;
  size_t next = 0;
  std::vector<int> cpus;
};

// Run by every member of the placement region: each worker (not the master) takes the next
// CPU of the list. Which worker gets which CPU does not matter, only that they differ.
void PinWorker(void* data) {
  auto* workers = static_cast<WorkerCpus*>(data);
  int cpu = -1;
  {
    std::lock_guard<std::mutex> lock(placement_mu);
    if (pthread_equal(pthread_self(), workers->master)) return;
    if (workers->next < workers->cpus.size()) cpu = workers->cpus[workers->next++];
  }
  if (cpu >= 0) PinCallingThreadTo(cpu);
}

// The last placement made on this thread: its workers are still pinned for it.
struct LastPlacement {
  int cpu = -1;
  int team = 0;
  cpu_set_t mask;
};
thread_local LastPlacement last_placement;

}  // namespace

TeamPlacement::TeamPlacement(int team) {
  if (team < 2 || UserBindsOpenMpThreads()) return;
  if (pthread_getaffinity_np(pthread_self(), sizeof(original_mask_), &original_mask_) != 0) {
    return;
  }
  if (CPU_COUNT(&original_mask_) < team) return;
  const int cpu = sched_getcpu();
  if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &original_mask_)) return;
  if (!PinCallingThreadTo(cpu)) return;
  placed_ = true;
  if (last_placement.cpu == cpu && last_placement.team == team &&
      CPU_EQUAL(&last_placement.mask, &original_mask_)) {
    return;
  }
  // The workers take the mask's CPUs after the master's, wrapping around.
  WorkerCpus workers;
  {
    std::lock_guard<std::mutex> lock(placement_mu);
    workers.master = pthread_self();
    for (int step = 1; step < CPU_SETSIZE && static_cast<int>(workers.cpus.size()) < team - 1;
         ++step) {
      const int candidate = (cpu + step) % CPU_SETSIZE;
      if (CPU_ISSET(candidate, &original_mask_)) workers.cpus.push_back(candidate);
    }
  }
  GOMP_parallel(&PinWorker, &workers, static_cast<unsigned>(team), 0);
  size_t pinned;
  {
    const std::lock_guard<std::mutex> lock(placement_mu);  // the workers' accesses first
    pinned = workers.next;
  }
  // A region that got fewer threads (one nested in another region runs alone) placed fewer
  // workers than the team has: the next kernel tries again.
  if (pinned + 1 < static_cast<size_t>(team)) return;
  last_placement.cpu = cpu;
  last_placement.team = team;
  std::memcpy(&last_placement.mask, &original_mask_, sizeof(original_mask_));
}

TeamPlacement::~TeamPlacement() {
  if (placed_) pthread_setaffinity_np(pthread_self(), sizeof(original_mask_), &original_mask_);
}

}  // namespace sluice
