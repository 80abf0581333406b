// CpuDevice and its factory: per-device allocators, shared intra-op pools, OpenMP threads.
#include "runtime/device/cpu_device.h"

#include <omp.h>

#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {

class IntraOpThreadPool {
 public:
  IntraOpThreadPool(int num_threads, bool allow_spinning)
      : pool_(num_threads, allow_spinning), device_(&pool_, num_threads) {}

  Eigen::ThreadPool* pool() { return &pool_; }
  const Eigen::ThreadPoolDevice* device() const { return &device_; }

 private:
  Eigen::ThreadPool pool_;
  Eigen::ThreadPoolDevice device_;
};

namespace {

// The shared pool of `num_threads` threads (spinning or not), created if no live device
// holds one.
std::shared_ptr<IntraOpThreadPool> SharedPool(int num_threads, bool allow_spinning) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* pools =
      new absl::flat_hash_map<std::pair<int, bool>, std::weak_ptr<IntraOpThreadPool>>();
  absl::MutexLock lock(&mu);
  std::weak_ptr<IntraOpThreadPool>& slot = (*pools)[{num_threads, allow_spinning}];
  std::shared_ptr<IntraOpThreadPool> pool = slot.lock();
  if (pool == nullptr) {
    pool = std::make_shared<IntraOpThreadPool>(num_threads, allow_spinning);
    slot = pool;
  }
  return pool;
}

// The OpenMP thread count this thread was last given by a CpuDevice (0: never).
thread_local int omp_threads_of_this_thread = 0;

}  // namespace

CpuDevice::CpuDevice(const DeviceAttributes& attributes, int num_threads, bool allow_spinning)
    : CpuDevice(attributes, num_threads, allow_spinning, std::make_unique<CpuAllocator>()) {}

CpuDevice::CpuDevice(const DeviceAttributes& attributes, int num_threads, bool allow_spinning,
                     std::unique_ptr<CpuAllocator> allocator)
    : CpuDevice(attributes, num_threads, allow_spinning,
                new RetainingAllocator(std::move(allocator))) {}

CpuDevice::CpuDevice(const DeviceAttributes& attributes, int num_threads, bool allow_spinning,
                     RetainingAllocator* allocator)
    : Device(attributes, allocator),
      allocator_(allocator),
      num_threads_(num_threads),
      pool_(SharedPool(num_threads, allow_spinning)) {
  set_eigen_cpu_device(pool_->device());
}

CpuDevice::~CpuDevice() = default;

Eigen::ThreadPoolInterface* CpuDevice::intra_op_thread_pool() const { return pool_->pool(); }

void CpuDevice::SetOmpThreadsForCurrentThread() const {
  if (omp_threads_of_this_thread != num_threads_) {
    omp_set_num_threads(num_threads_);
    omp_threads_of_this_thread = num_threads_;
  }
}

void CpuDevice::Compute(OpKernel* op_kernel, OpKernelContext* context) {
  SetOmpThreadsForCurrentThread();
  op_kernel->Compute(context);
}

void CpuDevice::ComputeAsync(AsyncOpKernel* op_kernel, OpKernelContext* context,
                             std::function<void()> done) {
  SetOmpThreadsForCurrentThread();
  op_kernel->ComputeAsync(context, std::move(done));
}

absl::Status IntraOpThreadsFromOptions(const SessionOptions& options, int* num_threads) {
  const int requested = options.config.intra_op_parallelism_threads();
  if (requested < 0) {
    return errors::InvalidArgument("Invalid intra_op_parallelism_threads: ", requested,
                                   " (must be at least 0; 0 picks the number of cores)");
  }
  if (requested > 0) {
    *num_threads = requested;
  } else {
    const unsigned int cores = std::thread::hardware_concurrency();
    *num_threads = cores > 0 ? static_cast<int>(cores) : 1;
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
  for (int i = 0; i < count; ++i) {
    const std::string name = absl::StrCat(name_prefix, "/device:", DEVICE_CPU, ":", i);
    ParsedDeviceName parsed;
    if (!ParseFullName(name, &parsed)) {
      return errors::InvalidArgument("Invalid device name prefix: '", name_prefix, "'");
    }
    devices->push_back(std::make_unique<CpuDevice>(
        Device::BuildDeviceAttributes(name, DEVICE_CPU, CpuDevice::kMemoryLimitBytes,
                                      DeviceLocality(), /*physical_device_desc=*/""),
        num_threads, ThreadSpinningFromOptions(options)));
  }
  return absl::OkStatus();
}

namespace {
const DeviceFactoryRegistrar<CpuDeviceFactory> cpu_factory_registrar(DEVICE_CPU, 100);
}  // namespace

}  // namespace sluice
