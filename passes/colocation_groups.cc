// Building the colocation groups (TensorFlow's ColocationGraph::Initialize):
//   1. Each op node becomes a singleton group holding its own constraints: the device types
//      with a kernel for it, and its assigned device, or else its requested device (binding,
//      as a "resource device", for a node with no inputs and one ref/resource output).
//   2. For each data edge of ref or resource type, the consumer's group joins the producer's;
//      a consumer request that conflicts with the producer's is replaced by the producer's.
//   3. In node id order, each node joins the group of every "loc:@g" in its "_class" attr,
//      then the group of its own name; the first node to name a group roots it.
// Joining two groups merges their device specifications (MergeDevNames; type and id
// conflicts are dropped under soft placement) and intersects their device types; either
// failing is an error that names both nodes, and nothing is changed.
#include "passes/colocation_groups.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace {

bool IsRefOrResource(DataType type) { return IsRefType(type) || type == DT_RESOURCE; }

// A node whose request is binding because it creates the resource or ref others use.
bool IsRefOrResourceGenerator(const Node& node) {
  return node.num_inputs() == 0 && node.num_outputs() == 1 && IsRefOrResource(node.output_type(0));
}

std::string ColocationNode(absl::string_view name) {
  return absl::StrCat("{{colocation_node ", name, "}}");
}

}  // namespace

ColocationGroups::ColocationGroups(const Graph& graph, absl::Span<const PlacementDevice> devices,
                                   const DeviceSupport& support, const PlacerOptions& options)
    : graph_(graph), devices_(devices), support_(support), options_(options) {}

absl::Status ColocationGroups::Initialize() {
  RETURN_IF_ERROR(InitializeDevices());
  if (IsSingleDeviceCase()) return InitializeSingleDevice();
  members_.resize(graph_.num_node_ids());
  reported_types_.resize(graph_.num_node_ids());
  for (const Node* node : graph_.op_nodes()) {
    RETURN_IF_ERROR(AttachDef(InitializeMember(*node), node->def()));
  }
  RETURN_IF_ERROR(ColocateRefAndResourceEdges());
  return ColocateByClassAttrs();
}

absl::Status ColocationGroups::InitializeDevices() {
  for (const PlacementDevice& device : devices_) {
    ParsedDeviceName parsed;
    if (!ParseFullName(device.name, &parsed) || !IsFullySpecified(parsed) ||
        parsed.type != device.type) {
      return errors::InvalidArgument("Device '", device.name, "' of type '", device.type,
                                     "' is not a full device name of that type");
    }
    if (std::find(parsed_devices_.begin(), parsed_devices_.end(), parsed) !=
        parsed_devices_.end()) {
      return errors::InvalidArgument("Device '", device.name, "' is listed twice");
    }
    parsed_devices_.push_back(parsed);
    if (std::find(device_types_.begin(), device_types_.end(), device.type) == device_types_.end()) {
      device_types_.push_back(device.type);
    }
  }
  if (!ParseFullName(options_.default_device, &default_device_)) {
    return errors::InvalidArgument("Malformed default device specification '",
                                   options_.default_device, "'");
  }
  return absl::OkStatus();
}

bool ColocationGroups::IsSingleDeviceCase() const {
  if (devices_.size() != 1) return false;
  for (const Node* node : graph_.op_nodes()) {
    if (!node->requested_device().empty() || node->has_assigned_device_name()) return false;
    // A string-valued "_class" is logged by ColocateByClassAttrs; lists only merge groups,
    // which cannot conflict without requests and with one device type.
    const AttrValue* classes = node->attrs().Find("_class");
    if (classes != nullptr && !classes->has_list()) return false;
  }
  return true;
}

absl::Status ColocationGroups::InitializeSingleDevice() {
  // Without a support callback every node runs on every device type.
  if (support_.supported_device_types) {
    reported_types_.resize(graph_.num_node_ids());
    const std::string& type = device_types_.front();
    for (const Node* node : graph_.op_nodes()) {
      std::vector<std::string>& types = reported_types_[node->id()];
      RETURN_IF_ERROR(AttachDef(ReportedTypes(*node, &types), node->def()));
      if (std::find(types.begin(), types.end(), type) == types.end()) {
        return AttachDef(NoKernelError(*node), node->def());
      }
    }
  }
  single_device_ = true;
  return absl::OkStatus();
}

absl::Status ColocationGroups::ReportedTypes(const Node& node,
                                             std::vector<std::string>* types) const {
  types->clear();
  if (!support_.supported_device_types) {
    *types = device_types_;
    return absl::OkStatus();
  }
  return support_.supported_device_types(node, types);
}

std::vector<std::string> ColocationGroups::PresentTypes(
    const std::vector<std::string>& types) const {
  std::vector<std::string> present;
  for (const std::string& type : types) {
    if (std::find(device_types_.begin(), device_types_.end(), type) != device_types_.end() &&
        std::find(present.begin(), present.end(), type) == present.end()) {
      present.push_back(type);
    }
  }
  return present;
}

absl::Status ColocationGroups::InitializeMember(const Node& node) {
  Member& member = members_[node.id()];
  member.parent = node.id();
  RETURN_IF_ERROR(ReportedTypes(node, &reported_types_[node.id()]));
  member.supported_types = PresentTypes(reported_types_[node.id()]);
  if (node.has_assigned_device_name()) return InitializeAssignedMember(node, &member);
  if (member.supported_types.empty()) return NoKernelError(node);
  if (node.requested_device().empty()) return absl::OkStatus();
  if (!ParseFullName(node.requested_device(), &member.requested)) {
    return errors::InvalidArgument("Malformed device specification '", node.requested_device(),
                                   "' in node: ", node.DebugString());
  }
  // A generator's request is binding; `requested` stays a specification of it.
  if (IsRefOrResourceGenerator(node)) member.resource = member.requested;
  return absl::OkStatus();
}

absl::Status ColocationGroups::InitializeAssignedMember(const Node& node, Member* member) {
  const std::string& name = node.assigned_device_name();
  int index = FindDevice(name);
  if (index < 0) {
    return errors::Internal("Assigned device '", name,
                            "' does not match any device. Here are the devices available: [",
                            AllDeviceNames(), "].");
  }
  member->assigned = parsed_devices_[index];
  member->requested = member->assigned;
  const std::vector<std::string>& types = member->supported_types;
  if (std::find(types.begin(), types.end(), devices_[index].type) == types.end()) {
    return errors::Internal("Assigned device '", name,
                            "' does not have registered OpKernel support for ", node.type_string());
  }
  return absl::OkStatus();
}

absl::Status ColocationGroups::ColocateRefAndResourceEdges() {
  for (const Edge* edge : graph_.edges()) {
    if (edge->IsControlEdge() || !edge->src()->IsOp() || !edge->dst()->IsOp()) continue;
    if (IsRefOrResource(edge->dst()->input_type(edge->dst_input()))) {
      RETURN_IF_ERROR(ColocateRefOrResourceEdge(*edge->src(), *edge->dst()));
    }
  }
  return absl::OkStatus();
}

absl::Status ColocationGroups::ColocateRefOrResourceEdge(const Node& src, const Node& dst) {
  const Member& src_root = members_[FindRoot(src.id())];
  Member& dst_root = members_[FindRoot(dst.id())];
  const char* const kPrefix =
      "Cannot place the graph because a reference or resource edge connects colocation "
      "groups with incompatible ";
  const std::string edge_text =
      absl::StrCat(". The edge src node is ", src.name(), " , and the dst node is ", dst.name());
  if (!AreCompatibleDevNames(src_root.assigned, dst_root.assigned)) {
    return errors::InvalidArgument(kPrefix,
                                   "assigned devices: ", ParsedNameToString(src_root.assigned),
                                   " vs ", ParsedNameToString(dst_root.assigned), edge_text);
  }
  if (!AreCompatibleDevNames(src_root.resource, dst_root.resource)) {
    return errors::InvalidArgument(kPrefix,
                                   "resource devices: ", ParsedNameToString(src_root.resource),
                                   " vs ", ParsedNameToString(dst_root.resource), edge_text);
  }
  if (!AreCompatibleDevNames(src_root.requested, dst_root.requested)) {
    if (options_.log_device_placement) {
      LOG(INFO) << "Ignoring device specification " << ParsedNameToString(dst_root.requested)
                << " for node '" << dst.name() << "' because the input edge from '" << src.name()
                << "' is a reference connection and already has a device "
                << "field set to " << ParsedNameToString(src_root.requested);
    }
    dst_root.requested = src_root.requested;
    EnsureSpecification(&dst_root.requested, dst_root.assigned);
    EnsureSpecification(&dst_root.requested, dst_root.resource);
  }
  absl::Status status = ColocateNodes(src, dst);
  if (status.ok()) return status;
  return AttachDef(errors::InvalidArgument(
                       "Nodes were connected by a reference connection (requiring them to be "
                       "on the same device), but the two nodes were assigned two different "
                       "devices: ",
                       status.message()),
                   dst.def());
}

absl::Status ColocationGroups::ColocateByClassAttrs() {
  // Group name (without "loc:@") -> the first node that named it.
  absl::flat_hash_map<std::string, const Node*> roots;
  for (const Node* node : graph_.op_nodes()) {
    const AttrValue* classes = node->attrs().Find("_class");
    if (classes != nullptr && classes->has_list()) {
      for (const std::string& spec : classes->list().s()) {
        absl::string_view group = spec;
        if (absl::ConsumePrefix(&group, "loc:@")) {
          RETURN_IF_ERROR(ColocateNodeToGroup(*node, group, &roots));
        }
      }
    } else if (classes != nullptr && !classes->s().empty()) {
      LOG(ERROR) << "The value for colocation attribute '_class' must be a list of strings, "
                 << "not a single string: " << node->DebugString();
    }
    RETURN_IF_ERROR(ColocateNodeToGroup(*node, node->name(), &roots));
  }
  return absl::OkStatus();
}

absl::Status ColocationGroups::ColocateNodeToGroup(
    const Node& node, absl::string_view group,
    absl::flat_hash_map<std::string, const Node*>* roots) {
  auto inserted = roots->emplace(std::string(group), &node);
  if (inserted.second) return absl::OkStatus();
  absl::Status status = ColocateNodes(node, *inserted.first->second);
  if (status.ok()) return status;
  if (!options_.allow_soft_placement) return AttachDef(status, node.def());
  if (options_.log_device_placement) {
    LOG(INFO) << "Ignoring request to colocate node '" << node.name()
              << "' with nodes in colocation group '" << group
              << "' because soft placement is on and an attempt at doing so resulted in the "
              << "following error: " << AttachDef(status, node.def()).ToString();
  }
  return absl::OkStatus();
}

absl::Status ColocationGroups::ColocateNodes(const Node& x, const Node& y) {
  const int x_root = FindRoot(x.id());
  const int y_root = FindRoot(y.id());
  if (x_root == y_root) return absl::OkStatus();
  int new_root, old_root;
  ChooseRoots(x_root, y_root, &new_root, &old_root);
  const Member& other = members_[old_root];
  Member merged = members_[new_root];

  absl::Status status = MergeDevNames(&merged.assigned, other.assigned);
  if (status.ok()) status = MergeDevNames(&merged.resource, other.resource);
  if (status.ok()) {
    status = MergeDevNames(&merged.requested, other.requested, options_.allow_soft_placement);
  }
  if (!status.ok()) {
    return errors::InvalidArgument("Cannot colocate nodes ", ColocationNode(x.name()), " and ",
                                   ColocationNode(y.name()), ": ", status.message());
  }
  EnsureSpecification(&merged.requested, merged.assigned);
  EnsureSpecification(&merged.requested, merged.resource);

  std::vector<std::string> types;
  for (const std::string& type : merged.supported_types) {
    const std::vector<std::string>& o = other.supported_types;
    if (std::find(o.begin(), o.end(), type) != o.end()) types.push_back(type);
  }
  if (types.empty()) {
    return errors::InvalidArgument(
        "Cannot colocate nodes ", ColocationNode(x.name()), " and ", ColocationNode(y.name()),
        " because no device type supports both of those nodes and the other nodes colocated "
        "with them.",
        DebugInfo(x_root), DebugInfo(y_root));
  }
  merged.supported_types = std::move(types);
  merged.has_possible_devices = false;
  merged.possible_devices.clear();
  if (members_[new_root].rank == members_[old_root].rank) ++merged.rank;
  members_[new_root] = std::move(merged);
  members_[old_root].parent = new_root;
  return absl::OkStatus();
}

void ColocationGroups::ChooseRoots(int x_root, int y_root, int* new_root, int* old_root) const {
  // Union by rank; ties go to x.
  const bool y_deeper = members_[x_root].rank < members_[y_root].rank;
  *new_root = y_deeper ? y_root : x_root;
  *old_root = y_deeper ? x_root : y_root;
}

int ColocationGroups::FindRoot(int node_id) {
  int root = RootOf(node_id);
  while (members_[node_id].parent != root) {
    int next = members_[node_id].parent;
    members_[node_id].parent = root;
    node_id = next;
  }
  return root;
}

int ColocationGroups::RootOf(int node_id) const {
  while (members_[node_id].parent != node_id) node_id = members_[node_id].parent;
  return node_id;
}

absl::Status ColocationGroups::LimitToAssignedDevice(const Node& node) {
  const int index = FindDevice(node.assigned_device_name());
  if (index < 0) {
    return errors::Internal("Assigned device '", node.assigned_device_name(), "' of node '",
                            node.name(), "' does not match any device");
  }
  // The group's only candidate is already that device.
  if (single_device_) return absl::OkStatus();
  Member& root = members_[FindRoot(node.id())];
  const ParsedDeviceName& device = parsed_devices_[index];
  absl::Status status = MergeDevNames(&root.assigned, device);
  if (status.ok()) status = MergeOverrideDevNames(&root.resource, device);
  if (status.ok()) status = MergeOverrideDevNames(&root.requested, device);
  if (!status.ok()) {
    return errors::Internal(
        "Constraining by assigned device should not cause an error. Node's assigned device "
        "name \"",
        node.assigned_device_name(), "\". Error: ", status.message());
  }
  root.has_possible_devices = false;
  root.possible_devices.clear();
  return absl::OkStatus();
}

int ColocationGroups::FindDevice(absl::string_view name) const {
  // Names usually come from devices_ itself; an exact match parses to that device, and the
  // parsed devices are distinct.
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (devices_[i].name == name) return static_cast<int>(i);
  }
  ParsedDeviceName parsed;
  if (name.empty() || !ParseFullName(name, &parsed)) return -1;
  for (size_t i = 0; i < parsed_devices_.size(); ++i) {
    if (parsed_devices_[i] == parsed) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace sluice
