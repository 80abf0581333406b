// CpuDevice: a device that runs kernels on the host's cores, and its factory ("CPU").
//
// Each CpuDevice owns a CpuAllocator of its own, so per-device memory statistics (bytes in
// use, peak) are exact even when several CPU devices are configured
// (device_count {key: "CPU" value: 2} is how partitioning is exercised without a GPU). The
// allocator outlives the device while tensors it allocated do
// (runtime/device/retaining_allocator.h), so a fetched tensor stays valid after its session is
// gone.
//
// Intra-op parallelism: kernels split work over an Eigen::ThreadPool of
// config.intra_op_parallelism_threads threads (0: the cores this process may use, from its
// affinity mask and cgroup CPU quota, see CoreBudget::usable_cores), reached
// through eigen_cpu_device(). Pools are shared process-wide by size: every device (and
// every session) asking for N threads uses the same N-thread pool, which lives as long as
// one device uses it. Sharing keeps many sessions from multiplying threads.
//
// Teams: an expensive kernel (OpKernel::IsExpensive) runs with a team taken from the
// process's core budget (core_budget.h): at most intra_op_parallelism_threads, at most the
// cores other processes leave free less those this process's other threads occupy (executor
// threads running nodes, nodes handed to another thread, other kernels' teams).
// The team is what OpKernelContext::intra_op_threads() reports (ParallelFor's thread count)
// and the OpenMP thread count of the calling thread: the system oneDNN uses OpenMP (libgomp),
// whose thread count is a per-thread setting, so Compute calls omp_set_num_threads(team)
// when it differs from that thread's last setting (one thread_local compare per kernel). A
// oneDNN primitive and a ParallelFor are never busy for the same kernel, so the two pools
// do not oversubscribe the cores; and a team never counts on a core that another process,
// another executor thread or another kernel is using, so no kernel waits for a member the
// scheduler is not running. While a team of two or more runs, its master and OpenMP workers
// are pinned to distinct CPUs (team_placement.h), so no scheduler stacks two members on one
// CPU. Cheap kernels run with a team of one and claim nothing. A device with more than one
// thread keeps the process's load sampler running (core_budget.h).
//
// Every kernel computes in TensorFlow's floating-point mode, subnormals flushed to zero
// (numerics/float_environment.h): the pool threads are in it, the executor sets it on the thread
// that runs a step, and a team's OpenMP workers are given their master's mode when the team grows
// or that mode changes.
//
// Devices report TensorFlow's CPU memory_limit (256 MiB, informational only: allocation is
// bounded by physical memory, see graph/core/allocator.h), unless the session sets
// SessionOptions::memory_limit_bytes: then each device's allocator holds its tensors to that
// many bytes and the attribute reports it.
// Thread safety: as Device.
#ifndef SLUICE_RUNTIME_DEVICE_CPU_DEVICE_H_
#define SLUICE_RUNTIME_DEVICE_CPU_DEVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graph/core/allocator.h"
#include "graph/core/device_name.h"
#include "runtime/device/core_budget.h"
#include "runtime/device/device.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/retaining_allocator.h"
#include "runtime/device/session_options.h"

namespace Eigen {
class ThreadPoolInterface;
}  // namespace Eigen

namespace sluice {

// An Eigen::ThreadPool with the ThreadPoolDevice over it; shared by size (see above).
class IntraOpThreadPool;

class CpuDevice : public Device {
 public:
  // TensorFlow's CPU memory_limit attribute.
  static constexpr int64_t kMemoryLimitBytes = int64_t{256} << 20;

  // `num_threads` > 0 selects the shared pool of that size whose idle threads spin for work
  // before sleeping, or not (`allow_spinning`), started if no live device holds one.
  // `memory_limit_bytes` > 0 caps the bytes the device's tensors hold at once (0: no cap).
  // INVALID_ARGUMENT for a size outside 1..kMaxThreadsPerPool, RESOURCE_EXHAUSTED if the system
  // refuses the pool's threads.
  static absl::StatusOr<std::unique_ptr<CpuDevice>> Create(const DeviceAttributes& attributes,
                                                           int num_threads,
                                                           bool allow_spinning = true,
                                                           int64_t memory_limit_bytes = 0);
  ~CpuDevice() override;

  void Compute(OpKernel* op_kernel, OpKernelContext* context) override;
  void ComputeAsync(AsyncOpKernel* op_kernel, OpKernelContext* context,
                    std::function<void()> done) override;
  // The cores other processes leave free (CoreBudget::free_cores): a node handed to a
  // second thread when only one core is free waits for a time slice, and so does the step.
  int ThreadsWorthRunning() const override;

  // This device's allocator statistics.
  AllocatorStats GetAllocatorStats() const { return allocator_->GetStats(); }
  int intra_op_parallelism_threads() const { return num_threads_; }
  // The shared intra-op pool (NumThreads() == intra_op_parallelism_threads()).
  Eigen::ThreadPoolInterface* intra_op_thread_pool() const;

 private:
  // Takes the owner's reference to `allocator`.
  CpuDevice(const DeviceAttributes& attributes, std::shared_ptr<IntraOpThreadPool> pool,
            RetainingAllocator* allocator);
  // Sets the calling thread's OpenMP thread count to `team` if not already so.
  void SetOmpThreadsForCurrentThread(int team) const;

  const std::unique_ptr<RetainingAllocator, RetainingAllocator::Releaser> allocator_;
  const int num_threads_;
  const std::shared_ptr<IntraOpThreadPool> pool_;
  const std::shared_ptr<LoadSampler> load_sampler_;  // null with one thread
};

// The intra-op thread count `options` asks for: intra_op_parallelism_threads, or the cores
// this process may use when it is 0. INVALID_ARGUMENT if negative or above
// kMaxThreadsPerPool.
absl::Status IntraOpThreadsFromOptions(const SessionOptions& options, int* num_threads);

// Whether the session's pools may spin: not when config.experimental.disable_thread_spinning.
bool ThreadSpinningFromOptions(const SessionOptions& options);

// Registered for "CPU" at priority 100. Creates config.device_count["CPU"] devices
// (default 1), named name_prefix + "/device:CPU:<i>", sharing one intra-op pool.
class CpuDeviceFactory : public DeviceFactory {
 public:
  absl::Status CreateDevices(const SessionOptions& options, const std::string& name_prefix,
                             std::vector<std::unique_ptr<Device>>* devices) override;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_CPU_DEVICE_H_
