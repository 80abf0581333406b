// Frames by breadth-first search from the roots (_SOURCE and op nodes without in-edges): a
// node's successors share its frame, except that an Exit's successors are in the Exit's
// parent frame and an Enter opens the child frame named by its `frame_name`. Nodes the search
// does not reach are taken to be in the root frame. Then every device-crossing edge is checked
// against the frames of its two ends.
#include "passes/partition_control.h"

#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace {

constexpr int kRootFrame = 0;

class FrameTable {
 public:
  FrameTable() { frames_.push_back({"", -1}); }

  // Fills frame_of_ for every node of `graph`.
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
  const std::string& Name(int frame) const { return frames_[frame].name; }

 private:
  struct Frame {
    std::string name;
    int parent;
  };

  int FrameOf(const Node& n) const {
    const int f = frame_of_[n.id()];
    return f < 0 ? kRootFrame : f;
  }
  // An Exit in the root frame is malformed; the executor reports it, here it stays root.
  int Parent(int frame) const {
    const int p = frames_[frame].parent;
    return p < 0 ? kRootFrame : p;
  }
  int Child(int parent, const std::string& name) {
    auto [it, inserted] = children_.try_emplace({parent, name}, static_cast<int>(frames_.size()));
    if (inserted) frames_.push_back({name, parent});
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
        frame = Child(out_frame, name);
      }
      frame_of_[d->id()] = frame;
      queue.push_back(d);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckNoCrossDeviceLoops(const Graph& graph) {
  FrameTable frames;
  RETURN_IF_ERROR(frames.Build(graph));
  for (const Edge* e : graph.edges()) {
    const Node& src = *e->src();
    const Node& dst = *e->dst();
    if (!src.IsOp() || !dst.IsOp()) continue;
    if (src.assigned_device_name() == dst.assigned_device_name()) continue;
    const int out_frame = frames.OutputFrame(src);
    const int in_frame = frames.InputFrame(dst);
    if (out_frame == kRootFrame && in_frame == kRootFrame) continue;
    const int frame = out_frame != kRootFrame ? out_frame : in_frame;
    return errors::Unimplemented("Edge from '", src.name(), "' (", src.type_string(), ") on ",
                                 src.assigned_device_name(), " to '", dst.name(), "' (",
                                 dst.type_string(), ") on ", dst.assigned_device_name(),
                                 " crosses devices inside while loop frame '", frames.Name(frame),
                                 "'; partitioning loops across devices is not supported");
  }
  return absl::OkStatus();
}

}  // namespace sluice
