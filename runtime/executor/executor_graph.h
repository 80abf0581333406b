// ExecutorGraph: the immutable, flat layout of one partition graph that every step of an
// executor reads.
//
// Built once from a Graph: op nodes get dense indices 0..num_nodes()-1 (_SOURCE and _SINK
// are left out; edges touching them carry no data and order nothing), each with its kernel,
// the start of its inputs in a per-step array of input slots (num_input_slots() in all),
// its out edges as one contiguous run of a flat array, and its initial pending count (the
// number of in-edges, data and control, from other op nodes). The roots are the nodes with
// no such in-edges, split into cheap and expensive ones so a step can hand them out
// without sorting.
//
// Ownership: owns the Graph and every kernel. Thread safety: immutable after Build, so any
// number of steps may read it at once.
#ifndef SLUICE_RUNTIME_EXECUTOR_EXECUTOR_GRAPH_H_
#define SLUICE_RUNTIME_EXECUTOR_EXECUTOR_GRAPH_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/graph.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// One out edge of a node, as a step propagates it.
struct ExecutorEdge {
  int32_t dst = 0;          // dense index of the consumer
  int32_t dst_slot = -1;    // global input slot it fills; -1 for a control edge
  int32_t src_output = -1;  // producer's output; -1 for a control edge
  // The consumer has this edge as its only in-edge: it is ready once the edge fires, with
  // no shared count to decrement.
  bool sole_input = false;
};

struct ExecutorNode {
  const Node* node = nullptr;
  OpKernel* kernel = nullptr;      // owned by the ExecutorGraph
  AsyncOpKernel* async = nullptr;  // kernel->AsAsync(), cached
  // kernel->const_tensor(), cached: the value of a Const, handed on without running it.
  const Tensor* const_tensor = nullptr;
  bool expensive = false;   // kernel->IsExpensive(), cached
  bool ref_inputs = false;  // some input of the kernel is ref-typed
  int32_t input_start = 0;
  int32_t num_inputs = 0;
  int32_t num_outputs = 0;
  int32_t edge_start = 0;
  int32_t num_edges = 0;
  int32_t initial_pending = 0;
};

class ExecutorGraph {
 public:
  using CreateKernelFn =
      std::function<absl::Status(const Node& node, std::unique_ptr<OpKernel>* kernel)>;

  // Lays out `graph` and creates its kernels. Errors (each with the node attached): the
  // first create_kernel failure; INTERNAL when a kernel's arity differs from its node's or an
  // edge names a slot the node lacks; INVALID_ARGUMENT for a node on or behind a cycle that
  // does not pass through NextIteration (a loop's back edge).
  static absl::Status Build(std::unique_ptr<const Graph> graph, const CreateKernelFn& create_kernel,
                            std::unique_ptr<ExecutorGraph>* out);

  ~ExecutorGraph();
  ExecutorGraph(const ExecutorGraph&) = delete;
  ExecutorGraph& operator=(const ExecutorGraph&) = delete;

  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  int num_input_slots() const { return num_input_slots_; }
  const ExecutorNode& node(int i) const { return nodes_[i]; }
  absl::Span<const ExecutorEdge> out_edges(const ExecutorNode& n) const {
    return absl::MakeConstSpan(edges_.data() + n.edge_start, n.num_edges);
  }
  absl::Span<const int32_t> cheap_roots() const { return cheap_roots_; }
  absl::Span<const int32_t> expensive_roots() const { return expensive_roots_; }
  const Graph& graph() const { return *graph_; }
  // Whether the graph has v1 control-flow nodes (Switch, Merge, Enter, Exit, NextIteration,
  // LoopCond, ControlTrigger): they need the frame executor (frame_executor.h).
  bool has_control_flow() const { return has_control_flow_; }

 private:
  ExecutorGraph() = default;
  absl::Status Init(const CreateKernelFn& create_kernel);
  absl::Status LayOutEdges(const std::vector<int32_t>& index_of_id);
  absl::Status CheckAcyclic() const;

  std::unique_ptr<const Graph> graph_;
  std::vector<std::unique_ptr<OpKernel>> kernels_;
  std::vector<ExecutorNode> nodes_;
  std::vector<ExecutorEdge> edges_;
  std::vector<int32_t> cheap_roots_;
  std::vector<int32_t> expensive_roots_;
  int num_input_slots_ = 0;
  bool has_control_flow_ = false;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_EXECUTOR_EXECUTOR_GRAPH_H_
