#include "runtime/executor/control_flow_info.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace {

ControlFlowNode::Kind KindOf(const Node& node) {
  using Kind = ControlFlowNode::Kind;
  if (node.IsMerge()) return Kind::kMerge;
  if (node.IsSwitch()) return Kind::kSwitch;
  if (node.IsEnter()) return Kind::kEnter;
  if (node.IsExit()) return Kind::kExit;
  if (node.IsNextIteration()) return Kind::kNextIteration;
  if (node.IsControlTrigger()) return Kind::kControlTrigger;
  if (node.IsSend()) return Kind::kSend;
  if (node.IsRecv()) return Kind::kRecv;
  if (node.IsIdentity()) return Kind::kIdentity;
  if (node.IsLoopCond()) return Kind::kLoopCond;
  return Kind::kOrdinary;
}

}  // namespace

absl::Status ControlFlowInfo::Build(const ExecutorGraph& layout, ControlFlowInfo* info) {
  const int32_t n = layout.num_nodes();
  info->frames_.clear();
  info->frames_.emplace_back();  // the root frame
  info->nodes_.assign(n, ControlFlowNode());
  std::vector<bool> placed(n, false);
  // Child frames by (parent, name).
  std::map<std::pair<int32_t, std::string>, int32_t> children;
  std::vector<int32_t> queue;

  for (int32_t id = 0; id < n; ++id) {
    const ExecutorNode& item = layout.node(id);
    ControlFlowNode& cf = info->nodes_[id];
    cf.kind = KindOf(*item.node);
    cf.num_data_inputs = item.num_inputs;
    for (const Edge* e : item.node->in_edges()) {
      if (e->IsControlEdge() && e->src()->IsOp()) ++cf.num_control_inputs;
    }
    if (item.initial_pending == 0) {
      placed[id] = true;
      queue.push_back(id);
    }
  }

  for (size_t next = 0; next < queue.size(); ++next) {
    const int32_t id = queue[next];
    const ExecutorNode& item = layout.node(id);
    ControlFlowNode& cf = info->nodes_[id];
    int32_t out_frame = cf.frame;
    if (cf.kind == ControlFlowNode::Kind::kEnter) {
      std::string name;
      RETURN_IF_ERROR(GetNodeAttr(item.node->attrs(), "frame_name", &name));
      bool is_constant = false;
      if (item.node->attrs().Find("is_constant") != nullptr) {
        RETURN_IF_ERROR(GetNodeAttr(item.node->attrs(), "is_constant", &is_constant));
      }
      int64_t parallel = 10;
      if (item.node->attrs().Find("parallel_iterations") != nullptr) {
        RETURN_IF_ERROR(GetNodeAttr(item.node->attrs(), "parallel_iterations", &parallel));
      }
      auto [it, made] =
          children.try_emplace({cf.frame, name}, static_cast<int32_t>(info->frames_.size()));
      if (made) {
        StaticFrame frame;
        frame.name = name;
        frame.parent = cf.frame;
        // A user's attr: clamped, never wrapped (a negative count would never defer an
        // iteration and the loop's memory would grow with its length).
        frame.parallel_iterations = static_cast<int32_t>(
            std::clamp<int64_t>(parallel, 1, std::numeric_limits<int32_t>::max()));
        info->frames_.push_back(std::move(frame));
      }
      info->frames_[it->second].num_enters++;
      cf.child_frame = it->second;
      cf.is_constant_enter = is_constant;
      out_frame = it->second;
    } else if (cf.kind == ControlFlowNode::Kind::kExit) {
      if (cf.frame == 0) {
        return AttachDef(errors::InvalidArgument("Exit node '", item.node->name(),
                                                 "' is not inside a loop frame"),
                         item.node->def());
      }
      out_frame = info->frames_[cf.frame].parent;
    }
    for (const ExecutorEdge& edge : layout.out_edges(item)) {
      if (!placed[edge.dst]) {
        placed[edge.dst] = true;
        info->nodes_[edge.dst].frame = out_frame;
        queue.push_back(edge.dst);
      } else if (info->nodes_[edge.dst].frame != out_frame) {
        const Node& dst = *layout.node(edge.dst).node;
        return AttachDef(
            errors::InvalidArgument("Node '", dst.name(), "' has inputs from two loop frames ('",
                                    info->frames_[info->nodes_[edge.dst].frame].name, "' and '",
                                    info->frames_[out_frame].name, "')"),
            dst.def());
      }
    }
  }
  for (int32_t id = 0; id < n; ++id) {
    if (!placed[id]) {
      const Node& node = *layout.node(id).node;
      return AttachDef(errors::InvalidArgument("Node '", node.name(),
                                               "' is not reached from any root of the graph"),
                       node.def());
    }
    ControlFlowNode& cf = info->nodes_[id];
    StaticFrame& frame = info->frames_[cf.frame];
    cf.local_id = static_cast<int32_t>(frame.nodes.size());
    cf.local_input_start = frame.num_input_slots;
    frame.nodes.push_back(id);
    frame.num_input_slots += layout.node(id).num_inputs;
  }
  return absl::OkStatus();
}

}  // namespace sluice
