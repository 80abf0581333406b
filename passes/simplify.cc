// SimplifyGraph. The algorithm:
//   for each op node n in reverse post order (so a chain collapses front to back):
//     if n is not an unprotected Identity/StopGradient/PreventGradient/NoOp: continue
//     inputs    = n's data input (forwarding ops) + n's control inputs (not _SOURCE)
//     consumers = the distinct nodes n feeds (not _SINK)
//     keep n if bypassing it adds edges (|inputs| * |consumers| > |inputs| + |consumers|),
//       adds device crossings, or breaks one of the rules in simplify.h
//     otherwise: data consumers read n's input; control consumers depend on its producer;
//       every consumer depends on n's control inputs; remove n
//   an unprotected IdentityN without control edges: consumers of output k read input k
//   reconnect source and sink if anything was removed.
#include "passes/simplify.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "graph/algorithm.h"
#include "graph/core/types.h"
#include "graph/graph.h"

namespace sluice {
namespace {

bool IsForwarding(const Node* n) {
  const std::string& op = n->type_string();
  return op == "Identity" || op == "StopGradient" || op == "PreventGradient";
}

// The device a node runs on, or asks for before placement.
const std::string& DeviceOf(const Node* n) {
  return n->has_assigned_device_name() ? n->assigned_device_name() : n->requested_device();
}

// What bypassing a node touches.
struct Neighbourhood {
  const Edge* data_in = nullptr;  // forwarding ops only
  std::vector<Node*> control_in;
  std::vector<Node*> consumers;  // distinct, in out-edge order
  std::vector<const Edge*> out_edges;

  // Producers of everything n waits for: its data input's producer and its control inputs.
  std::vector<Node*> Inputs() const {
    std::vector<Node*> in = control_in;
    if (data_in != nullptr) in.push_back(data_in->src());
    return in;
  }
};

// False if a forwarding node lacks its data input (nothing to forward).
bool GetNeighbourhood(const Node* n, Neighbourhood* nb) {
  for (const Edge* e : n->in_edges()) {
    if (!e->IsControlEdge()) {
      nb->data_in = e;
    } else if (!e->src()->IsSource()) {
      nb->control_in.push_back(e->src());
    }
  }
  absl::flat_hash_set<const Node*> seen;
  for (const Edge* e : n->out_edges()) {
    if (e->dst()->IsSink()) continue;
    nb->out_edges.push_back(e);
    if (seen.insert(e->dst()).second) nb->consumers.push_back(e->dst());
  }
  return !IsForwarding(n) || nb->data_in != nullptr;
}

// A forwarding node that does more than forward: it derefs a ref, pins a Switch branch,
// follows a Recv, or copies its input to another device.
bool ForwardingDoesWork(const Node* n, const Edge* in) {
  const Node* src = in->src();
  if (IsRefType(src->output_type(in->src_output()))) return true;
  if (src->IsSwitch() || src->IsRecv()) return true;
  return DeviceOf(src) != DeviceOf(n);
}

// TensorFlow's dependency-optimizer bounds: no more edges, no more device crossings.
bool BypassIsCheap(const Node* n, const Neighbourhood& nb) {
  const std::vector<Node*> inputs = nb.Inputs();
  const size_t num_in = inputs.size();
  const size_t num_out = nb.consumers.size();
  if (num_in * num_out > num_in + num_out) return false;
  int cross_before = 0;
  for (const Node* in : inputs) cross_before += DeviceOf(in) != DeviceOf(n);
  for (const Node* out : nb.consumers) cross_before += DeviceOf(out) != DeviceOf(n);
  int cross_after = 0;
  for (const Node* in : inputs) {
    for (const Node* out : nb.consumers) cross_after += DeviceOf(in) != DeviceOf(out);
  }
  return cross_after <= cross_before;
}

bool CanRemove(const Node* n, const SimplifyOptions& opts, const Neighbourhood& nb) {
  if (opts.protected_names.contains(n->name())) return false;
  if (nb.data_in != nullptr && ForwardingDoesWork(n, nb.data_in)) return false;
  if (!nb.control_in.empty()) {
    // A control edge into a Merge would change which of its inputs it waits for.
    for (const Node* c : nb.consumers) {
      if (c->IsMerge()) return false;
    }
  }
  return BypassIsCheap(n, nb);
}

// Adds ^src -> dst unless dst already depends directly on src.
void AddDependency(Graph* g, Node* src, Node* dst) {
  for (const Edge* e : dst->in_edges()) {
    if (e->src() == src) return;
  }
  g->AddControlEdge(src, dst);
}

void Bypass(Graph* g, Node* n, const Neighbourhood& nb) {
  for (const Edge* e : nb.out_edges) {
    Node* dst = e->dst();
    const int dst_input = e->dst_input();
    g->RemoveEdge(e);
    if (nb.data_in == nullptr) continue;
    if (dst_input == Graph::kControlSlot) {
      AddDependency(g, nb.data_in->src(), dst);
    } else {
      g->AddEdge(nb.data_in->src(), nb.data_in->src_output(), dst, dst_input);
    }
  }
  for (Node* dst : nb.consumers) {
    for (Node* c : nb.control_in) AddDependency(g, c, dst);
  }
  g->RemoveNode(n);
}

// IdentityN forwards input k to output k, so its data consumers can read the inputs
// directly. Done only when the node has no control edges either way (the general rules
// above cover single-input forwarding) and forwarding does no work for any input. Bypassing
// rewires edges one for one, so it never adds any.
bool BypassIdentityN(Graph* g, Node* n, const SimplifyOptions& opts) {
  if (opts.protected_names.contains(n->name())) return false;
  std::vector<const Edge*> inputs(n->num_inputs(), nullptr);
  for (const Edge* e : n->in_edges()) {
    if (e->IsControlEdge()) {
      if (!e->src()->IsSource()) return false;
      continue;
    }
    if (ForwardingDoesWork(n, e)) return false;
    inputs[e->dst_input()] = e;
  }
  for (const Edge* e : inputs) {
    if (e == nullptr) return false;
  }
  std::vector<const Edge*> outputs;
  for (const Edge* e : n->out_edges()) {
    if (e->dst()->IsSink()) continue;
    if (e->IsControlEdge()) return false;
    outputs.push_back(e);
  }
  for (const Edge* e : outputs) {
    const Edge* in = inputs[e->src_output()];
    Node* dst = e->dst();
    const int dst_input = e->dst_input();
    g->RemoveEdge(e);
    g->AddEdge(in->src(), in->src_output(), dst, dst_input);
  }
  g->RemoveNode(n);
  return true;
}

}  // namespace

absl::Status SimplifyGraph(const SimplifyOptions& opts, Graph* g, bool* changed) {
  *changed = false;
  std::vector<Node*> order;
  GetReversePostOrder(*g, &order, NodeComparatorID());
  for (Node* n : order) {
    if (n->IsOp() && n->type_string() == "IdentityN") {
      if (BypassIdentityN(g, n, opts)) *changed = true;
      continue;
    }
    if (!n->IsOp() || !(IsForwarding(n) || n->IsNoOp())) continue;
    Neighbourhood nb;
    if (!GetNeighbourhood(n, &nb) || !CanRemove(n, opts, nb)) continue;
    Bypass(g, n, nb);
    *changed = true;
  }
  if (*changed) FixupSourceAndSinkEdges(g);
  return absl::OkStatus();
}

}  // namespace sluice
