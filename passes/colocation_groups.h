// ColocationGroups: the placer's constraint store (TensorFlow's ColocationGraph).
//
// Partitions the op nodes of a graph into groups that must share one device, and keeps for
// each group what constrains that device: the merged requested device, the device of an
// already-assigned member, the device of a resource-generating member (a node with no inputs
// and one ref or resource output, whose request is binding), and the device types that can
// run every member. Groups come from reference/resource data edges and from "_class" attrs
// ("loc:@<name>"; every node is in the group of its own name). The set is a union-find
// forest with union by rank and path compression.
//
// Usage: construct, Initialize() once, then for each node DevicesForNode(); after assigning a
// node, LimitToAssignedDevice() so the rest of its group follows. See placer.h for the
// semantics and the error messages.
//
// The common case of one device, no requested or assigned devices and no string "_class"
// attrs has a single answer for every group (that device, once `support` confirms it can run
// each node), so Initialize builds no forest for it and the other calls answer directly.
//
// The graph, the devices and `support` must outlive this object, and the graph's topology and
// attrs must not change while it is used (assigned devices may). Not thread-safe.
#ifndef SLUICE_PASSES_COLOCATION_GROUPS_H_
#define SLUICE_PASSES_COLOCATION_GROUPS_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/core/device_name.h"
#include "passes/placer.h"

namespace sluice {

class Graph;
class Node;

class ColocationGroups {
 public:
  ColocationGroups(const Graph& graph, absl::Span<const PlacementDevice> devices,
                   const DeviceSupport& support, const PlacerOptions& options);

  // Checks the devices, computes every op node's own constraints, then merges groups across
  // reference/resource edges and colocation attrs. Call once; on error this object is
  // unusable.
  absl::Status Initialize();

  // The devices `node`'s group may use, as indices into `devices`, most preferred first;
  // never empty on success. The list is cached per group until the group is next limited.
  // Errors are the explicit-specification and no-kernel messages of placer.h, without the
  // "Cannot assign a device for operation" prefix.
  absl::Status DevicesForNode(const Node& node, std::vector<int>* devices);

  // Constrains `node`'s group to node.assigned_device_name(), which must be one of `devices`.
  absl::Status LimitToAssignedDevice(const Node& node);

  // The index in `devices` of the device whose full name is `name` (any spelling that
  // parses to it), or -1.
  int FindDevice(absl::string_view name) const;

 private:
  // One node's entry in the forest; the fields below `rank` are meaningful for roots only.
  struct Member {
    int parent = -1;
    int rank = 0;
    // Types, most preferred first, on which every member of the group has a kernel.
    std::vector<std::string> supported_types;
    // Invariant: `requested` is a specification of both `assigned` and `resource`.
    ParsedDeviceName requested;
    ParsedDeviceName assigned;
    ParsedDeviceName resource;
    bool has_possible_devices = false;
    std::vector<int> possible_devices;
  };

  absl::Status InitializeDevices();
  // Whether the graph is in the single-device case described above.
  bool IsSingleDeviceCase() const;
  // Initialize for that case: checks that `support` can run every op node on the device.
  absl::Status InitializeSingleDevice();
  absl::Status InitializeMember(const Node& node);
  absl::Status InitializeAssignedMember(const Node& node, Member* member);
  absl::Status ColocateRefAndResourceEdges();
  absl::Status ColocateRefOrResourceEdge(const Node& src, const Node& dst);
  absl::Status ColocateByClassAttrs();
  absl::Status ColocateNodeToGroup(const Node& node, absl::string_view group,
                                   absl::flat_hash_map<std::string, const Node*>* roots);
  absl::Status ColocateNodes(const Node& x, const Node& y);

  // The root of node_id's tree; FindRoot also compresses the path.
  int FindRoot(int node_id);
  int RootOf(int node_id) const;
  // The root that uniting the trees rooted at x and y makes, and the other one.
  void ChooseRoots(int x_root, int y_root, int* new_root, int* old_root) const;

  // The types `support` reports for `node`, unfiltered.
  absl::Status ReportedTypes(const Node& node, std::vector<std::string>* types) const;
  // `types` without duplicates and without types no device has, in order.
  std::vector<std::string> PresentTypes(const std::vector<std::string>& types) const;

  // Candidate devices and error texts (colocation_groups_devices.cc).
  std::vector<int> MatchingDevices(const ParsedDeviceName& spec) const;
  // The devices of `devices` whose type is in `types`: by type preference, then by name
  // fields, with those matching the default device first.
  std::vector<int> FilterSupported(const std::vector<int>& devices,
                                   const std::vector<std::string>& types) const;
  std::vector<int> SoftCandidates(const Member& root, int root_id) const;
  absl::Status ExplicitSpecificationError(const Node& node, const Member& root, int root_id) const;
  absl::Status NoKernelError(const Node& node) const;
  // TensorFlow's "\nColocation Debug Info:..." text for the group rooted at `root_id`.
  std::string DebugInfo(int root_id) const;
  std::string MemberDebugString(const Member& member) const;
  // The names of all devices, joined by ", ".
  std::string AllDeviceNames() const;
  // TensorFlow's "Registered kernels:" listing, from the types `support` reported.
  static std::string KernelsString(const std::vector<std::string>& types);
  // The node's attrs as "a=1, b=DT_FLOAT", sorted by name.
  static std::string AttrsString(const Node& node);

  const Graph& graph_;
  const absl::Span<const PlacementDevice> devices_;
  const DeviceSupport& support_;
  const PlacerOptions options_;

  // Set by Initialize in the single-device case; members_ is then left empty.
  bool single_device_ = false;
  std::vector<ParsedDeviceName> parsed_devices_;
  // Device types in order of first appearance in devices_.
  std::vector<std::string> device_types_;
  ParsedDeviceName default_device_;
  // Indexed by node id; entries of non-op nodes are unused.
  std::vector<Member> members_;
  // Indexed by node id: the types `support` reported for each op node.
  std::vector<std::vector<std::string>> reported_types_;
};

}  // namespace sluice

#endif  // SLUICE_PASSES_COLOCATION_GROUPS_H_
