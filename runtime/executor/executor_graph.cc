// ExecutorGraph: kernels are created in node order; edges are then laid out per producer,
// data edges sorted by output slot (so the readers of each output are contiguous) before
// control edges.
#include "runtime/executor/executor_graph.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace {

absl::Status CheckArity(const Node& node, const OpKernel& kernel) {
  if (kernel.num_inputs() != node.num_inputs() || kernel.num_outputs() != node.num_outputs()) {
    return AttachDef(
        errors::Internal("Kernel for ", node.type_string(), " has ", kernel.num_inputs(),
                         " inputs and ", kernel.num_outputs(), " outputs but node '", node.name(),
                         "' has ", node.num_inputs(), " and ", node.num_outputs()),
        node.def());
  }
  return absl::OkStatus();
}

}  // namespace

ExecutorGraph::~ExecutorGraph() = default;

absl::Status ExecutorGraph::Build(std::unique_ptr<const Graph> graph,
                                  const CreateKernelFn& create_kernel,
                                  std::unique_ptr<ExecutorGraph>* out) {
  std::unique_ptr<ExecutorGraph> layout(new ExecutorGraph);
  layout->graph_ = std::move(graph);
  RETURN_IF_ERROR(layout->Init(create_kernel));
  *out = std::move(layout);
  return absl::OkStatus();
}

absl::Status ExecutorGraph::Init(const CreateKernelFn& create_kernel) {
  for (const Node* node : graph_->op_nodes()) has_control_flow_ |= node->IsControlFlow();

  std::vector<int32_t> index_of_id(graph_->num_node_ids(), -1);
  nodes_.reserve(graph_->num_op_nodes());
  kernels_.reserve(graph_->num_op_nodes());
  for (const Node* node : graph_->op_nodes()) {
    std::unique_ptr<OpKernel> kernel;
    absl::Status s = create_kernel(*node, &kernel);
    if (!s.ok()) return AttachDef(s, node->def());
    if (kernel == nullptr) {
      return AttachDef(
          errors::Internal("create_kernel returned no kernel for ", node->type_string()),
          node->def());
    }
    RETURN_IF_ERROR(CheckArity(*node, *kernel));

    ExecutorNode item;
    item.node = node;
    item.kernel = kernel.get();
    item.async = kernel->AsAsync();
    // The shortcut covers what Const is: no data inputs, one output.
    if (node->num_inputs() == 0 && node->num_outputs() == 1) {
      item.const_tensor = kernel->const_tensor();
    }
    item.expensive = kernel->IsExpensive();
    for (DataType type : kernel->input_types()) item.ref_inputs |= IsRefType(type);
    item.input_start = num_input_slots_;
    item.num_inputs = node->num_inputs();
    item.num_outputs = node->num_outputs();
    num_input_slots_ += item.num_inputs;
    index_of_id[node->id()] = static_cast<int32_t>(nodes_.size());
    nodes_.push_back(item);
    kernels_.push_back(std::move(kernel));
  }
  RETURN_IF_ERROR(LayOutEdges(index_of_id));
  RETURN_IF_ERROR(CheckAcyclic());
  for (ExecutorEdge& edge : edges_) edge.sole_input = nodes_[edge.dst].initial_pending == 1;

  for (int32_t i = 0; i < num_nodes(); ++i) {
    if (nodes_[i].initial_pending != 0) continue;
    (nodes_[i].expensive ? expensive_roots_ : cheap_roots_).push_back(i);
  }
  return absl::OkStatus();
}

absl::Status ExecutorGraph::CheckAcyclic() const {
  // Kahn's algorithm over the pending counts: a node on (or behind) a cycle never becomes
  // ready, and a step would end without running it.
  // A loop's back edges (out of NextIteration) carry values to the next iteration, not
  // within one: they are left out.
  std::vector<int32_t> pending(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) pending[i] = nodes_[i].initial_pending;
  for (const ExecutorNode& item : nodes_) {
    if (!item.node->IsNextIteration()) continue;
    for (const ExecutorEdge& edge : out_edges(item)) --pending[edge.dst];
  }
  std::vector<int32_t> ready;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (pending[i] == 0) ready.push_back(static_cast<int32_t>(i));
  }
  size_t reached = 0;
  while (!ready.empty()) {
    const int32_t id = ready.back();
    ready.pop_back();
    ++reached;
    if (nodes_[id].node->IsNextIteration()) continue;
    for (const ExecutorEdge& edge : out_edges(nodes_[id])) {
      if (--pending[edge.dst] == 0) ready.push_back(edge.dst);
    }
  }
  if (reached == nodes_.size()) return absl::OkStatus();
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (pending[i] == 0) continue;
    const Node& node = *nodes_[i].node;
    return AttachDef(errors::InvalidArgument(
                         "Node '", node.name(), "' (", node.type_string(),
                         ") is on or behind a cycle that is not a loop (a cycle must pass through "
                         "NextIteration), so it would never run"),
                     node.def());
  }
  return absl::OkStatus();
}

absl::Status ExecutorGraph::LayOutEdges(const std::vector<int32_t>& index_of_id) {
  std::vector<const Edge*> out;
  for (ExecutorNode& item : nodes_) {
    out.clear();
    for (const Edge* e : item.node->out_edges()) {
      if (e->dst()->IsOp()) out.push_back(e);
    }
    // Data edges by output slot, then control edges; ties by consumer for a stable layout.
    std::sort(out.begin(), out.end(), [](const Edge* a, const Edge* b) {
      const bool a_control = a->IsControlEdge();
      const bool b_control = b->IsControlEdge();
      if (a_control != b_control) return b_control;
      if (a->src_output() != b->src_output()) return a->src_output() < b->src_output();
      if (a->dst()->id() != b->dst()->id()) return a->dst()->id() < b->dst()->id();
      return a->dst_input() < b->dst_input();
    });
    item.edge_start = static_cast<int32_t>(edges_.size());
    item.num_edges = static_cast<int32_t>(out.size());
    for (size_t k = 0; k < out.size(); ++k) {
      const Edge* e = out[k];
      ExecutorNode& dst = nodes_[index_of_id[e->dst()->id()]];
      ++dst.initial_pending;
      ExecutorEdge edge;
      edge.dst = index_of_id[e->dst()->id()];
      if (!e->IsControlEdge()) {
        if (e->src_output() < 0 || e->src_output() >= item.num_outputs || e->dst_input() < 0 ||
            e->dst_input() >= dst.num_inputs) {
          return AttachDef(
              errors::Internal("Edge ", e->DebugString(), " names a slot its nodes do not have"),
              dst.node->def());
        }
        edge.src_output = e->src_output();
        edge.dst_slot = dst.input_start + e->dst_input();
      }
      edges_.push_back(edge);
    }
  }
  return absl::OkStatus();
}

}  // namespace sluice
