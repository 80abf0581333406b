// Partition's guard for while loops: finds each node's control-flow frame (TensorFlow's
// BuildControlFlowInfo) and rejects any device-crossing edge inside a loop. TensorFlow
// partitions such loops by adding a synthetic "control loop" on every participating device;
// Sluice does not, so those graphs fail here instead of deadlocking at run time.
//
// Internal to passes/partition; reads the graph only.
#ifndef SLUICE_PASSES_PARTITION_CONTROL_H_
#define SLUICE_PASSES_PARTITION_CONTROL_H_

#include "absl/status/status.h"

namespace sluice {

class Graph;

// OK when every edge between op nodes on different assigned devices leaves and enters the
// root frame. An edge into an Enter counts in the Enter's parent frame, an edge out of an
// Exit in the Exit's parent frame, so feeding a loop from another device, or reading its
// result there, is fine. Otherwise UNIMPLEMENTED, naming both nodes, their devices and the
// frame; INVALID_ARGUMENT if an Enter lacks a string `frame_name`.
absl::Status CheckNoCrossDeviceLoops(const Graph& graph);

}  // namespace sluice

#endif  // SLUICE_PASSES_PARTITION_CONTROL_H_
