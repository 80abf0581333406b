// Device: attributes, parsed name and the default (inline) kernel hooks.
#include "runtime/device/device.h"

#include <utility>

#include "absl/random/random.h"
#include "glog/logging.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

Device::Device(const DeviceAttributes& attributes, Allocator* allocator)
    : DeviceBase(attributes.name(), DeviceType(attributes.device_type()), allocator),
      attributes_(attributes) {
  CHECK(ParseFullName(attributes_.name(), &parsed_name_))
      << "Invalid device name: " << attributes_.name();
}

Device::~Device() = default;

void Device::Compute(OpKernel* op_kernel, OpKernelContext* context) { op_kernel->Compute(context); }

void Device::ComputeAsync(AsyncOpKernel* op_kernel, OpKernelContext* context,
                          std::function<void()> done) {
  op_kernel->ComputeAsync(context, std::move(done));
}

absl::Status Device::Sync() { return absl::OkStatus(); }

absl::Status Device::MakeTensorFromProto(const TensorProto& proto, Tensor* tensor) {
  return TensorFromProto(GetAllocator(), proto, tensor);
}

DeviceAttributes Device::BuildDeviceAttributes(const std::string& name, const std::string& type,
                                               int64_t memory_limit, const DeviceLocality& locality,
                                               const std::string& physical_device_desc) {
  DeviceAttributes attributes;
  attributes.set_name(name);
  attributes.set_device_type(type);
  attributes.set_memory_limit(memory_limit);
  *attributes.mutable_locality() = locality;
  attributes.set_incarnation(NewIncarnation());
  attributes.set_physical_device_desc(physical_device_desc);
  return attributes;
}

uint64_t Device::NewIncarnation() {
  // Incarnations tell apart devices of the same name across restarts, so they must differ
  // between processes: seeded from the OS, not fixed.
  static absl::Mutex mu(absl::kConstInit);
  static absl::BitGen* gen = new absl::BitGen();
  absl::MutexLock lock(&mu);
  uint64_t value = 0;
  while (value == 0) value = absl::Uniform<uint64_t>(*gen);
  return value;
}

}  // namespace sluice
