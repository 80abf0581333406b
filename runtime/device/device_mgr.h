// DeviceMgr: the set of devices a session runs on, found by name.
//
// Lookup accepts a device's full name ("/job:localhost/replica:0/task:0/device:CPU:0"),
// its canonical local name ("CPU:0"), the legacy forms ("/cpu:0", "/device:CPU:0",
// "/job:localhost/replica:0/task:0/cpu:0") and the lower-case type alias ("cpu:0"). Anything
// else is NOT_FOUND with TensorFlow's text: "<name> unknown device.".
//
// Ownership: owns the devices; pointers it hands out stay valid for its lifetime.
// Thread safety: immutable after construction, so every method is safe from any thread.
#ifndef SLUICE_RUNTIME_DEVICE_DEVICE_MGR_H_
#define SLUICE_RUNTIME_DEVICE_DEVICE_MGR_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/device_attributes.pb.h"
#include "runtime/device/device.h"

namespace sluice {

class DeviceMgr {
 public:
  // REQUIRES: device names are distinct.
  explicit DeviceMgr(std::vector<std::unique_ptr<Device>> devices);
  ~DeviceMgr();

  DeviceMgr(const DeviceMgr&) = delete;
  DeviceMgr& operator=(const DeviceMgr&) = delete;

  // In the order given to the constructor.
  std::vector<Device*> ListDevices() const;
  // Appends each device's attributes to *attributes.
  void ListDeviceAttributes(std::vector<DeviceAttributes>* attributes) const;
  int NumDevices() const { return static_cast<int>(devices_.size()); }

  absl::Status LookupDevice(absl::string_view name, Device** device) const;

  // The first CPU device, or nullptr if there is none.
  Device* HostCPU() const;

  // One line per device: its full name and type.
  std::string DebugString() const;

 private:
  const std::vector<std::unique_ptr<Device>> devices_;
  // Every accepted spelling of every device's name.
  absl::flat_hash_map<std::string, Device*> device_map_;
  Device* host_cpu_ = nullptr;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_DEVICE_MGR_H_
