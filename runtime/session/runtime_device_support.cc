// Kernel-registry adapters for placement and partitioning (see the header).
#include "runtime/session/runtime_device_support.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/device_name.h"
#include "graph/graph.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/framework/memory_types.h"

namespace sluice {
namespace {

// Memory types of the nodes seen so far, computed once per node: partitioning asks about
// every edge's two ends, and a node with many edges would otherwise repeat the lookup.
class MemoryTypeMemo {
 public:
  // Whether port `port` of `node` (an input when `is_input`) is in host memory.
  bool InHost(const Node& node, int port, bool is_input) {
    absl::MutexLock lock(&mu_);
    auto it = memo_.find(&node);
    if (it == memo_.end()) it = memo_.emplace(&node, Compute(node)).first;
    const MemoryTypeVector& types = is_input ? it->second.inputs : it->second.outputs;
    return port >= 0 && port < static_cast<int>(types.size()) && types[port] == HOST_MEMORY;
  }

 private:
  struct Types {
    MemoryTypeVector inputs;
    MemoryTypeVector outputs;
  };

  static Types Compute(const Node& node) {
    Types types;
    ParsedDeviceName parsed;
    if (!ParseFullName(node.assigned_device_name(), &parsed) || !parsed.has_type) return types;
    if (!MemoryTypesForNode(DeviceType(parsed.type), node.def(), &types.inputs, &types.outputs)
             .ok()) {
      return Types();
    }
    return types;
  }

  absl::Mutex mu_;
  // Keyed by node address: the memo lives only as long as one partitioning's callbacks.
  absl::flat_hash_map<const Node*, Types> memo_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

DeviceSupport MakeDeviceSupport(std::vector<DeviceType> device_types) {
  DeviceSupport support;
  support.supported_device_types = [types = std::move(device_types)](
                                       const Node& node,
                                       std::vector<std::string>* supported) -> absl::Status {
    std::vector<std::pair<DeviceType, int32_t>> found;
    absl::Status s = SupportedDeviceTypesForNode(types, node.def(), &found);
    if (!s.ok()) return s;
    supported->clear();
    for (const auto& [type, priority] : found) supported->push_back(type.type_string());
    return absl::OkStatus();
  };
  return support;
}

std::function<bool(const NodeDef&, const std::string&)> MakeKernelExists() {
  return [](const NodeDef& node, const std::string& device) {
    ParsedDeviceName parsed;
    if (!ParseFullName(device, &parsed) || !parsed.has_type) return false;
    bool found = false;
    return KernelRegistry::Global()
               ->HasKernel(DeviceType(parsed.type), node, &found, nullptr)
               .ok() &&
           found;
  };
}

void SetMemoryTypeCallbacks(PartitionOptions* opts) {
  auto memo = std::make_shared<MemoryTypeMemo>();
  opts->output_in_host_memory = [memo](const Node& node, int port) {
    return memo->InHost(node, port, /*is_input=*/false);
  };
  opts->input_in_host_memory = [memo](const Node& node, int port) {
    return memo->InHost(node, port, /*is_input=*/true);
  };
}

}  // namespace sluice
