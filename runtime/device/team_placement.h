// TeamPlacement: while a kernel runs with an OpenMP team of two or more threads, each member
// runs on a CPU of its own.
//
// Why: a oneDNN primitive splits its work evenly among its OpenMP team and joins at
// barriers, so it ends when its slowest member does. A scheduler may put two members on one
// CPU while another CPU idles. On the 2-vCPU KVM guests Sluice is measured on, the guest
// kernel packs runnable threads onto fewer vCPUs (its sched_vcpu_pack setting): `perf sched`
// showed a step's caller and its OpenMP worker taking turns on one vCPU for 12 ms, each
// sleeping at a barrier until the other ran, while the other vCPU sat idle; the 5 ms
// mobilenet_v2 step took 12 to 17 ms (docs/threading.md). An affinity mask is the one thing
// such a scheduler cannot override.
//
// For a team of N >= 2, on a thread whose affinity mask holds at least N CPUs, a
// TeamPlacement:
//   - pins the calling thread (the team's master) to the CPU it is running on, and gives it
//     its own mask back when the TeamPlacement ends, so between kernels the thread goes
//     wherever the scheduler sends it;
//   - pins the calling thread's OpenMP workers 1..N-1 each to one of the mask's other CPUs
//     (the ones after the master's, in order, wrapping), by running a short OpenMP region of
//     N threads in which each worker pins itself: libgomp gives a master's later regions of
//     that size the same workers in the same order. This is done again only when the
//     master's CPU, its mask or the team size differs from the last placement on this
//     thread, so most kernels pay one sched_getcpu and two sched_setaffinity calls, a few
//     microseconds against the 100 us or more of work a team is formed for. On a thread
//     that never ran an OpenMP region, the first one starts its libgomp workers: the same
//     threads a oneDNN primitive run with that team would start.
// Nothing is pinned when the user binds OpenMP threads (OMP_PROC_BIND, OMP_PLACES or
// GOMP_CPU_AFFINITY is set), when the mask is too small, or when a call fails: placement only
// ever helps, it is never needed for a correct result.
//
// Sluice's own ParallelFor helpers are not pinned: they take blocks as they get a core
// (kernels/cpu/parallel_for.h), so a helper put on the caller's CPU does less work, and
// nobody waits for it.
//
// The region calls libgomp (the OpenMP runtime oneDNN is built with) through its ABI entry,
// GOMP_parallel, rather than an `omp parallel` pragma: a pragma would bring in whichever
// runtime the compiler defaults to (clang's is libomp), whose workers are not oneDNN's.
// Thread safety: a TeamPlacement belongs to the thread that made it.
#ifndef SLUICE_RUNTIME_DEVICE_TEAM_PLACEMENT_H_
#define SLUICE_RUNTIME_DEVICE_TEAM_PLACEMENT_H_

#include <sched.h>

namespace sluice {

class TeamPlacement {
 public:
  explicit TeamPlacement(int team);
  ~TeamPlacement();
  TeamPlacement(const TeamPlacement&) = delete;
  TeamPlacement& operator=(const TeamPlacement&) = delete;

  // Whether the calling thread was pinned (and will be given its mask back).
  bool placed() const { return placed_; }

 private:
  bool placed_ = false;
  cpu_set_t original_mask_;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_TEAM_PLACEMENT_H_
