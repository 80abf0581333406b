// Frames by breadth-first search from the roots (_SOURCE and op nodes without in-edges): a
// node's successors share its frame, except that an Exit's successors are in the Exit's
// parent frame and an Enter opens the child frame named by its `frame_name`. Nodes the search
// does not reach are taken to be in the root frame. Then every device-crossing edge is checked
// against the frames of its two ends, and each one inside a frame gets the control loop of
// that frame on its consumer's device (made once per frame and device, with the control
// loops of the enclosing frames on that device).
#include "passes/partition_control.h"

#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace {

constexpr int kRootFrame = 0;
constexpr char kControlLoopPrefix[] = "_cloop";

class FrameTable {
 public:
  FrameTable() { frames_.push_back({"", -1}); }

  // Fills in the frame of every node of `graph`, each frame's LoopCond and its
  // parallel_iterations (from the first of its Enters that the search meets).
  absl::Status Build(const Graph& graph);

  // The frame a node's outputs belong to, and the frame its inputs come from.
  int OutputFrame(const Node& n) const {
    const int f = FrameOf(n);
    return n.IsExit() ? Parent(f) : f;
  }
  int InputFrame(const Node& n) const {
    const int f = FrameOf(n);
    return n.IsEnter() ? Parent(f) : f;
  }
  // An Exit in the root frame is malformed; the executor reports it, here it stays root.
  int Parent(int frame) const {
    const int p = frames_[frame].parent;
    return p < 0 ? kRootFrame : p;
  }
  const std::string& Name(int frame) const { return frames_[frame].name; }
  int LoopCondId(int frame) const { return frames_[frame].loop_cond_id; }
  int ParallelIterations(int frame) const { return frames_[frame].parallel_iterations; }

 private:
  struct Frame {
    std::string name;
    int parent;
    int loop_cond_id = -1;
    int parallel_iterations = 10;  // Enter's default
  };

  int FrameOf(const Node& n) const {
    const int f = frame_of_[n.id()];
    return f < 0 ? kRootFrame : f;
  }
  int Child(int parent, const std::string& name, const Node& enter) {
    auto [it, inserted] = children_.try_emplace({parent, name}, static_cast<int>(frames_.size()));
    if (inserted) {
      frames_.push_back({name, parent});
      int parallel_iterations;
      if (GetNodeAttr(enter.attrs(), "parallel_iterations", &parallel_iterations).ok()) {
        frames_.back().parallel_iterations = parallel_iterations;
      }
    }
    return it->second;
  }

  std::vector<Frame> frames_;
  std::map<std::pair<int, std::string>, int> children_;
  std::vector<int> frame_of_;
};

absl::Status FrameTable::Build(const Graph& graph) {
  frame_of_.assign(graph.num_node_ids(), -1);
  std::deque<const Node*> queue;
  for (const Node* n : graph.nodes()) {
    if (!n->in_edges().empty()) continue;
    frame_of_[n->id()] = kRootFrame;
    queue.push_back(n);
  }
  while (!queue.empty()) {
    const Node* n = queue.front();
    queue.pop_front();
    const int out_frame = OutputFrame(*n);
    for (const Edge* e : n->out_edges()) {
      const Node* d = e->dst();
      if (frame_of_[d->id()] >= 0) continue;
      int frame = out_frame;
      if (d->IsEnter()) {
        std::string name;
        absl::Status s = GetNodeAttr(d->attrs(), "frame_name", &name);
        if (!s.ok()) {
          return errors::InvalidArgument("Enter node '", d->name(),
                                         "' has no valid frame_name: ", s.message());
        }
        frame = Child(out_frame, name, *d);
      }
      frame_of_[d->id()] = frame;
      queue.push_back(d);
    }
  }
  for (const Node* n : graph.op_nodes()) {
    if (!n->IsLoopCond()) continue;
    Frame& frame = frames_[FrameOf(*n)];
    if (frame.loop_cond_id < 0) frame.loop_cond_id = n->id();
  }
  return absl::OkStatus();
}

// A device-crossing edge inside a loop frame: the frame, and the edge's two ends.
struct EdgeInFrame {
  int frame;
  Node* src;
  Node* dst;
};

std::vector<EdgeInFrame> CrossDeviceEdgesInFrames(const Graph& graph, const FrameTable& frames) {
  std::vector<EdgeInFrame> found;
  for (const Edge* e : graph.edges()) {
    Node* src = e->src();
    Node* dst = e->dst();
    if (!src->IsOp() || !dst->IsOp()) continue;
    if (src->assigned_device_name() == dst->assigned_device_name()) continue;
    const int frame = frames.OutputFrame(*src);
    if (frame == kRootFrame || frame != frames.InputFrame(*dst)) continue;
    found.push_back({frame, src, dst});
  }
  return found;
}

// Makes the control loops, one per (frame, device), and remembers their Merges.
class ControlLoopBuilder {
 public:
  ControlLoopBuilder(Graph* graph, const FrameTable& frames) : graph_(graph), frames_(frames) {}

  // The Merge of `frame`'s control loop on `device`, made if needed (with those of the
  // enclosing frames on that device). `consumer` names the new nodes.
  absl::StatusOr<Node*> MergeFor(int frame, const std::string& device, const std::string& consumer);

 private:
  // A float node of `op` for the control loop on `device`, without edges.
  absl::StatusOr<Node*> AddFloatNode(const std::string& op, const std::string& device,
                                     const std::string& consumer, NodeDef def);

  Graph* const graph_;
  const FrameTable& frames_;
  std::map<std::pair<int, std::string>, Node*> merges_;
};

absl::StatusOr<Node*> ControlLoopBuilder::AddFloatNode(const std::string& op,
                                                       const std::string& device,
                                                       const std::string& consumer, NodeDef def) {
  def.set_name(graph_->NewName(absl::StrCat(kControlLoopPrefix, consumer)));
  def.set_op(op);
  def.set_device(device);
  AddNodeAttr(op == "Const" ? "dtype" : "T", DT_FLOAT, &def);
  ASSIGN_OR_RETURN(Node * node, graph_->AddNode(std::move(def)));
  node->set_assigned_device_name(device);
  return node;
}

absl::StatusOr<Node*> ControlLoopBuilder::MergeFor(int frame, const std::string& device,
                                                   const std::string& consumer) {
  auto found = merges_.find({frame, device});
  if (found != merges_.end()) return found->second;
  const int loop_cond_id = frames_.LoopCondId(frame);
  if (loop_cond_id < 0) {
    return errors::InvalidArgument("A cross-device loop must have a pivot predicate: ",
                                   frames_.Name(frame));
  }
  Node* loop_cond = graph_->FindNodeId(loop_cond_id);

  // What starts an instance of the frame on this device: a constant in the root frame, or
  // each iteration of the enclosing frame's control loop.
  Node* source;
  const int parent = frames_.Parent(frame);
  if (parent == kRootFrame) {
    NodeDef def;
    TensorProto empty;
    empty.set_dtype(DT_FLOAT);
    empty.mutable_tensor_shape()->add_dim()->set_size(0);
    AddNodeAttr("value", empty, &def);
    ASSIGN_OR_RETURN(source, AddFloatNode("Const", device, consumer, std::move(def)));
  } else {
    ASSIGN_OR_RETURN(source, MergeFor(parent, device, consumer));
  }

  NodeDef enter_def;
  AddNodeAttr("frame_name", frames_.Name(frame), &enter_def);
  AddNodeAttr("is_constant", false, &enter_def);
  AddNodeAttr("parallel_iterations", frames_.ParallelIterations(frame), &enter_def);
  ASSIGN_OR_RETURN(Node * enter, AddFloatNode("Enter", device, consumer, std::move(enter_def)));
  NodeDef merge_def;
  AddNodeAttr("N", 2, &merge_def);
  ASSIGN_OR_RETURN(Node * merge, AddFloatNode("Merge", device, consumer, std::move(merge_def)));
  ASSIGN_OR_RETURN(Node * switch_node, AddFloatNode("Switch", device, consumer, NodeDef()));
  ASSIGN_OR_RETURN(Node * next, AddFloatNode("NextIteration", device, consumer, NodeDef()));

  graph_->AddEdge(source, 0, enter, 0);
  graph_->AddEdge(enter, 0, merge, 0);
  graph_->AddEdge(next, 0, merge, 1);
  graph_->AddEdge(merge, 0, switch_node, 0);
  graph_->AddEdge(loop_cond, 0, switch_node, 1);
  graph_->AddEdge(switch_node, 1, next, 0);
  // The condition itself crosses devices inside the frame: its Recv needs the trigger too.
  if (loop_cond->assigned_device_name() != device) graph_->AddControlEdge(merge, switch_node);
  merges_.emplace(std::make_pair(frame, device), merge);
  return merge;
}

bool HasLoopTrigger(const Node& dst) {
  for (const Edge* e : dst.in_edges()) {
    if (e->IsControlEdge() && IsControlLoopMerge(*e->src())) return true;
  }
  return false;
}

// Puts `n` (an Enter or a NextIteration) on the device of its data consumers, copying it
// for each further device its consumers are on: its values go to one iteration only (the
// first, or the next), so a cut after it would be received in iterations it never sends.
absl::Status FollowConsumers(Graph* graph, Node* n) {
  struct Consumer {
    Node* dst;
    int src_output;
    int dst_input;
  };
  std::map<std::string, std::vector<Consumer>> by_device;
  for (const Edge* e : n->out_edges()) {
    if (e->IsControlEdge() || !e->dst()->IsOp()) continue;
    by_device[e->dst()->assigned_device_name()].push_back(
        {e->dst(), e->src_output(), e->dst_input()});
  }
  if (by_device.empty()) return absl::OkStatus();
  if (by_device.count(n->assigned_device_name()) == 0) {
    n->set_assigned_device_name(by_device.begin()->first);
  }
  std::vector<const Edge*> inputs(n->in_edges().begin(), n->in_edges().end());
  for (const auto& [device, consumers] : by_device) {
    if (device == n->assigned_device_name()) continue;
    Node* copy = graph->CopyNode(n);
    copy->set_assigned_device_name(device);
    for (const Edge* in : inputs) {
      if (in->IsControlEdge()) {
        graph->AddControlEdge(in->src(), copy);
      } else {
        graph->AddEdge(in->src(), in->src_output(), copy, in->dst_input());
      }
    }
    for (const Consumer& c : consumers) {
      RETURN_IF_ERROR(graph->UpdateEdge(copy, c.src_output, c.dst, c.dst_input));
    }
  }
  return absl::OkStatus();
}

// Keeps each loop's skeleton on one device, as TensorFlow does before adding control loops:
// a Switch goes to its data input's device, an Exit to its Switch's, a non-constant Enter
// and a NextIteration to their consumers' (FollowConsumers). A constant Enter's value is
// given to every iteration, so a cut after it is sent as often as it is received.
absl::Status ColocateLoopSkeletons(Graph* graph) {
  auto move_to_input = [](Node* n) {
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge() || !e->src()->IsOp()) continue;
      n->set_assigned_device_name(e->src()->assigned_device_name());
      return;
    }
  };
  std::vector<Node*> nodes(graph->op_nodes().begin(), graph->op_nodes().end());
  for (Node* n : nodes) {
    if (n->IsSwitch()) move_to_input(n);
  }
  for (Node* n : nodes) {
    if (n->IsExit()) move_to_input(n);
    bool is_constant = false;
    if (n->IsEnter()) GetNodeAttr(n->attrs(), "is_constant", &is_constant).IgnoreError();
    if ((n->IsEnter() && !is_constant && !IsRefType(n->input_type(0))) || n->IsNextIteration()) {
      RETURN_IF_ERROR(FollowConsumers(graph, n));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool IsControlLoopMerge(const Node& node) {
  return node.IsMerge() && absl::StartsWith(node.name(), kControlLoopPrefix);
}

absl::Status AddCrossDeviceControlLoops(Graph* graph) {
  FrameTable frames;
  RETURN_IF_ERROR(frames.Build(*graph));
  if (CrossDeviceEdgesInFrames(*graph, frames).empty()) return absl::OkStatus();
  RETURN_IF_ERROR(ColocateLoopSkeletons(graph));
  frames = FrameTable();  // the copies made above have no frame yet
  RETURN_IF_ERROR(frames.Build(*graph));
  const std::vector<EdgeInFrame> edges = CrossDeviceEdgesInFrames(*graph, frames);
  ControlLoopBuilder loops(graph, frames);
  for (const EdgeInFrame& e : edges) {
    const std::string& device = e.dst->assigned_device_name();
    ASSIGN_OR_RETURN(Node * merge, loops.MergeFor(e.frame, device, e.dst->name()));
    graph->AddControlEdge(merge, e.dst);
  }
  return absl::OkStatus();
}

absl::Status CheckNoCrossDeviceLoops(const Graph& graph) {
  FrameTable frames;
  RETURN_IF_ERROR(frames.Build(graph));
  for (const EdgeInFrame& e : CrossDeviceEdgesInFrames(graph, frames)) {
    if (HasLoopTrigger(*e.dst)) continue;
    return errors::FailedPrecondition(
        "Edge from '", e.src->name(), "' (", e.src->type_string(), ") on ",
        e.src->assigned_device_name(), " to '", e.dst->name(), "' (", e.dst->type_string(), ") on ",
        e.dst->assigned_device_name(), " crosses devices inside while loop frame '",
        frames.Name(e.frame), "'; the graph needs control loops (AddCrossDeviceControlLoops)");
  }
  return absl::OkStatus();
}

}  // namespace sluice
