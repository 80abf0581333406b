// DeviceMgr: every accepted spelling of each device's name maps to the device.
#include "runtime/device/device_mgr.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "graph/core/device_name.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

// The names TensorFlow's DeviceMgr accepts for a device (besides its full name): the local
// name "CPU:0", "/device:CPU:0", and the legacy "/cpu:0", "cpu:0" and
// "/job:j/replica:r/task:t/cpu:0".
std::vector<std::string> NameAliases(const Device& device) {
  const ParsedDeviceName& p = device.parsed_name();
  const std::string type = p.type;
  const std::string lower = absl::AsciiStrToLower(type);
  const std::string id = absl::StrCat(p.id);
  const std::string address =
      absl::StrCat("/job:", p.job, "/replica:", p.replica, "/task:", p.task);
  return {
      device.name(),
      absl::StrCat(type, ":", id),
      absl::StrCat("/device:", type, ":", id),
      absl::StrCat("/", lower, ":", id),
      absl::StrCat(lower, ":", id),
      absl::StrCat(address, "/", lower, ":", id),
      absl::StrCat(address, "/", type, ":", id),
  };
}

}  // namespace

DeviceMgr::DeviceMgr(std::vector<std::unique_ptr<Device>> devices) : devices_(std::move(devices)) {
  for (const std::unique_ptr<Device>& device : devices_) {
    for (const std::string& alias : NameAliases(*device)) {
      // A full name is never shadowed; a short alias goes to the first device claiming it
      // (two tasks' "CPU:0" are ambiguous, and the local one comes first).
      auto inserted = device_map_.emplace(alias, device.get());
      CHECK(inserted.second || alias != device->name())
          << "Duplicate device name: " << device->name();
    }
    if (host_cpu_ == nullptr && device->device_type() == DeviceType(DEVICE_CPU)) {
      host_cpu_ = device.get();
    }
  }
}

DeviceMgr::~DeviceMgr() = default;

std::vector<Device*> DeviceMgr::ListDevices() const {
  std::vector<Device*> result;
  result.reserve(devices_.size());
  for (const std::unique_ptr<Device>& device : devices_) result.push_back(device.get());
  return result;
}

void DeviceMgr::ListDeviceAttributes(std::vector<DeviceAttributes>* attributes) const {
  for (const std::unique_ptr<Device>& device : devices_) {
    attributes->push_back(device->attributes());
  }
}

absl::Status DeviceMgr::LookupDevice(absl::string_view name, Device** device) const {
  auto it = device_map_.find(name);
  if (it == device_map_.end()) {
    return errors::NotFound(name, " unknown device.");
  }
  *device = it->second;
  return absl::OkStatus();
}

Device* DeviceMgr::HostCPU() const { return host_cpu_; }

std::string DeviceMgr::DebugString() const {
  std::string out;
  for (const std::unique_ptr<Device>& device : devices_) {
    absl::StrAppend(&out, device->name(), " (", device->device_type().type_string(), ")\n");
  }
  return out;
}

}  // namespace sluice
