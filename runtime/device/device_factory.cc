// DeviceFactory: the process-wide registry of device factories by type.
#include "runtime/device/device_factory.h"

#include <algorithm>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "runtime/framework/device_type.h"

namespace sluice {
namespace {

struct FactoryEntry {
  std::unique_ptr<DeviceFactory> factory;
  int priority = 0;
};

struct FactoryRegistry {
  absl::Mutex mu;
  absl::flat_hash_map<std::string, FactoryEntry> factories ABSL_GUARDED_BY(mu);
};

// Never destroyed: factories are registered during static initialisation and may be used
// during static destruction.
FactoryRegistry& Registry() {
  static FactoryRegistry* registry = new FactoryRegistry();
  return *registry;
}

}  // namespace

void DeviceFactory::Register(const std::string& device_type, std::unique_ptr<DeviceFactory> factory,
                             int priority) {
  FactoryRegistry& registry = Registry();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.factories.find(device_type);
  if (it == registry.factories.end()) {
    registry.factories.emplace(device_type, FactoryEntry{std::move(factory), priority});
    return;
  }
  if (priority > it->second.priority) {
    it->second = FactoryEntry{std::move(factory), priority};
  } else if (priority == it->second.priority) {
    LOG(ERROR) << "Two device factories for type " << device_type << " with priority " << priority
               << "; keeping the first.";
  }
}

DeviceFactory* DeviceFactory::GetFactory(const std::string& device_type) {
  FactoryRegistry& registry = Registry();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.factories.find(device_type);
  return it == registry.factories.end() ? nullptr : it->second.factory.get();
}

std::vector<std::string> DeviceFactory::DeviceTypes() {
  std::vector<std::pair<int, std::string>> ranked;
  {
    FactoryRegistry& registry = Registry();
    absl::MutexLock lock(&registry.mu);
    for (const auto& entry : registry.factories) {
      ranked.emplace_back(entry.second.priority, entry.first);
    }
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<std::string> types;
  types.reserve(ranked.size());
  for (auto& entry : ranked) types.push_back(std::move(entry.second));
  return types;
}

absl::Status DeviceFactory::AddDevices(const SessionOptions& options,
                                       const std::string& name_prefix,
                                       std::vector<std::unique_ptr<Device>>* devices) {
  // CPU first, so the session's host device is its first; then by priority.
  std::vector<std::string> types = DeviceTypes();
  auto cpu = std::find(types.begin(), types.end(), DEVICE_CPU);
  if (cpu != types.end()) std::rotate(types.begin(), cpu, cpu + 1);
  for (const std::string& type : types) {
    // Factories are never removed, so the pointer outlives the lock.
    DeviceFactory* factory = GetFactory(type);
    RETURN_IF_ERROR(factory->CreateDevices(options, name_prefix, devices));
  }
  return absl::OkStatus();
}

absl::Status DeviceFactory::DeviceCount(const SessionOptions& options,
                                        const std::string& device_type, int default_count,
                                        int* count) {
  const auto& counts = options.config.device_count();
  auto it = counts.find(device_type);
  *count = it == counts.end() ? default_count : it->second;
  if (*count < 0) {
    return errors::InvalidArgument("Invalid device_count for ", device_type, ": ", *count,
                                   " (must be at least 0)");
  }
  return absl::OkStatus();
}

}  // namespace sluice
