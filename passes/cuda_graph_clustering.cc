// FormCudaGraphClusters: pick the candidates, drop those whose inputs or outputs cannot cross
// the region's boundary, keep the convex part, splice. See the header.
#include "passes/cuda_graph_clustering.h"

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/algorithm.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

// Ops whose GPU kernels only validate on the host and enqueue device work (no copy between
// host and device, no wait), for float, half and bfloat16 values.
bool IsCapturableOp(const std::string& op) {
  static const auto* const kOps = new absl::flat_hash_set<std::string>({
      "Conv2D",
      "DepthwiseConv2dNative",
      "_FusedConv2D",
      "_FusedDepthwiseConv2dNative",
      "MatMul",
      "_FusedMatMul",
      "BatchMatMul",
      "BatchMatMulV2",
      "Einsum",
      "BiasAdd",
      "Relu",
      "Relu6",
      "Elu",
      "Selu",
      "LeakyRelu",
      "Sigmoid",
      "Tanh",
      "Softplus",
      "Softsign",
      "Neg",
      "Abs",
      "Square",
      "Sqrt",
      "Rsqrt",
      "Reciprocal",
      "Exp",
      "Expm1",
      "Log",
      "Log1p",
      "Erf",
      "Erfc",
      "Floor",
      "Ceil",
      "Sin",
      "Cos",
      "Add",
      "AddV2",
      "Sub",
      "Mul",
      "Div",
      "RealDiv",
      "Maximum",
      "Minimum",
      "SquaredDifference",
      "Pow",
      "_FusedElementwise",
      "Softmax",
      "LogSoftmax",
      "MaxPool",
      "AvgPool",
      "Mean",
      "Sum",
      "Max",
      "Min",
      "Prod",
      "FusedBatchNorm",
      "FusedBatchNormV3",
      "Reshape",
      "Identity",
      "Squeeze",
      "ExpandDims",
      "Transpose",
      "ConcatV2",
      "Pack",
      "Pad",
      "PadV2",
      "Slice",
      "StridedSlice",
      "Tile",
      "Cast",
  });
  return kOps->contains(op);
}

bool IsFloating(DataType t) { return t == DT_FLOAT || t == DT_HALF || t == DT_BFLOAT16; }

bool OnGpu(const Node* n) { return absl::StrContains(n->assigned_device_name(), "/device:GPU:"); }

bool IsConst(const Node* n) { return n->type_string() == "Const"; }

// Whether `n` itself may be in a region (its op, dtypes and device); the boundary rules are
// applied to the candidate set afterwards.
bool IsCandidate(const Node* n, const CudaGraphClusteringOptions& opts) {
  if (!n->IsOp() || !OnGpu(n) || opts.protected_names.contains(n->name())) return false;
  if (IsConst(n)) return true;
  if (!IsCapturableOp(n->type_string())) return false;
  for (const char* attr : {"T", "SrcT", "DstT"}) {
    const auto it = n->def().attr().find(attr);
    if (it != n->def().attr().end() && !IsFloating(it->second.type())) return false;
  }
  if (absl::StartsWith(n->type_string(), "FusedBatchNorm") &&
      GetNodeAttrOr<bool>(n->attrs(), "is_training", true)) {
    return false;
  }
  return true;
}

using NodeSet = absl::flat_hash_set<const Node*>;

// Drops members whose boundary crossings the kernel cannot make, until none is left to drop.
void EnforceBoundary(NodeSet* members) {
  for (bool dropped = true; dropped;) {
    dropped = false;
    std::vector<const Node*> drop;
    for (const Node* n : *members) {
      bool ok = true;
      bool used_inside = false;
      for (const Edge* e : n->in_edges()) {
        if (e->IsControlEdge() || members->contains(e->src())) continue;
        ok &= IsFloating(e->src()->output_type(e->src_output()));
      }
      for (const Edge* e : n->out_edges()) {
        if (e->IsControlEdge()) continue;
        if (members->contains(e->dst())) {
          used_inside = true;
        } else {
          ok &= IsFloating(n->output_type(e->src_output()));
        }
      }
      // A Const only matters to the members that read it.
      if (IsConst(n) && !used_inside) ok = false;
      if (!ok) drop.push_back(n);
    }
    for (const Node* n : drop) members->erase(n);
    dropped = !drop.empty();
  }
}

// The members that a path through a non-member reaches from a member.
NodeSet ReachedFromOutside(const NodeSet& members) {
  NodeSet seen;
  std::deque<const Node*> queue;
  for (const Node* n : members) {
    for (const Edge* e : n->out_edges()) {
      if (!members.contains(e->dst()) && seen.insert(e->dst()).second) queue.push_back(e->dst());
    }
  }
  while (!queue.empty()) {
    const Node* n = queue.front();
    queue.pop_front();
    for (const Edge* e : n->out_edges()) {
      if (seen.insert(e->dst()).second) queue.push_back(e->dst());
    }
  }
  NodeSet reached;
  for (const Node* n : members) {
    if (seen.contains(n)) reached.insert(n);
  }
  return reached;
}

class Clustering {
 public:
  Clustering(const CudaGraphClusteringOptions& opts, Graph* g) : opts_(opts), g_(g) {}

  absl::Status Run(bool* changed) {
    *changed = false;
    GetReversePostOrder(*g_, &order_);
    // Candidates per GPU.
    std::map<std::string, NodeSet> by_device;
    for (const Node* n : order_) {
      if (IsCandidate(n, opts_)) by_device[n->assigned_device_name()].insert(n);
    }
    std::vector<NodeSet> regions;
    for (auto& [device, candidates] : by_device) {
      NodeSet rest = std::move(candidates);
      for (int round = 0; round < 4 && !rest.empty(); ++round) {
        // Shrink to a convex set whose boundary the kernel can cross: each removal may
        // expose another crossing or another path through a non-member.
        NodeSet members = rest;
        NodeSet next;
        for (;;) {
          EnforceBoundary(&members);
          const NodeSet later = ReachedFromOutside(members);
          if (later.empty()) break;
          for (const Node* n : later) {
            members.erase(n);
            next.insert(n);
          }
        }
        int kernels = 0;
        for (const Node* n : members) kernels += IsConst(n) ? 0 : 1;
        if (kernels >= opts_.min_kernels) regions.push_back(std::move(members));
        rest = std::move(next);
      }
    }
    for (const NodeSet& region : regions) {
      bool spliced = false;
      RETURN_IF_ERROR(Splice(region, &spliced));
      *changed |= spliced;
    }
    return absl::OkStatus();
  }

 private:
  // Replaces `region` by one `_CudaGraph` node; *spliced: whether it did (a region whose
  // values nothing outside reads is left alone).
  absl::Status Splice(const NodeSet& region, bool* spliced) {
    std::vector<Node*> members;
    for (Node* n : order_) {
      if (region.contains(n)) members.push_back(n);
    }
    const auto is_member = [&](const Node* n) { return region.contains(n); };
    // Inputs from outside, in order of first use; values read outside, likewise.
    std::vector<std::pair<Node*, int>> inputs;
    std::vector<std::pair<Node*, int>> outputs;
    std::vector<Node*> control_in;
    // (consumer, input slot or kControlSlot, output index or -1 for control)
    std::vector<std::tuple<Node*, int, int>> consumers;
    GraphDef body;
    for (Node* n : members) {
      NodeDef* def = body.add_node();
      *def = n->def();
      def->clear_input();
      def->set_device(n->assigned_device_name());
      std::vector<const Edge*> data(n->num_inputs(), nullptr);
      for (const Edge* e : n->in_edges()) {
        if (e->IsControlEdge()) {
          if (!is_member(e->src()) &&
              std::find(control_in.begin(), control_in.end(), e->src()) == control_in.end()) {
            control_in.push_back(e->src());
          }
          continue;
        }
        data[e->dst_input()] = e;
      }
      for (const Edge* e : data) {
        if (e == nullptr) return errors::Internal("Node ", n->name(), " misses an input");
        if (is_member(e->src())) {
          def->add_input(absl::StrCat(e->src()->name(), ":", e->src_output()));
          continue;
        }
        const std::pair<Node*, int> source(e->src(), e->src_output());
        auto it = std::find(inputs.begin(), inputs.end(), source);
        if (it == inputs.end()) it = inputs.insert(inputs.end(), source);
        def->add_input(absl::StrCat(kCudaGraphInput, ":", it - inputs.begin()));
      }
      for (const Edge* e : n->out_edges()) {
        if (is_member(e->dst())) continue;
        if (e->IsControlEdge()) {
          const std::tuple<Node*, int, int> control(e->dst(), Graph::kControlSlot, -1);
          if (std::find(consumers.begin(), consumers.end(), control) == consumers.end()) {
            consumers.push_back(control);
          }
          continue;
        }
        const std::pair<Node*, int> value(n, e->src_output());
        auto it = std::find(outputs.begin(), outputs.end(), value);
        if (it == outputs.end()) it = outputs.insert(outputs.end(), value);
        consumers.emplace_back(e->dst(), e->dst_input(), static_cast<int>(it - outputs.begin()));
      }
    }
    if (outputs.empty()) return absl::OkStatus();  // nothing reads it: leave the nodes be
    Node* last = members.back();
    NodeDef def;
    def.set_name(g_->NewName(absl::StrCat(last->name(), "/cuda_graph")));
    def.set_op("_CudaGraph");
    def.set_device(last->requested_device());
    std::vector<DataType> tin, tout;
    std::vector<std::string> output_names;
    for (const auto& [src, port] : inputs) {
      tin.push_back(src->output_type(port));
      def.add_input(absl::StrCat(src->name(), ":", port));
    }
    for (Node* src : control_in) def.add_input(absl::StrCat("^", src->name()));
    for (const auto& [src, port] : outputs) {
      tout.push_back(src->output_type(port));
      output_names.push_back(absl::StrCat(src->name(), ":", port));
    }
    AddNodeAttr("Tin", tin, &def);
    AddNodeAttr("Tout", tout, &def);
    AddNodeAttr("body", body.SerializeAsString(), &def);
    AddNodeAttr("output_names", output_names, &def);
    const std::string device = last->assigned_device_name();
    if (!opts_.kernel_exists || !opts_.kernel_exists(def, device)) return absl::OkStatus();
    for (Node* n : members) g_->RemoveNode(n);
    ASSIGN_OR_RETURN(Node * graph_node, g_->AddNode(std::move(def)));
    graph_node->set_assigned_device_name(device);
    for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
      g_->AddEdge(inputs[i].first, inputs[i].second, graph_node, i);
    }
    for (Node* src : control_in) g_->AddControlEdge(src, graph_node);
    for (const auto& [dst, slot, output] : consumers) {
      if (output < 0) {
        g_->AddControlEdge(graph_node, dst);
      } else {
        g_->AddEdge(graph_node, output, dst, slot);
      }
    }
    *spliced = true;
    return absl::OkStatus();
  }

  const CudaGraphClusteringOptions& opts_;
  Graph* const g_;
  std::vector<Node*> order_;
};

}  // namespace

absl::Status FormCudaGraphClusters(const CudaGraphClusteringOptions& opts, Graph* g,
                                   bool* changed) {
  return Clustering(opts, g).Run(changed);
}

}  // namespace sluice
