// Candidate devices for a colocation group (TensorFlow's ColocationGraph::GetDevicesForNode):
//   - with a requested device: the devices it matches whose type the group supports;
//     failing that, under soft placement, the same with the requested type and id dropped
//     (kept where an assigned or resource device fixes them), then with only the assigned
//     device's type and id kept; failing all that, an error that explains which part of the
//     request could not be met;
//   - without one: every device whose type the group supports.
// Candidates are ordered by the group's type preference, then by name, with devices matching
// the default device first. This file also builds the texts of the errors.
#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/op/attr_value_util.h"
#include "passes/colocation_groups.h"

namespace sluice {

absl::Status ColocationGroups::DevicesForNode(const Node& node, std::vector<int>* devices) {
  if (single_device_) {
    devices->assign(1, 0);
    return absl::OkStatus();
  }
  const int root_id = FindRoot(node.id());
  Member& root = members_[root_id];
  if (!root.has_possible_devices) {
    std::vector<int> candidates;
    if (HasSomeDetails(root.requested)) {
      candidates = FilterSupported(MatchingDevices(root.requested), root.supported_types);
      if (candidates.empty() && options_.allow_soft_placement) {
        candidates = SoftCandidates(root, root_id);
      }
      if (candidates.empty()) return ExplicitSpecificationError(node, root, root_id);
    } else {
      candidates = FilterSupported(MatchingDevices(ParsedDeviceName()), root.supported_types);
      // Every group keeps at least one supported type that some device has.
      if (candidates.empty()) {
        return errors::Internal("No device supports the group of node '", node.name(), "'");
      }
    }
    root.possible_devices = std::move(candidates);
    root.has_possible_devices = true;
  }
  *devices = root.possible_devices;
  return absl::OkStatus();
}

std::vector<int> ColocationGroups::MatchingDevices(const ParsedDeviceName& spec) const {
  std::vector<int> matching;
  for (size_t i = 0; i < parsed_devices_.size(); ++i) {
    if (IsCompleteSpecification(spec, parsed_devices_[i])) matching.push_back(i);
  }
  return matching;
}

std::vector<int> ColocationGroups::FilterSupported(const std::vector<int>& devices,
                                                   const std::vector<std::string>& types) const {
  std::vector<int> filtered;
  for (const std::string& type : types) {
    const size_t first = filtered.size();
    for (int d : devices) {
      if (devices_[d].type == type) filtered.push_back(d);
    }
    std::stable_sort(filtered.begin() + first, filtered.end(), [this](int a, int b) {
      const ParsedDeviceName& x = parsed_devices_[a];
      const ParsedDeviceName& y = parsed_devices_[b];
      return std::tie(x.job, x.replica, x.task, x.id) < std::tie(y.job, y.replica, y.task, y.id);
    });
  }
  if (HasSomeDetails(default_device_)) {
    std::stable_partition(filtered.begin(), filtered.end(), [this](int d) {
      return IsCompleteSpecification(default_device_, parsed_devices_[d]);
    });
  }
  return filtered;
}

std::vector<int> ColocationGroups::SoftCandidates(const Member& root, int root_id) const {
  // First try to respect resource devices, then give them up.
  ParsedDeviceName soft = root.requested;
  if (!root.assigned.has_type && !root.resource.has_type) soft.has_type = false;
  if (!root.assigned.has_id && !root.resource.has_id) soft.has_id = false;
  std::vector<int> devices = FilterSupported(MatchingDevices(soft), root.supported_types);
  if (!devices.empty()) return devices;

  soft = root.requested;
  if (!root.assigned.has_type) soft.has_type = false;
  if (!root.assigned.has_id) soft.has_id = false;
  devices = FilterSupported(MatchingDevices(soft), root.supported_types);
  if (!devices.empty()) {
    std::vector<std::string> names;
    for (int d : devices) names.push_back(devices_[d].name);
    LOG(WARNING) << "Failed to place the graph without changing the devices of some "
                    "resources. Some of the operations (that had to be colocated with "
                    "resource generating operations) are not supported on the resources' "
                    "devices. Current candidate devices are [\n  "
                 << absl::StrJoin(names, "\n  ")
                 << "].\nSee below for details of this colocation group:" << DebugInfo(root_id);
  }
  return devices;
}

absl::Status ColocationGroups::ExplicitSpecificationError(const Node& node, const Member& root,
                                                          int root_id) const {
  const std::string& requested = node.requested_device();
  ParsedDeviceName specified;
  if (!ParseFullName(requested, &specified) || specified != root.requested) {
    // The node's own request may be satisfiable; the group's merged one is not.
    return errors::InvalidArgument("Could not satisfy explicit device specification '", requested,
                                   "' because the node {{colocation_node ", node.name(),
                                   "}} was colocated with a group of nodes that required ",
                                   "incompatible device '", ParsedNameToString(root.requested),
                                   "'. All available devices [", AllDeviceNames(), "]. ",
                                   DebugInfo(root_id));
  }
  if (MatchingDevices(specified).empty()) {
    std::vector<std::string> names;
    for (const PlacementDevice& device : devices_) names.push_back(device.name);
    std::sort(names.begin(), names.end());
    return errors::InvalidArgument("{{node ", node.name(), "}} was explicitly assigned to ",
                                   requested, " but available devices are [ ",
                                   absl::StrJoin(names, ", "),
                                   " ]. Make sure the device specification refers to a valid "
                                   "device.");
  }
  if (specified.has_type) {
    return errors::InvalidArgument(
        "Could not satisfy explicit device specification '", requested,
        "' because no supported kernel for ", specified.type, " devices is available.",
        DebugInfo(root_id), "\nOp: ", node.type_string(), "\nNode attrs: ", AttrsString(node),
        "\nRegistered kernels:\n", KernelsString(reported_types_[node.id()]));
  }
  return errors::InvalidArgument("Could not satisfy explicit device specification '", requested,
                                 "'", DebugInfo(root_id));
}

absl::Status ColocationGroups::NoKernelError(const Node& node) const {
  std::vector<std::string> registered = device_types_;
  std::sort(registered.begin(), registered.end());
  return errors::InvalidArgument("No OpKernel was registered to support Op '", node.type_string(),
                                 "' used by {{node ", node.name(), "}} with these attrs: [",
                                 AttrsString(node), "]\nRegistered devices: [",
                                 absl::StrJoin(registered, ", "), "]\nRegistered kernels:\n",
                                 KernelsString(reported_types_[node.id()]));
}

std::string ColocationGroups::DebugInfo(int root_id) const {
  std::string text =
      "\nColocation Debug Info:\n"
      "Colocation group had the following types and supported devices: ";
  absl::StrAppend(&text, "\nRoot ", MemberDebugString(members_[root_id]));
  std::map<std::string, std::string> types_by_op;
  std::string members;
  for (const Node* node : graph_.op_nodes()) {
    if (RootOf(node->id()) != root_id) continue;
    std::string& types = types_by_op[node->type_string()];
    types.clear();
    for (const std::string& type : PresentTypes(reported_types_[node->id()])) {
      absl::StrAppend(&types, type, " ");
    }
    absl::StrAppend(&members, "\n  ", node->name(), " (", node->type_string(), ") ",
                    node->requested_device());
    if (node->has_assigned_device_name()) {
      absl::StrAppend(&members, " framework assigned device=", node->assigned_device_name());
    }
  }
  for (const auto& [op, types] : types_by_op) absl::StrAppend(&text, "\n", op, ": ", types);
  absl::StrAppend(&text,
                  "\n\nColocation members, user-requested devices, and framework assigned "
                  "devices, if any:",
                  members, "\n");
  return text;
}

std::string ColocationGroups::MemberDebugString(const Member& member) const {
  std::vector<std::string> possible;
  for (int d : member.possible_devices) possible.push_back(devices_[d].name);
  return absl::StrCat("Member(requested_device_name_='", ParsedNameToString(member.requested),
                      "' assigned_device_name_='", ParsedNameToString(member.assigned),
                      "' resource_device_name_='", ParsedNameToString(member.resource),
                      "' supported_device_types_=[", absl::StrJoin(member.supported_types, ", "),
                      "] possible_devices_=[", absl::StrJoin(possible, ", "), "]");
}

std::string ColocationGroups::AllDeviceNames() const {
  std::vector<std::string> names;
  for (const PlacementDevice& device : devices_) names.push_back(device.name);
  return absl::StrJoin(names, ", ");
}

std::string ColocationGroups::KernelsString(const std::vector<std::string>& types) {
  if (types.empty()) return "  <no registered kernels>\n";
  std::string text;
  for (const std::string& type : types) absl::StrAppend(&text, "  device='", type, "'\n");
  return text;
}

std::string ColocationGroups::AttrsString(const Node& node) {
  std::vector<std::string> attrs;
  for (const auto& [name, value] : node.attrs()) {
    attrs.push_back(absl::StrCat(name, "=", SummarizeAttrValue(value)));
  }
  std::sort(attrs.begin(), attrs.end());
  return absl::StrJoin(attrs, ", ");
}

}  // namespace sluice
