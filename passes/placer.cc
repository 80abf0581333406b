// PlaceGraph (TensorFlow's Placer::Run):
//   1. Build the colocation groups and their constraints (colocation_groups.h).
//   2. In node id order: a node already assigned pins its group to its device. A generator
//      (no inputs, one non-ref output) is deferred to step 3. Any other node takes the first
//      candidate device of its group, except that Shape, Size and Rank take their input's
//      device when it is a candidate. Each assignment pins the node's group.
//   3. Each generator takes the device of its consumers when they all share one that is a
//      candidate, else its group's first candidate.
// Pinning a group makes its later members' only candidate the pinned device.
#include "passes/placer.h"

#include <algorithm>
#include <vector>

#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "passes/colocation_groups.h"

namespace sluice {
namespace {

bool IsGeneratorNode(const Node& node) {
  return node.num_inputs() == 0 && node.num_outputs() == 1 && !IsRefType(node.output_type(0));
}

// Ops that read only their input's metadata, which is cheapest where the input is.
bool IsMetadata(const Node& node) {
  const std::string& op = node.type_string();
  return op == "Shape" || op == "Size" || op == "Rank";
}

void LogDeviceAssignment(const Node& node, bool log_device_placement) {
  if (!log_device_placement) return;
  LOG(INFO) << node.name() << ": (" << node.type_string() << "): " << node.assigned_device_name();
}

class Placer {
 public:
  Placer(const PlacerOptions& options, Graph* graph)
      : options_(options),
        devices_(options.devices),
        graph_(graph),
        groups_(*graph, options.devices, options.device_support, options) {}

  // *placed: whether any node got a device.
  absl::Status Run(bool* placed) {
    placed_ = placed;
    *placed_ = false;
    if (devices_.empty()) return errors::FailedPrecondition("No devices are registered");
    RETURN_IF_ERROR(groups_.Initialize());
    std::vector<Node*> generators;
    for (Node* node : graph_->op_nodes()) {
      if (node->has_assigned_device_name()) {
        RETURN_IF_ERROR(groups_.LimitToAssignedDevice(*node));
        LogDeviceAssignment(*node, options_.log_device_placement);
      } else if (IsGeneratorNode(*node)) {
        generators.push_back(node);
      } else {
        RETURN_IF_ERROR(Place(node, PreferredInputDevice(*node)));
      }
    }
    for (Node* node : generators) RETURN_IF_ERROR(Place(node, ConsumersDevice(*node)));
    return absl::OkStatus();
  }

 private:
  // For a metadata op, the device its input went to; else "".
  static std::string PreferredInputDevice(const Node& node) {
    const Node* input = nullptr;
    if (!IsMetadata(node) || !node.input_node(0, &input).ok()) return "";
    return input->assigned_device_name();
  }

  // The device every consumer of `node` went to, if they share one; else "".
  static std::string ConsumersDevice(const Node& node) {
    if (node.out_edges().empty()) return "";
    const std::string& first = (*node.out_edges().begin())->dst()->assigned_device_name();
    for (const Edge* edge : node.out_edges()) {
      if (edge->dst()->assigned_device_name() != first) return "";
    }
    return first;
  }

  // Assigns `node` to `preferred` if that is one of its candidates, else to its first one.
  absl::Status Place(Node* node, const std::string& preferred) {
    std::vector<int> candidates;
    absl::Status status = groups_.DevicesForNode(*node, &candidates);
    if (!status.ok()) {
      return AttachDef(errors::InvalidArgument("Cannot assign a device for operation ",
                                               node->name(), ": ", status.message()),
                       node->def());
    }
    int chosen = candidates.front();
    const int preferred_index = groups_.FindDevice(preferred);
    if (preferred_index >= 0 &&
        std::find(candidates.begin(), candidates.end(), preferred_index) != candidates.end()) {
      chosen = preferred_index;
    }
    node->set_assigned_device_name(devices_[chosen].name);
    *placed_ = true;
    RETURN_IF_ERROR(groups_.LimitToAssignedDevice(*node));
    LogDeviceAssignment(*node, options_.log_device_placement);
    return absl::OkStatus();
  }

  const PlacerOptions& options_;
  const absl::Span<const PlacementDevice> devices_;
  Graph* const graph_;
  ColocationGroups groups_;
  bool* placed_ = nullptr;
};

}  // namespace

absl::Status PlaceGraph(const PlacerOptions& options, Graph* graph, bool* changed) {
  return Placer(options, graph).Run(changed);
}

}  // namespace sluice
