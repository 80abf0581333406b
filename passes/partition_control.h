// Partition's support for while loops whose nodes are on several devices (TensorFlow's
// AddControlFlow). Each device that receives a tensor inside a loop frame from another
// device gets a "control loop" of its own for that frame:
//
//   Const (root frame; for a nested frame, the Merge of the parent frame's control loop)
//     -> Enter(frame) -> Merge <- NextIteration <- Switch:1
//                          \-> Switch(Merge, LoopCond)
//
// The Switch reads the frame's LoopCond (through a _Send/_Recv pair when the LoopCond is on
// another device), so the control loop runs exactly the iterations the real loop runs, and
// stops when the condition turns false (its NextIteration then gets a dead input). The
// Merge is the per-iteration trigger: every node that reads a tensor from another device
// inside the frame gets a control edge from it, which Partition moves onto the _Recv it
// makes for that tensor. That Recv therefore runs once per iteration, keyed by the frame
// and iteration the executor gives it, matching the _Send on the other device. Control
// loops carry an empty float tensor; their nodes are named "_cloop<consumer>/_N".
//
// Frames are found as TensorFlow's BuildControlFlowInfo does (breadth-first from the roots:
// an Enter opens the child frame named by its `frame_name`, an Exit's consumers are in its
// parent frame). An edge is "inside a frame" when the producer's output frame (an Exit's
// is its parent's) and the consumer's input frame (an Enter's is its parent's) are the
// same frame other than the root.
//
// Internal to passes/partition.
#ifndef SLUICE_PASSES_PARTITION_CONTROL_H_
#define SLUICE_PASSES_PARTITION_CONTROL_H_

#include "absl/status/status.h"

namespace sluice {

class Graph;
class Node;

// Adds the control loops a placed graph needs for its device-crossing edges inside loop
// frames; a graph without such edges is left as it was. First, as TensorFlow does, it keeps
// each loop's skeleton together, changing assigned devices: a Switch moves to its data
// input's device, an Exit to its Switch's, a (non-ref) Enter and a NextIteration to their
// consumer's, so that only edges that carry a value in every iteration cross devices. Errors:
// INVALID_ARGUMENT when an Enter lacks a string `frame_name`, or a frame with a device-crossing
// edge has no LoopCond
// ("A cross-device loop must have a pivot predicate: <frame>").
absl::Status AddCrossDeviceControlLoops(Graph* graph);

// OK when no edge between op nodes on different assigned devices lies inside a loop frame.
// Otherwise FAILED_PRECONDITION, naming both nodes, their devices and the frame (for
// callers that cannot change the graph); INVALID_ARGUMENT if an Enter lacks a frame_name.
absl::Status CheckNoCrossDeviceLoops(const Graph& graph);

// Whether `node` is the Merge of a control loop added by AddCrossDeviceControlLoops: its
// control edges are per-iteration triggers for Recvs, not dependencies of their consumers.
bool IsControlLoopMerge(const Node& node);

}  // namespace sluice

#endif  // SLUICE_PASSES_PARTITION_CONTROL_H_
