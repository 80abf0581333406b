// DeviceBase: the part of a device that a kernel sees.
//
// A kernel reaches its device through OpKernelConstruction::device() and
// OpKernelContext::device(): its name and type, the allocator for tensors in device memory,
// the allocator for HostMemory arguments, (on CPU devices) the Eigen ThreadPoolDevice for
// intra-op parallelism, and (on GPU devices) the GpuDeviceContext. Full devices
// (runtime/device/device.h) derive from this class and add what the executor and session need.
//
// Ownership: the device does not own its allocators nor its Eigen device; whoever builds the
// device keeps them alive at least as long as the device.
// Thread safety: the accessors are const after construction and set_eigen_cpu_device (which
// is called before any kernel runs); safe from any thread.
#ifndef SLUICE_RUNTIME_FRAMEWORK_DEVICE_BASE_H_
#define SLUICE_RUNTIME_FRAMEWORK_DEVICE_BASE_H_

#include <string>

#include "runtime/framework/device_type.h"

namespace Eigen {
struct ThreadPoolDevice;
}  // namespace Eigen

namespace sluice {

class Allocator;
class GpuDeviceContext;

class DeviceBase {
 public:
  // `allocator` serves tensors in device memory and, unless GetHostAllocator is overridden,
  // HostMemory arguments as well (on a CPU device both are host memory).
  DeviceBase(std::string name, DeviceType device_type, Allocator* allocator);
  virtual ~DeviceBase();

  DeviceBase(const DeviceBase&) = delete;
  DeviceBase& operator=(const DeviceBase&) = delete;

  // The full name, e.g. "/job:localhost/replica:0/task:0/device:CPU:0".
  const std::string& name() const { return name_; }
  const DeviceType& device_type() const { return device_type_; }

  // Allocator for tensors that live in this device's memory.
  virtual Allocator* GetAllocator() { return allocator_; }
  // Allocator for tensors that must live in host memory (HostMemory arguments).
  virtual Allocator* GetHostAllocator() { return allocator_; }

  // A GPU device's stream, library handles and copies (runtime/framework/gpu/
  // gpu_device_context.h); null on every other device.
  virtual GpuDeviceContext* gpu_device_context() const { return nullptr; }

  // The Eigen device kernels use for intra-op parallel work on the CPU; null until set.
  const Eigen::ThreadPoolDevice* eigen_cpu_device() const { return eigen_cpu_device_; }
  void set_eigen_cpu_device(const Eigen::ThreadPoolDevice* device);
  // eigen_cpu_device()->numThreads(), or 1 without one.
  int eigen_cpu_threads() const { return eigen_cpu_threads_; }

 private:
  const std::string name_;
  const DeviceType device_type_;
  Allocator* const allocator_;
  const Eigen::ThreadPoolDevice* eigen_cpu_device_ = nullptr;
  int eigen_cpu_threads_ = 1;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_DEVICE_BASE_H_
