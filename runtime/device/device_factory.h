// DeviceFactory: creates the devices of one type for a session.
//
// One factory per device type, registered once per process (a static registrar in the
// type's .cc: cpu_device.cc registers "CPU" at priority 100; the CUDA device registers
// "GPU" at 210, as TensorFlow). AddDevices asks every registered factory, CPU first, so
// that a session's DeviceMgr::HostCPU is always its first device.
//
//   class MyFactory : public DeviceFactory { ... };
//   static DeviceFactoryRegistrar<MyFactory> registrar("MY", 50);
//
// Device counts come from ConfigProto.device_count[type]: a missing entry means the type's
// default (1 for CPU; all present devices for accelerators); 0 creates none of that type.
// Devices are named name_prefix + "/device:<TYPE>:<i>".
//
// Errors: INVALID_ARGUMENT for a negative device count; a factory's own failures pass
// through. Registering a type twice keeps the higher priority (TensorFlow's rule); equal
// priorities keep the first and log an error.
// Thread safety: registration happens during static initialisation; everything else may be
// called from any thread (the registry is guarded by a mutex).
#ifndef SLUICE_RUNTIME_DEVICE_DEVICE_FACTORY_H_
#define SLUICE_RUNTIME_DEVICE_DEVICE_FACTORY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "runtime/device/device.h"
#include "runtime/device/session_options.h"

namespace sluice {

class DeviceFactory {
 public:
  virtual ~DeviceFactory() = default;

  // Appends this type's devices for `options`, named name_prefix + "/device:<TYPE>:<i>".
  virtual absl::Status CreateDevices(const SessionOptions& options, const std::string& name_prefix,
                                     std::vector<std::unique_ptr<Device>>* devices) = 0;

  static void Register(const std::string& device_type, std::unique_ptr<DeviceFactory> factory,
                       int priority);
  // The factory of `device_type`, or nullptr. Not owned by the caller.
  static DeviceFactory* GetFactory(const std::string& device_type);

  // All registered types' devices: CPU first, then the others by priority (highest first).
  // The local session uses name_prefix "/job:localhost/replica:0/task:0".
  static absl::Status AddDevices(const SessionOptions& options, const std::string& name_prefix,
                                 std::vector<std::unique_ptr<Device>>* devices);

  // Registered device types by priority, highest first (ties by name).
  static std::vector<std::string> DeviceTypes();

  // The device count `options` asks of `device_type`: device_count[type] if present, else
  // `default_count`. INVALID_ARGUMENT if negative.
  static absl::Status DeviceCount(const SessionOptions& options, const std::string& device_type,
                                  int default_count, int* count);
};

// Registers a default-constructed Factory at static-initialisation time.
template <class Factory>
class DeviceFactoryRegistrar {
 public:
  DeviceFactoryRegistrar(const std::string& device_type, int priority) {
    DeviceFactory::Register(device_type, std::make_unique<Factory>(), priority);
  }
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_DEVICE_FACTORY_H_
