#include "runtime/device/team_placement.h"

#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>

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

// What the workers of one placement region read. Written before GOMP_parallel and read by
// the workers inside it; the fields are atomics because libgomp's own synchronization is
// invisible to ThreadSanitizer.
struct WorkerCpus {
  explicit WorkerCpus(int n) : cpus(new std::atomic<int>[n]) {}
  std::atomic<pthread_t> master{};
  std::atomic<int> next{0};
  std::unique_ptr<std::atomic<int>[]> cpus;
};

// Run by every member of the placement region: each worker (not the master) takes the next
// CPU of the list. Which worker gets which CPU does not matter, only that they differ.
void PinWorker(void* data) {
  auto* workers = static_cast<WorkerCpus*>(data);
  if (pthread_equal(pthread_self(), workers->master.load(std::memory_order_relaxed))) return;
  const int index = workers->next.fetch_add(1, std::memory_order_relaxed);
  PinCallingThreadTo(workers->cpus[index].load(std::memory_order_relaxed));
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
  WorkerCpus workers(team - 1);
  workers.master.store(pthread_self(), std::memory_order_relaxed);
  int chosen = 0;
  for (int step = 1; step < CPU_SETSIZE && chosen < team - 1; ++step) {
    const int candidate = (cpu + step) % CPU_SETSIZE;
    if (CPU_ISSET(candidate, &original_mask_)) {
      workers.cpus[chosen++].store(candidate, std::memory_order_relaxed);
    }
  }
  GOMP_parallel(&PinWorker, &workers, static_cast<unsigned>(team), 0);
  last_placement.cpu = cpu;
  last_placement.team = team;
  std::memcpy(&last_placement.mask, &original_mask_, sizeof(original_mask_));
}

TeamPlacement::~TeamPlacement() {
  if (placed_) pthread_setaffinity_np(pthread_self(), sizeof(original_mask_), &original_mask_);
}

}  // namespace sluice
