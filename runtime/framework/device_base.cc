// DeviceBase: out-of-line constructor and destructor (the vtable's home).
#include "runtime/framework/device_base.h"

#include <utility>

#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {

DeviceBase::DeviceBase(std::string name, DeviceType device_type, Allocator* allocator)
    : name_(std::move(name)), device_type_(std::move(device_type)), allocator_(allocator) {}

DeviceBase::~DeviceBase() = default;

void DeviceBase::set_eigen_cpu_device(const Eigen::ThreadPoolDevice* device) {
  eigen_cpu_device_ = device;
  eigen_cpu_threads_ = device == nullptr ? 1 : device->numThreads();
}

}  // namespace sluice
