// ControlFlowInfo: the loop frames of an executor graph with v1 control flow, and where each
// node runs in them.
//
// TensorFlow's loops are written with Enter (into a child frame named by its frame_name),
// Exit (back to the parent frame), NextIteration (to the next iteration of the same frame),
// Merge, Switch and LoopCond. Every node runs in exactly one static frame: the frame its
// inputs come from. Enter runs in the parent and feeds the child; Exit runs in the child and
// feeds the parent. The root frame (index 0, name "") holds the graph's roots. A step
// creates frame instances and iterations of these static frames as the loops run; what it
// allocates per iteration is sized by the static frame (its nodes and their input slots),
// not by the whole graph.
//
// Errors (INVALID_ARGUMENT naming the node): a node reached from two frames, an Exit in the
// root frame, a node that no root reaches.
#ifndef SLUICE_RUNTIME_EXECUTOR_CONTROL_FLOW_INFO_H_
#define SLUICE_RUNTIME_EXECUTOR_CONTROL_FLOW_INFO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "runtime/executor/executor_graph.h"

namespace sluice {

struct StaticFrame {
  std::string name;  // "" for the root frame
  int32_t parent = -1;
  // From the frame's Enter nodes (the first one seen); 1 for the root frame.
  int32_t parallel_iterations = 1;
  // Enter nodes that feed the frame: an instance is done only after each has run.
  int32_t num_enters = 0;
  // Dense executor indices of the nodes that run in this frame.
  std::vector<int32_t> nodes;
  // Input slots of those nodes, numbered from 0 in this frame.
  int32_t num_input_slots = 0;
};

// What a step needs per node beyond the ExecutorGraph.
struct ControlFlowNode {
  enum class Kind : uint8_t {
    kOrdinary,
    kMerge,
    kSwitch,
    kEnter,
    kExit,
    kNextIteration,
    kControlTrigger,
    kSend,
    kRecv,
    // Identity and LoopCond: forwarded by the executor like Enter (see frame_executor.cc).
    kIdentity,
    kLoopCond,
  };
  Kind kind = Kind::kOrdinary;
  int32_t frame = 0;              // the static frame it runs in
  int32_t local_id = 0;           // its index in that frame's `nodes`
  int32_t local_input_start = 0;  // its first input slot in that frame
  // Enter only: the frame it feeds, and whether its value is the same in every iteration.
  int32_t child_frame = -1;
  bool is_constant_enter = false;
  int32_t num_data_inputs = 0;
  int32_t num_control_inputs = 0;
};

class ControlFlowInfo {
 public:
  static absl::Status Build(const ExecutorGraph& layout, ControlFlowInfo* info);

  const std::vector<StaticFrame>& frames() const { return frames_; }
  const ControlFlowNode& node(int32_t id) const { return nodes_[id]; }

 private:
  std::vector<StaticFrame> frames_;
  std::vector<ControlFlowNode> nodes_;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_EXECUTOR_CONTROL_FLOW_INFO_H_
