// PlaceGraph: assign every op node of a graph to one device (TensorFlow's Placer).
//
// Each op node without an assigned device gets a full device name from `devices` in its
// assigned_device_name; nodes already assigned keep theirs. The constraints, as TensorFlow
// applies them:
//  - a node's requested device (NodeDef `device`, full or partial: "/cpu:0", "/device:GPU:1",
//    "/job:localhost/task:0"; "" = anywhere) limits it to the matching devices;
//  - nodes sharing a colocation group ("_class" attr entries "loc:@<name>"; every node is in
//    the group of its own name) go to one device, their requested devices merged;
//  - a reference- or resource-typed data edge puts the consumer on the producer's device, the
//    producer's request overriding a conflicting one of the consumer's;
//  - a group may only use a device type for which every member has a kernel (`device_support`).
// Among the devices left, the group takes the one of the most preferred supported type, then
// the lowest (job, replica, task, id); devices matching `default_device` come first. Two
// heuristics follow TensorFlow: a node with no inputs and one non-ref output goes where all
// its consumers went, if it can; Shape, Size and Rank go where their input went, if they can.
// HostMemory arguments have no effect on placement.
//
// With allow_soft_placement, a request that cannot be met (no such device, no kernel for the
// requested type, a conflict within a colocation group) falls back to a device that can run
// the group. Without it, the errors are INVALID_ARGUMENT with TensorFlow's text, e.g.
//   "Cannot assign a device for operation x: Could not satisfy explicit device specification
//    '/device:GPU:0' because no supported kernel for GPU devices is available. ..."
//   "Cannot assign a device for operation x: {{node x}} was explicitly assigned to /gpu:3 but
//    available devices are [ ... ]. Make sure the device specification refers to a valid
//    device."
//   "Cannot colocate nodes {{colocation_node b}} and {{colocation_node a}}: Cannot merge
//    devices with incompatible ids: '/device:CPU:1' and '/device:CPU:0'"
// each followed by the node ("\n\t [[{{node x}}]]" or "\n\t [[x]]", see AttachDef). Other
// errors: FAILED_PRECONDITION when `devices` is empty; INVALID_ARGUMENT for a malformed
// requested device, a device of `devices` whose name is not a full name of its type, a
// malformed default_device, or a node no device can run; INTERNAL for a pre-assigned device
// that is not in `devices` or has no kernel for the node; errors from `device_support` are returned
// with the node attached. On error, nodes placed so far keep their assignment.
//
// With log_device_placement, one LOG(INFO) line per op node,
// "name: (Op): /job:localhost/replica:0/task:0/device:CPU:0", in placement order.
//
// Not thread-safe with respect to `graph`; `device_support` is called once per op node, from the
// calling thread.
#ifndef SLUICE_PASSES_PLACER_H_
#define SLUICE_PASSES_PLACER_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace sluice {

class Graph;
class Node;

// A device the graph may be placed on.
struct PlacementDevice {
  // Full name, e.g. "/job:localhost/replica:0/task:0/device:CPU:0".
  std::string name;
  // Its type, e.g. "CPU", "GPU"; must equal the type in `name`.
  std::string type;
};

// Which device types can run a node, supplied by the runtime from its kernel registry so that
// passes/ does not depend on runtime/.
struct DeviceSupport {
  // Fills `supported_types` with every device type that has a kernel for `node`, most
  // preferred first. Types no device in the placement has are ignored. When unset, every node
  // is taken to run on every device type, preferred in the order they first appear in
  // `devices`.
  std::function<absl::Status(const Node& node, std::vector<std::string>* supported_types)>
      supported_device_types;
};

struct PlacerOptions {
  // The devices to place on; placement fails (FAILED_PRECONDITION) without any.
  std::vector<PlacementDevice> devices;
  // Which device types have a kernel for a node.
  DeviceSupport device_support;
  bool allow_soft_placement = false;
  bool log_device_placement = false;
  // A device specification (e.g. "/job:localhost/replica:0/task:0/device:CPU:0"); among a
  // node's candidate devices those matching it are preferred over the rest, as TensorFlow
  // prefers its default local device. Empty: no preference.
  std::string default_device;
};

// A pass (passes/pass.h): *changed says whether any node got a device.
absl::Status PlaceGraph(const PlacerOptions& options, Graph* graph, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_PLACER_H_
