// CpuDevice and its factory: per-device allocators, shared intra-op pools, OpenMP threads.
#include "runtime/device/cpu_device.h"

#include <omp.h>

#include <algorithm>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "numerics/float_environment.h"
#include "runtime/device/core_budget.h"
#include "runtime/device/team_placement.h"
#include "runtime/device/thread_pool.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {

class IntraOpThreadPool {
 public:
  explicit IntraOpThreadPool(std::unique_ptr<ThreadPool> pool)
      : pool_(std::move(pool)), device_(pool_.get(), pool_->NumThreads()) {}

  ThreadPool* pool() { return pool_.get(); }
  const Eigen::ThreadPoolDevice* device() const { return &device_; }

 private:
  const std::unique_ptr<ThreadPool> pool_;
  Eigen::ThreadPoolDevice device_;
};

namespace {

// The shared pool of `num_threads` threads (spinning or not), created if no live device
// holds one. RESOURCE_EXHAUSTED if the system refuses its threads.
absl::StatusOr<std::shared_ptr<IntraOpThreadPool>> SharedPool(int num_threads,
                                                              bool allow_spinning) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* pools =
      new absl::flat_hash_map<std::pair<int, bool>, std::weak_ptr<IntraOpThreadPool>>();
  absl::MutexLock lock(&mu);
  std::weak_ptr<IntraOpThreadPool>& slot = (*pools)[{num_threads, allow_spinning}];
  std::shared_ptr<IntraOpThreadPool> pool = slot.lock();
  if (pool == nullptr) {
    absl::StatusOr<std::unique_ptr<ThreadPool>> threads =
        StartThreadPool(num_threads, allow_spinning, "the CPU device's intra-op pool");
    if (!threads.ok()) {
      pools->erase({num_threads, allow_spinning});
      return threads.status();
    }
    pool = std::make_shared<IntraOpThreadPool>(*std::move(threads));
    slot = pool;
  }
  return pool;
}

// The OpenMP thread count this thread was last given by a CpuDevice (0: never).
thread_local int omp_threads_of_this_thread = 0;

// How many of this thread's OpenMP workers (team members, this thread included) were given
// which flush mode (numerics::DenormalMode) by GiveOmpWorkersThisThreadsMode.
thread_local int omp_team_given_mode = 0;
thread_local uint64_t omp_mode_given = 0;

// Team bodies without shared data, so that no worker reads memory the master wrote (libgomp
// hands work over through synchronisation ThreadSanitizer does not see).
void FlushInThisTeam() {
#pragma omp parallel
  { numerics::SetDenormalMode(numerics::kFlushDenormalsMode); }
}
void KeepDenormalsInThisTeam() {
#pragma omp parallel
  { numerics::SetDenormalMode(0); }
}

// libgomp's workers are threads this thread started, each in the mode this thread had then,
// and kept for its later teams. A worker started while this thread was in another mode (before
// a step, by the caller's own OpenMP code) would compute a oneDNN primitive's share without
// flushing; so whenever the team grows or this thread's mode changes, one empty team region
// gives every worker this thread's mode.
void GiveOmpWorkersThisThreadsMode(int team) {
  const uint64_t mode = numerics::DenormalMode();
  if (team <= omp_team_given_mode && mode == omp_mode_given) return;
  if (mode != 0) {
    FlushInThisTeam();
  } else {
    KeepDenormalsInThisTeam();
  }
  omp_team_given_mode = team;
  omp_mode_given = mode;
}

}  // namespace

absl::StatusOr<std::unique_ptr<CpuDevice>> CpuDevice::Create(const DeviceAttributes& attributes,
                                                             int num_threads, bool allow_spinning,
                                                             int64_t memory_limit_bytes) {
  absl::StatusOr<std::shared_ptr<IntraOpThreadPool>> pool = SharedPool(num_threads, allow_spinning);
  if (!pool.ok()) return pool.status();
  return std::unique_ptr<CpuDevice>(
      new CpuDevice(attributes, *std::move(pool),
                    new RetainingAllocator(CpuAllocator::WithBytesLimit(memory_limit_bytes))));
}

CpuDevice::CpuDevice(const DeviceAttributes& attributes, std::shared_ptr<IntraOpThreadPool> pool,
                     RetainingAllocator* allocator)
    : Device(attributes, allocator),
      allocator_(allocator),
      num_threads_(pool->pool()->NumThreads()),
      pool_(std::move(pool)),
      load_sampler_(num_threads_ > 1 ? AcquireLoadSampler() : nullptr) {
  set_eigen_cpu_device(pool_->device());
}

CpuDevice::~CpuDevice() = default;

Eigen::ThreadPoolInterface* CpuDevice::intra_op_thread_pool() const { return pool_->pool(); }

void CpuDevice::SetOmpThreadsForCurrentThread(int team) const {
  if (omp_threads_of_this_thread != team) {
    omp_set_num_threads(team);
    omp_threads_of_this_thread = team;
  }
  if (team > 1) GiveOmpWorkersThisThreadsMode(team);
}

void CpuDevice::Compute(OpKernel* op_kernel, OpKernelContext* context) {
  // The caller (the executor) may have capped the team already.
  const int cap = std::min(num_threads_, context->intra_op_threads());
  if (cap <= 1 || !op_kernel->IsExpensive()) {
    // A cheap kernel, a kernel on a one-thread device and one too small for a team run
    // with a team of one (OpenMP's too: a oneDNN primitive would otherwise fork the team
    // this thread was last given).
    SetOmpThreadsForCurrentThread(1);
    context->set_intra_op_threads(1);
    op_kernel->Compute(context);
    return;
  }
  const CoreBudget::Claim claim(CoreBudget::Get(), cap);
  SetOmpThreadsForCurrentThread(claim.team());
  context->set_intra_op_threads(claim.team());
  const TeamPlacement placement(claim.team());
  op_kernel->Compute(context);
}

void CpuDevice::ComputeAsync(AsyncOpKernel* op_kernel, OpKernelContext* context,
                             std::function<void()> done) {
  // An asynchronous kernel's work may outlive this call, so it claims nothing; it may use
  // the cores free now.
  const int team = std::min(num_threads_, CoreBudget::Get().free_cores());
  SetOmpThreadsForCurrentThread(team);
  context->set_intra_op_threads(team);
  op_kernel->ComputeAsync(context, std::move(done));
}

int CpuDevice::ThreadsWorthRunning() const { return CoreBudget::Get().free_cores(); }

absl::Status IntraOpThreadsFromOptions(const SessionOptions& options, int* num_threads) {
  const int requested = options.config.intra_op_parallelism_threads();
  if (requested < 0) {
    return errors::InvalidArgument("Invalid intra_op_parallelism_threads: ", requested,
                                   " (must be at least 0; 0 picks the number of cores)");
  }
  if (requested > kMaxThreadsPerPool) {
    return errors::InvalidArgument("Invalid intra_op_parallelism_threads: ", requested,
                                   " (at most ", kMaxThreadsPerPool, ")");
  }
  if (requested > 0) {
    *num_threads = requested;
  } else {
    *num_threads = CoreBudget::Get().usable_cores();
  }
  return absl::OkStatus();
}

bool ThreadSpinningFromOptions(const SessionOptions& options) {
  return !options.config.experimental().disable_thread_spinning();
}

absl::Status CpuDeviceFactory::CreateDevices(const SessionOptions& options,
                                             const std::string& name_prefix,
                                             std::vector<std::unique_ptr<Device>>* devices) {
  int count = 0;
  RETURN_IF_ERROR(DeviceCount(options, DEVICE_CPU, /*default_count=*/1, &count));
  int num_threads = 0;
  RETURN_IF_ERROR(IntraOpThreadsFromOptions(options, &num_threads));
  if (options.memory_limit_bytes < 0) {
    return errors::InvalidArgument("Invalid memory_limit_bytes: ", options.memory_limit_bytes,
                                   " (0 sets no limit)");
  }
  for (int i = 0; i < count; ++i) {
    const std::string name = absl::StrCat(name_prefix, "/device:", DEVICE_CPU, ":", i);
    ParsedDeviceName parsed;
    if (!ParseFullName(name, &parsed)) {
      return errors::InvalidArgument("Invalid device name prefix: '", name_prefix, "'");
    }
    absl::StatusOr<std::unique_ptr<CpuDevice>> device = CpuDevice::Create(
        Device::BuildDeviceAttributes(name, DEVICE_CPU,
                                      options.memory_limit_bytes > 0 ? options.memory_limit_bytes
                                                                     : CpuDevice::kMemoryLimitBytes,
                                      DeviceLocality(), /*physical_device_desc=*/""),
        num_threads, ThreadSpinningFromOptions(options), options.memory_limit_bytes);
    if (!device.ok()) return device.status();
    devices->push_back(*std::move(device));
  }
  return absl::OkStatus();
}

namespace {
const DeviceFactoryRegistrar<CpuDeviceFactory> cpu_factory_registrar(DEVICE_CPU, 100);
}  // namespace

}  // namespace sluice
