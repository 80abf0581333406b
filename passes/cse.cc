// Common subexpression elimination, as global value numbering over a topological order:
//
//   available: map from node hash to the nodes seen with that hash
//   for each op node n in reverse post order (producers before consumers):
//     if n may not be merged: continue
//     h = Hash(op, devices, attrs, data inputs, control inputs)
//     if some c in available[h] is Equivalent to n:
//       survivor = the protected one of {c, n}, else the one with the lower id
//       move the other's data and control consumers to survivor; remove the other
//     else: add n to available[h]
//
// Inputs are compared as (producer id, output index). Because consumers are visited after
// their producers, a consumer of a merged node already reads the survivor when it is hashed,
// so merges cascade in one pass. The one exception is a survivor visited after the node it
// absorbed: consumers of the absorbed node may have been hashed already, so another pass runs.
// Every merge removes a node, so the passes end.
#include "passes/cse.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "graph/algorithm.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/attr_value_util.h"

namespace sluice {
namespace {

// A node's inputs in the form equivalence is decided on.
struct Inputs {
  std::vector<std::pair<int, int>> data;  // (producer id, output), by input index.
  std::vector<int> control;               // producer ids, sorted; _SOURCE left out.

  bool operator==(const Inputs& other) const {
    return data == other.data && control == other.control;
  }
};

// False when some data input has no edge: such a node cannot be compared.
bool GetInputs(const Node* n, Inputs* in) {
  in->data.assign(n->num_inputs(), {-1, -1});
  in->control.clear();
  for (const Edge* e : n->in_edges()) {
    if (e->IsControlEdge()) {
      if (!e->src()->IsSource()) in->control.push_back(e->src()->id());
    } else {
      in->data[e->dst_input()] = {e->src()->id(), e->src_output()};
    }
  }
  for (const auto& d : in->data) {
    if (d.first < 0) return false;
  }
  std::sort(in->control.begin(), in->control.end());
  // Commutative ops compute the same value for any order of their inputs.
  if (n->op_def().is_commutative()) std::sort(in->data.begin(), in->data.end());
  return true;
}

bool HasRefType(const DataTypeVector& types) {
  return std::any_of(types.begin(), types.end(), [](DataType t) { return IsRefType(t); });
}

// Nodes whose identity matters beyond the value they compute.
bool MayMerge(const Node* n) {
  if (!n->IsOp() || n->IsStateful()) return false;
  if (n->IsPlaceholder() || n->type_string() == "PlaceholderV2" ||
      n->type_string() == "PlaceholderWithDefault") {
    return false;
  }
  if (n->IsSend() || n->IsRecv() || n->IsArg() || n->IsRetval()) return false;
  return !HasRefType(n->input_types()) && !HasRefType(n->output_types());
}

// Whether no other node can equal `n` because none reads what it reads: the producer of its
// first data input feeds nothing else. A long chain (one reader per tensor, the common case)
// then costs no hashing and no table entries.
bool ReadsAnUnsharedInput(const Node* n) {
  if (n->num_inputs() == 0) return false;
  for (const Edge* e : n->in_edges()) {
    if (!e->IsControlEdge() && e->dst_input() == 0) return e->src()->out_edges().size() == 1;
  }
  return false;
}

uint64_t AttrsHash(const Node* n) {
  // Attrs are a map, so their hashes are combined in an order-independent way.
  uint64_t attrs = 0;
  for (const auto& attr : n->attrs()) {
    attrs += absl::HashOf(attr.first, AttrValueHash(attr.second));
  }
  return attrs;
}

// `cache`, if set, holds AttrsHash by node id (0: not computed yet).
uint64_t NodeHash(const Node* n, const Inputs& in, std::vector<uint64_t>* cache) {
  uint64_t attrs = 0;
  if (cache == nullptr) {
    attrs = AttrsHash(n);
  } else {
    if (cache->size() <= static_cast<size_t>(n->id())) cache->resize(n->graph()->num_node_ids());
    uint64_t& cached = (*cache)[n->id()];
    if (cached == 0) cached = AttrsHash(n);
    attrs = cached;
  }
  return absl::HashOf(n->type_string(), n->requested_device(), n->assigned_device_name(), attrs,
                      in.data, in.control);
}

bool SameAttrs(const Node* a, const Node* b) {
  if (a->attrs().size() != b->attrs().size()) return false;
  for (const auto& attr : a->attrs()) {
    const AttrValue* other = b->attrs().Find(attr.first);
    if (other == nullptr || !AreAttrValuesEqual(attr.second, *other)) return false;
  }
  return true;
}

bool Equivalent(const Node* a, const Inputs& a_in, const Node* b, const Inputs& b_in) {
  return a->type_string() == b->type_string() && a->requested_device() == b->requested_device() &&
         a->assigned_device_name() == b->assigned_device_name() && a_in == b_in && SameAttrs(a, b);
}

// Moves every consumer of `from` onto `to`, then removes `from`.
void Replace(Graph* g, Node* from, Node* to) {
  std::vector<const Edge*> out(from->out_edges().begin(), from->out_edges().end());
  for (const Edge* e : out) {
    Node* dst = e->dst();
    if (dst->IsSink()) continue;
    const int src_output = e->src_output();
    const int dst_input = e->dst_input();
    g->RemoveEdge(e);
    if (dst_input == Graph::kControlSlot) {
      g->AddControlEdge(to, dst);
    } else {
      g->AddEdge(to, src_output, dst, dst_input);
    }
  }
  g->RemoveNode(from);
}

struct Candidate {
  Node* node;
  Inputs inputs;
};

class CsePass {
 public:
  CsePass(Graph* g, const CseOptions& opts, const std::function<bool(const Node*)>& consider)
      : g_(g), opts_(opts), consider_(consider) {}

  // One pass over the graph. Returns whether it merged anything; *again is set when a
  // merge happened in an order that may have hidden further merges. With `skip_unshared`,
  // nodes whose first input has no other reader are not hashed; a merge then asks for
  // another pass without skipping, since it gives the survivor's readers company.
  bool Run(bool skip_unshared, bool* again);

 private:
  bool IsProtected(const Node* n) const { return opts_.protected_names.contains(n->name()); }
  // Merges n into an equivalent node from `bucket` if there is one; returns whether it did.
  bool TryMerge(Node* n, const Inputs& in, std::vector<Candidate>* bucket, bool* again);

  Graph* g_;
  const CseOptions& opts_;
  const std::function<bool(const Node*)>& consider_;
};

bool CsePass::TryMerge(Node* n, const Inputs& in, std::vector<Candidate>* bucket, bool* again) {
  for (Candidate& c : *bucket) {
    if (!Equivalent(c.node, c.inputs, n, in)) continue;
    const bool c_protected = IsProtected(c.node);
    const bool n_protected = IsProtected(n);
    if (c_protected && n_protected) continue;
    const bool keep_n = n_protected || (!c_protected && n->id() < c.node->id());
    if (keep_n) {
      Replace(g_, c.node, n);
      c.node = n;
      *again = true;
    } else {
      Replace(g_, n, c.node);
    }
    return true;
  }
  return false;
}

bool CsePass::Run(bool skip_unshared, bool* again) {
  std::vector<Node*> order;
  // Among siblings, higher ids are searched first and so land later in the order: the node
  // seen first, which survives a merge without another pass, is then usually the lower id.
  GetReversePostOrder(*g_, &order, [](const Node* a, const Node* b) { return a->id() > b->id(); });
  absl::flat_hash_map<uint64_t, std::vector<Candidate>> available;
  available.reserve(order.size());
  bool changed = false;
  Inputs in;
  bool skipped = false;
  for (Node* n : order) {
    if (!MayMerge(n)) continue;
    if (skip_unshared && ReadsAnUnsharedInput(n)) {
      skipped = true;
      continue;
    }
    if ((consider_ && !consider_(n)) || !GetInputs(n, &in)) continue;
    std::vector<Candidate>& bucket = available[NodeHash(n, in, opts_.attr_hash_cache)];
    if (TryMerge(n, in, &bucket, again)) {
      changed = true;
    } else {
      // GetInputs refills `in` from scratch, so its buffers can move into the bucket.
      bucket.push_back({n, std::move(in)});
    }
  }
  // A node skipped before a merge may now share its input with a node it equals.
  if (changed && skipped) *again = true;
  return changed;
}

}  // namespace

absl::Status OptimizeCSE(const CseOptions& opts, Graph* g, bool* changed) {
  *changed = false;
  CsePass pass(g, opts, opts.consider_fn);
  bool again = true;
  // The first pass skips nodes that cannot have a twin; any later pass (after merges) looks
  // at every node, as merges give nodes new readers.
  bool first = true;
  while (again) {
    again = false;
    if (pass.Run(/*skip_unshared=*/first, &again)) *changed = true;
    first = false;
  }
  if (*changed) FixupSourceAndSinkEdges(g);
  return absl::OkStatus();
}

}  // namespace sluice
