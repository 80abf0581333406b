// DeviceBase: out-of-line constructor and destructor (the vtable's home).
#include "runtime/framework/device_base.h"

#include <utility>

namespace sluice {

DeviceBase::DeviceBase(std::string name, DeviceType device_type, Allocator* allocator)
    : name_(std::move(name)), device_type_(std::move(device_type)), allocator_(allocator) {}

DeviceBase::~DeviceBase() = default;

}  // namespace sluice
