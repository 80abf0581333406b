// FuseElementwise: grow a group from each root (consumers first), check the group's shapes,
// build the `_FusedElementwise` NodeDef, ask for a kernel, then splice it in.
#include "passes/elementwise_fusion.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape_refiner.h"
#include "passes/fused_node_splice.h"
#include "passes/fusion_roots.h"
#include "passes/symbolic_shapes.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// An op the fused kernel evaluates, as a node: the arity of its op, one output, and every
// input of its output's dtype.
bool Fusable(const Node* n) {
  if (!n->IsOp() || n->num_outputs() != 1) return false;
  const int arity = FusedElementwiseArity(n->type_string());
  if (arity == 0 || n->num_inputs() != arity) return false;
  for (int i = 0; i < arity; ++i) {
    if (n->input_type(i) != n->output_type(0)) return false;
  }
  return true;
}

// Whether `in` reaches `out` (both of known rank) by one of the broadcasts the kernel takes:
// one element, or right-aligned dims that are ones then equal (trailing dims) or equal then
// ones (leading dims). A dim of 1 in both counts as either.
bool BroadcastsInKernelForm(ShapeHandle in, ShapeHandle out) {
  if (!InferenceContext::RankKnown(in)) return false;
  const int rank = InferenceContext::Rank(out);
  const int in_rank = InferenceContext::Rank(in);
  if (in_rank > rank) return false;
  // Per output dim: whether the input's dim there is a known 1 and whether it equals out's.
  std::vector<bool> one(rank, true), equal(rank, false);
  for (int i = 0; i < rank; ++i) {
    const DimensionHandle o = InferenceContext::DimKnownRank(out, i);
    const int j = i - (rank - in_rank);
    if (j < 0) {
      equal[i] = InferenceContext::ValueKnown(o) && InferenceContext::Value(o) == 1;
      continue;
    }
    const DimensionHandle d = InferenceContext::DimKnownRank(in, j);
    one[i] = InferenceContext::ValueKnown(d) && InferenceContext::Value(d) == 1;
    equal[i] = SymbolicallyEqual(d, o);
  }
  // Trailing: ones up to some k, equal from k on. Leading: equal up to k, ones from k on.
  int k = rank;
  while (k > 0 && equal[k - 1]) --k;
  if (std::all_of(one.begin(), one.begin() + k, [](bool b) { return b; })) return true;
  k = 0;
  while (k < rank && equal[k]) ++k;
  return std::all_of(one.begin() + k, one.end(), [](bool b) { return b; });
}

class ElementwiseFuser {
 public:
  ElementwiseFuser(const ElementwiseFusionOptions& opts, Graph* g) : opts_(opts), g_(g) {}

  absl::Status Run(bool* changed) {
    *changed = false;
    if (!opts_.kernel_exists || !AnyCandidatePair()) return absl::OkStatus();
    refiner_ = std::make_unique<ShapeRefiner>(g_->op_registry());
    InferShapesBestEffort(*g_, refiner_.get());
    for (const int id : RootsConsumersFirst(*g_, &position_)) {
      Node* root = g_->FindNodeId(id);
      if (root == nullptr || !Fusable(root)) continue;
      std::vector<Node*> group = Grow(root);
      if (group.size() < 2) continue;
      bool fused = false;
      RETURN_IF_ERROR(FuseGroup(root, std::move(group), &fused));
      *changed |= fused;
    }
    return absl::OkStatus();
  }

 private:
  // Whether some fusable node feeds another on a device and of a dtype that the fused op
  // has a kernel for, so that shape inference (the pass's main cost) is worth running.
  bool AnyCandidatePair() {
    for (const Node* n : g_->op_nodes()) {
      if (!Fusable(n) || !KernelFor(n)) continue;
      for (const Edge* e : n->in_edges()) {
        if (!e->IsControlEdge() && Fusable(e->src())) return true;
      }
    }
    return false;
  }

  // Whether `_FusedElementwise` of n's dtype has a kernel on n's device (asked once per pair).
  bool KernelFor(const Node* n) {
    const std::pair<std::string, DataType> key(n->assigned_device_name(), n->output_type(0));
    const auto it = kernel_for_.find(key);
    if (it != kernel_for_.end()) return it->second;
    NodeDef probe;
    probe.set_name(n->name());
    probe.set_op(kFusedElementwiseOp);
    AddNodeAttr("T", key.second, &probe);
    AddNodeAttr("N", int64_t{1}, &probe);
    AddNodeAttr("ops", std::vector<std::string>{"Neg"}, &probe);
    AddNodeAttr("operands", std::vector<int64_t>{0}, &probe);
    const bool exists = opts_.kernel_exists(probe, key.first);
    kernel_for_.emplace(key, exists);
    return exists;
  }

  ShapeHandle OutputShape(const Node* n, int output) const {
    const InferenceContext* c = refiner_->GetContext(n);
    return c == nullptr ? ShapeHandle() : c->output(output);
  }

  // The root and the producers that may join it, producers before consumers.
  std::vector<Node*> Grow(Node* root) const {
    std::vector<Node*> group = {root};
    absl::flat_hash_set<const Node*> in_group = {root};
    const ShapeHandle root_shape = OutputShape(root, 0);
    if (!InferenceContext::RankKnown(root_shape)) return {};
    // A unary op's input must have the root's shape (see the header).
    const auto unary_input_ok = [&](const Node* n) {
      if (FusedElementwiseArity(n->type_string()) != 1) return true;
      for (const Edge* e : n->in_edges()) {
        if (!e->IsControlEdge()) {
          return SymbolicallyEqual(OutputShape(e->src(), e->src_output()), root_shape);
        }
      }
      return false;
    };
    if (!unary_input_ok(root)) return {};
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t m = 0; m < group.size(); ++m) {
        for (const Edge* e : group[m]->in_edges()) {
          Node* p = e->src();
          if (e->IsControlEdge() || in_group.contains(p) || !CanJoin(p, root, in_group) ||
              !unary_input_ok(p) || group.size() >= kMaxFusedElementwiseOps) {
            continue;
          }
          group.push_back(p);
          in_group.insert(p);
          grew = true;
        }
      }
    }
    std::sort(group.begin(), group.end(), [this](const Node* a, const Node* b) {
      return position_.at(a->id()) > position_.at(b->id());
    });
    return group;
  }

  bool CanJoin(const Node* p, const Node* root,
               const absl::flat_hash_set<const Node*>& in_group) const {
    if (!Fusable(p) || opts_.protected_names.contains(p->name()) ||
        p->assigned_device_name() != root->assigned_device_name() ||
        p->output_type(0) != root->output_type(0) || !position_.contains(p->id())) {
      return false;
    }
    for (const Edge* e : p->out_edges()) {
      if (e->IsControlEdge() || !in_group.contains(e->dst())) return false;
    }
    return true;
  }

  absl::Status FuseGroup(Node* root, std::vector<Node*> group, bool* fused) {
    const ShapeHandle out_shape = OutputShape(root, 0);
    // The group's inputs, each (producer, output) once, in order of first use.
    std::vector<std::pair<Node*, int>> inputs;
    absl::flat_hash_map<const Node*, int> step_of;
    for (int k = 0; k < static_cast<int>(group.size()); ++k) step_of[group[k]] = k;
    int full_input = -1;
    for (Node* n : group) {
      for (const Edge* e : n->in_edges()) {
        if (e->IsControlEdge() || step_of.contains(e->src())) continue;
        const std::pair<Node*, int> source(e->src(), e->src_output());
        if (std::find(inputs.begin(), inputs.end(), source) != inputs.end()) continue;
        const ShapeHandle shape = OutputShape(source.first, source.second);
        if (SymbolicallyEqual(shape, out_shape)) {
          if (full_input < 0) full_input = static_cast<int>(inputs.size());
        } else if (!BroadcastsInKernelForm(shape, out_shape)) {
          return absl::OkStatus();
        }
        inputs.push_back(source);
      }
    }
    if (full_input < 0) return absl::OkStatus();
    std::rotate(inputs.begin(), inputs.begin() + full_input, inputs.begin() + full_input + 1);

    const int num_inputs = static_cast<int>(inputs.size());
    std::vector<std::string> ops;
    std::vector<int64_t> operands;
    for (Node* n : group) {
      ops.push_back(n->type_string());
      std::vector<const Edge*> data_inputs;
      RETURN_IF_ERROR(n->input_edges(&data_inputs));
      for (const Edge* e : data_inputs) {
        const auto step = step_of.find(e->src());
        if (step != step_of.end()) {
          operands.push_back(num_inputs + step->second);
        } else {
          const auto it = std::find(inputs.begin(), inputs.end(),
                                    std::pair<Node*, int>(e->src(), e->src_output()));
          operands.push_back(it - inputs.begin());
        }
      }
    }
    NodeDef def;
    def.set_name(root->name());
    def.set_op(kFusedElementwiseOp);
    def.set_device(root->requested_device());
    AddNodeAttr("T", root->output_type(0), &def);
    AddNodeAttr("N", static_cast<int64_t>(num_inputs), &def);
    AddNodeAttr("ops", ops, &def);
    AddNodeAttr("operands", operands, &def);
    if (!opts_.kernel_exists(def, root->assigned_device_name())) return absl::OkStatus();
    RETURN_IF_ERROR(SpliceFusedNode(g_, group, root, std::move(def), inputs).status());
    *fused = true;
    return absl::OkStatus();
  }

  const ElementwiseFusionOptions& opts_;
  Graph* g_;
  std::unique_ptr<ShapeRefiner> refiner_;
  absl::flat_hash_map<int, int> position_;  // node id -> index in post order
  absl::flat_hash_map<std::pair<std::string, DataType>, bool> kernel_for_;
};

}  // namespace

absl::Status FuseElementwise(const ElementwiseFusionOptions& opts, Graph* g, bool* changed) {
  return ElementwiseFuser(opts, g).Run(changed);
}

}  // namespace sluice
