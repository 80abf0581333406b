// Kernel availability from the kernel registry, phrased for users.
#include "tools/cli/kernel_info.h"

#include <algorithm>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "passes/lower_functional_ops.h"
#include "runtime/device/device_factory.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/kernel_registry.h"
#include "tools/cli/graph_needs.h"

namespace sluice {
namespace cli {
namespace {

bool HasKernelOn(const NodeDef& node, const std::string& device_type) {
  bool found = false;
  absl::Status status =
      KernelRegistry::Global()->HasKernel(DeviceType(device_type), node, &found, nullptr);
  return status.ok() && found;
}

// Whether `node` needs no kernel: calls and functional control flow, which the session
// lowers before it looks for kernels, including calls of the graph's own functions by name.
bool IsLowered(const NodeDef& node, const GraphDef& graph_def) {
  if (IsLoweredFunctionalOpType(node.op())) return true;
  for (const FunctionDef& function : graph_def.library().function()) {
    if (function.signature().name() == node.op()) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> KnownDeviceTypes() {
  std::vector<std::string> types = DeviceFactory::DeviceTypes();
  std::sort(types.begin(), types.end(), [](const std::string& a, const std::string& b) {
    return (a == DEVICE_CPU) != (b == DEVICE_CPU) ? a == DEVICE_CPU : a < b;
  });
  std::set<std::string> seen(types.begin(), types.end());
  std::set<std::string> kernel_only;
  const KernelList kernels = GetAllRegisteredKernels();
  for (const KernelDef& def : kernels.kernel()) {
    if (seen.count(def.device_type()) == 0) kernel_only.insert(def.device_type());
  }
  types.insert(types.end(), kernel_only.begin(), kernel_only.end());
  return types;
}

std::vector<std::string> DevicesWithKernel(const std::string& op) {
  std::set<std::string> devices;
  const KernelList kernels = GetRegisteredKernelsForOp(op);
  for (const KernelDef& def : kernels.kernel()) {
    devices.insert(def.device_type());
  }
  return std::vector<std::string>(devices.begin(), devices.end());
}

std::string DescribeKernelDef(const KernelDef& def) {
  std::vector<std::string> parts;
  for (const KernelDef::AttrConstraint& constraint : def.constraint()) {
    std::vector<std::string> types;
    for (int type : constraint.allowed_values().list().type()) {
      types.push_back(DataTypeString(static_cast<DataType>(type)));
    }
    parts.push_back(absl::StrCat(constraint.name(), " in {", absl::StrJoin(types, ", "), "}"));
  }
  if (parts.empty()) parts.push_back("(any dtype)");
  if (!def.label().empty()) parts.push_back(absl::StrCat("label '", def.label(), "'"));
  if (def.priority() != 0) parts.push_back(absl::StrCat("priority ", def.priority()));
  if (def.host_memory_arg_size() > 0) {
    parts.push_back(absl::StrCat("host memory: ", absl::StrJoin(def.host_memory_arg(), ", ")));
  }
  return absl::StrJoin(parts, "; ");
}

std::string NodeTypeAttrs(const NodeDef& node) {
  std::map<std::string, std::string> attrs;  // sorted by name
  for (const auto& [name, value] : node.attr()) {
    if (value.value_case() == AttrValue::kType) {
      attrs[name] = DataTypeString(value.type());
    } else if (value.value_case() == AttrValue::kList && value.list().type_size() > 0) {
      std::vector<std::string> types;
      for (int type : value.list().type()) {
        types.push_back(DataTypeString(static_cast<DataType>(type)));
      }
      attrs[name] = absl::StrCat("[", absl::StrJoin(types, ","), "]");
    }
  }
  std::vector<std::string> parts;
  for (const auto& [name, value] : attrs) parts.push_back(absl::StrCat(name, "=", value));
  return absl::StrJoin(parts, ", ");
}

absl::Status CheckKernels(const GraphDef& graph_def, const std::vector<std::string>& fetches,
                          const std::vector<std::string>& feeds, const std::string& device_type) {
  // Which nodes the step needs is worked out only once a node without a kernel turns up:
  // usually none does, and the walk is a second or more for a big graph.
  std::optional<FetchNeeds> needs;
  for (const NodeDef& node : graph_def.node()) {
    if (HasKernelOn(node, device_type) || IsLowered(node, graph_def)) continue;
    if (!needs.has_value()) needs = FindFetchNeeds(graph_def, fetches, feeds);
    if (!needs->nodes.contains(node.name())) continue;
    std::vector<std::string> devices = DevicesWithKernel(node.op());
    const std::string attrs = NodeTypeAttrs(node);
    // Where the device has kernels for the op, it is the attrs (a dtype, usually) that no
    // kernel takes: say so rather than list the device itself as one to try.
    const bool device_has_op =
        std::find(devices.begin(), devices.end(), device_type) != devices.end();
    const std::string where =
        devices.empty() ? absl::StrCat("no device has a kernel for ", node.op(), " in this build")
        : device_has_op
            ? absl::StrCat(device_type, " has ", node.op(), " kernels, but none for ",
                           attrs.empty() ? "this node's attrs" : attrs, " (sluice ops --op ",
                           node.op(), " lists the attrs they take)")
            : absl::StrCat(node.op(), " kernels exist on: ", absl::StrJoin(devices, ", "),
                           " (sluice ops --op ", node.op(), " lists them)");
    return errors::NotFound("no ", device_type, " kernel for op '", node.op(), "' (node ",
                            node.name(), attrs.empty() ? "" : ", ", attrs, "); ", where);
  }
  return absl::OkStatus();
}

std::vector<std::string> OpsWithoutKernel(const GraphDef& graph_def,
                                          const std::string& device_type) {
  std::map<std::string, std::set<std::string>> missing;
  for (const NodeDef& node : graph_def.node()) {
    // Calls and functional control flow are lowered before kernels are looked for.
    if (HasKernelOn(node, device_type) || IsLowered(node, graph_def)) continue;
    missing[node.op()].insert(NodeTypeAttrs(node));
  }
  std::vector<std::string> lines;
  for (const auto& [op, attrs] : missing) {
    std::vector<std::string> variants;
    for (const std::string& attr : attrs) {
      if (!attr.empty()) variants.push_back(attr);
    }
    lines.push_back(variants.empty() ? op
                                     : absl::StrCat(op, " (", absl::StrJoin(variants, "; "), ")"));
  }
  return lines;
}

}  // namespace cli
}  // namespace sluice
