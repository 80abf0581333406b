// FormMlirClusters: grow a group from each root (consumers first), classify the shapes of the
// group's values against the reductions' input shape, build the `_MlirCluster` NodeDef, ask
// for a kernel, then splice it in and drop the reductions' axis constants.
#include "passes/mlir_clustering.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "graph/ops/mlir_cluster_spec.h"
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

// The shortest rows a cluster of elementwise ops alone is compiled for: two vectors of 8.
constexpr int64_t kMinInlineColumns = 16;

bool IsKnownOne(DimensionHandle d) {
  return InferenceContext::ValueKnown(d) && InferenceContext::Value(d) == 1;
}

// The kind of a value of shape `s` in a group whose full shape is `full` (of known rank >= 1),
// trying the kinds in the header's order; nullopt when it is none of them.
std::optional<ValueKind> Classify(ShapeHandle s, ShapeHandle full) {
  if (!InferenceContext::RankKnown(s)) return std::nullopt;
  if (SymbolicallyEqual(s, full)) return ValueKind::kFull;
  const int r = InferenceContext::Rank(full);
  const int rank = InferenceContext::Rank(s);
  if (rank == r && IsKnownOne(InferenceContext::DimKnownRank(s, r - 1))) {
    bool row = true;
    for (int i = 0; row && i + 1 < r; ++i) {
      row = SymbolicallyEqual(InferenceContext::DimKnownRank(s, i),
                              InferenceContext::DimKnownRank(full, i));
    }
    if (row) return ValueKind::kRow;
  }
  // A column value and a scalar both have known ones in every dim but the last.
  bool leading_ones = true;
  for (int i = 0; leading_ones && i + 1 < rank; ++i) {
    leading_ones = IsKnownOne(InferenceContext::DimKnownRank(s, i));
  }
  if (!leading_ones) {
    // A batch column: F's first dim, known ones, then C.
    if (rank != r || r < 3) return std::nullopt;
    for (int i = 1; i + 1 < r; ++i) {
      if (!IsKnownOne(InferenceContext::DimKnownRank(s, i))) return std::nullopt;
    }
    if (SymbolicallyEqual(InferenceContext::DimKnownRank(s, 0),
                          InferenceContext::DimKnownRank(full, 0)) &&
        SymbolicallyEqual(InferenceContext::DimKnownRank(s, r - 1),
                          InferenceContext::DimKnownRank(full, r - 1))) {
      return ValueKind::kBatchColumn;
    }
    return std::nullopt;
  }
  if (rank >= 1 && rank <= r &&
      SymbolicallyEqual(InferenceContext::DimKnownRank(s, rank - 1),
                        InferenceContext::DimKnownRank(full, r - 1))) {
    return ValueKind::kColumn;
  }
  if (rank == 0 || IsKnownOne(InferenceContext::DimKnownRank(s, rank - 1)))
    return ValueKind::kScalar;
  return std::nullopt;
}

// The op n is in a cluster's program: a BiasAdd (the NHWC form: the bias runs along the last
// axis, a column value) is the AddV2 of the same operands, which adds the same floats.
absl::string_view ProgramOp(const Node* n) {
  const std::string& op = n->type_string();
  if (op == "BiasAddV1") return "AddV2";
  if (op == "BiasAdd" && GetNodeAttrOr<std::string>(n->attrs(), "data_format", "NHWC") == "NHWC") {
    return "AddV2";
  }
  return op;
}

// The ops, dtypes and attrs of a candidate, which need no shapes: an elementwise op the
// cluster takes with as many inputs as it has operands, all float, or a float reduction that
// keeps its dims. A reduction's axes are checked against shapes later (LastAxisConst).
bool CandidateOp(const Node* n) {
  if (!n->IsOp() || n->num_outputs() != 1 || n->output_type(0) != DT_FLOAT) return false;
  if (IsClusterReduction(n->type_string())) {
    return n->num_inputs() == 2 && n->input_type(0) == DT_FLOAT &&
           GetNodeAttrOr(n->attrs(), "T", DT_INVALID) == DT_FLOAT &&
           GetNodeAttrOr(n->attrs(), "keep_dims", false);
  }
  const int arity = ClusterOpArity(ProgramOp(n));
  if (arity == 0 || n->num_inputs() != arity) return false;
  for (int i = 0; i < arity; ++i) {
    if (n->input_type(i) != DT_FLOAT) return false;
  }
  return true;
}

// Whether `e` feeds an operand of the program (all of an elementwise op's inputs, a
// reduction's input 0), as opposed to a reduction's axes or a control edge.
bool IsOperandEdge(const Edge* e) {
  return !e->IsControlEdge() && e->dst_input() < ClusterOpArity(ProgramOp(e->dst()));
}

class MlirClusterer {
 public:
  MlirClusterer(const MlirClusteringOptions& opts, Graph* g) : opts_(opts), g_(g) {}

  absl::Status Run(bool* changed) {
    *changed = false;
    if (!opts_.kernel_exists || !AnyCandidatePair()) return absl::OkStatus();
    refiner_ = std::make_unique<ShapeRefiner>(g_->op_registry());
    InferShapesBestEffort(*g_, refiner_.get());
    for (const int id : RootsConsumersFirst(*g_, &position_)) {
      // A node spliced into a cluster is gone; the check does not lean on FindNodeId
      // returning null for it.
      if (consumed_.contains(id)) continue;
      Node* root = g_->FindNodeId(id);
      if (root == nullptr || !Candidate(root)) continue;
      std::vector<Node*> group = Grow(root);
      if (group.size() < 2) continue;
      bool clustered = false;
      RETURN_IF_ERROR(ClusterGroup(root, std::move(group), &clustered));
      *changed |= clustered;
    }
    return absl::OkStatus();
  }

 private:
  // Whether a reduction that may join a cluster feeds or reads another candidate on a device
  // where the cluster has a kernel, so that shape inference (the pass's main cost) is worth
  // running.
  bool AnyCandidatePair() {
    for (const Node* n : g_->op_nodes()) {
      if (!CandidateOp(n)) continue;
      for (const Edge* e : n->in_edges()) {
        if (!IsOperandEdge(e) || !CandidateOp(e->src())) continue;
        const bool with_reduction =
            IsClusterReduction(n->type_string()) || IsClusterReduction(e->src()->type_string());
        const bool inline_pair = IsClusterOpComputedInline(ProgramOp(n)) &&
                                 IsClusterOpComputedInline(ProgramOp(e->src()));
        if ((with_reduction || inline_pair) && KernelFor(n)) return true;
      }
    }
    return false;
  }

  // Whether `_MlirCluster` of float has a kernel on n's device (asked once per device).
  bool KernelFor(const Node* n) {
    const std::string& device = n->assigned_device_name();
    const auto it = kernel_for_.find(device);
    if (it != kernel_for_.end()) return it->second;
    NodeDef probe;
    probe.set_name(n->name());
    probe.set_op(kMlirClusterOp);
    AddNodeAttr("T", DT_FLOAT, &probe);
    AddNodeAttr("N", int64_t{1}, &probe);
    AddNodeAttr("ops", std::vector<std::string>{"Sum"}, &probe);
    AddNodeAttr("operands", std::vector<int64_t>{0}, &probe);
    const bool exists = opts_.kernel_exists(probe, device);
    kernel_for_.emplace(device, exists);
    return exists;
  }

  // The inferred shape of n's output; unknown for a node this pass added, which shape
  // inference never saw (the refiner's states are keyed by address, which a new node may
  // share with a removed one).
  ShapeHandle OutputShape(const Node* n, int output) const {
    if (!position_.contains(n->id())) return ShapeHandle();
    const InferenceContext* c = refiner_->GetContext(n);
    return c == nullptr ? ShapeHandle() : c->output(output);
  }

  ShapeHandle InputShape(const Node* n, int input) const {
    const Edge* e = nullptr;
    if (!n->input_edge(input, &e).ok()) return ShapeHandle();
    return OutputShape(e->src(), e->src_output());
  }

  // The Const giving reduction n its axes when it holds one int32 or int64 element (a scalar
  // or a [1]) naming the last axis of n's input, whose rank must be known and at least 1;
  // otherwise null. The cluster's program has no axes: its reductions always reduce the last.
  Node* LastAxisConst(const Node* n) const {
    const Edge* e = nullptr;
    if (!n->input_edge(1, &e).ok()) return nullptr;
    Node* axes = e->src();
    if (axes->type_string() != "Const" ||
        (axes->output_type(0) != DT_INT32 && axes->output_type(0) != DT_INT64)) {
      return nullptr;
    }
    const TensorProto* proto = nullptr;
    Tensor value;
    int64_t axis = 0;
    if (!TryGetNodeAttr(axes->attrs(), "value", &proto) || !TensorFromProto(*proto, &value).ok() ||
        value.dims() > 1 || !IntegerTensorScalar(value, &axis).ok()) {
      return nullptr;
    }
    const ShapeHandle in = InputShape(n, 0);
    if (!InferenceContext::RankKnown(in) || InferenceContext::Rank(in) < 1) return nullptr;
    return axis == -1 || axis == InferenceContext::Rank(in) - 1 ? axes : nullptr;
  }

  bool Candidate(const Node* n) const {
    return CandidateOp(n) && (!IsClusterReduction(n->type_string()) || LastAxisConst(n));
  }

  // The root and the producers that may join it, producers before consumers.
  std::vector<Node*> Grow(Node* root) const {
    std::vector<Node*> group = {root};
    absl::flat_hash_set<const Node*> in_group = {root};
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t m = 0; m < group.size(); ++m) {
        for (const Edge* e : group[m]->in_edges()) {
          Node* p = e->src();
          if (!IsOperandEdge(e) || in_group.contains(p) || !CanJoin(p, root, in_group)) continue;
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
    if (!position_.contains(p->id()) || !Candidate(p) ||
        opts_.protected_names.contains(p->name()) ||
        p->assigned_device_name() != root->assigned_device_name()) {
      return false;
    }
    for (const Edge* e : p->out_edges()) {
      if (e->IsControlEdge() || !in_group.contains(e->dst())) return false;
    }
    return true;
  }

  // The full shape F the group's reductions read (all the same, of known rank >= 1), or an
  // unknown shape when the group has no reduction or they disagree.
  ShapeHandle FullShape(absl::Span<Node* const> group) const {
    ShapeHandle full;
    bool first = true;
    for (const Node* n : group) {
      if (!IsClusterReduction(n->type_string())) continue;
      const ShapeHandle in = InputShape(n, 0);
      if (!InferenceContext::RankKnown(in) || InferenceContext::Rank(in) < 1) return {};
      if (first) {
        full = in;
        first = false;
      } else if (!SymbolicallyEqual(in, full)) {
        return {};
      }
    }
    return full;
  }

  // A group of elementwise ops alone is compiled when the code computes all its ops itself
  // (no callbacks) and its output's last dim is known and holds at least two vectors (shorter
  // rows would run mostly in the one-element tail loop): then F is the output's shape.
  ShapeHandle InlineFullShape(const Node* root, absl::Span<Node* const> group) const {
    for (const Node* n : group) {
      if (!IsClusterOpComputedInline(ProgramOp(n))) return {};
    }
    const ShapeHandle out = OutputShape(root, 0);
    if (!InferenceContext::RankKnown(out) || InferenceContext::Rank(out) < 1) return {};
    const DimensionHandle last =
        InferenceContext::DimKnownRank(out, InferenceContext::Rank(out) - 1);
    if (!InferenceContext::ValueKnown(last) || InferenceContext::Value(last) < kMinInlineColumns) {
      return {};
    }
    return out;
  }

  absl::Status ClusterGroup(Node* root, std::vector<Node*> group, bool* clustered) {
    const bool with_reduction = std::any_of(group.begin(), group.end(), [](const Node* n) {
      return IsClusterReduction(n->type_string());
    });
    const ShapeHandle full = with_reduction ? FullShape(group) : InlineFullShape(root, group);
    if (!InferenceContext::RankKnown(full)) return absl::OkStatus();

    // The group's inputs, each (producer, output) once, in order of first use, and every
    // member's operand edges in operand order.
    absl::flat_hash_map<const Node*, int> step_of;
    for (int k = 0; k < static_cast<int>(group.size()); ++k) step_of[group[k]] = k;
    std::vector<std::pair<Node*, int>> inputs;
    std::vector<std::vector<const Edge*>> operand_edges(group.size());
    for (int k = 0; k < static_cast<int>(group.size()); ++k) {
      const Node* n = group[k];
      std::vector<const Edge*> data_inputs;
      RETURN_IF_ERROR(n->input_edges(&data_inputs));
      data_inputs.resize(ClusterOpArity(ProgramOp(n)));
      for (const Edge* e : data_inputs) {
        operand_edges[k].push_back(e);
        if (step_of.contains(e->src())) continue;
        const std::pair<Node*, int> source(e->src(), e->src_output());
        if (std::find(inputs.begin(), inputs.end(), source) == inputs.end()) {
          inputs.push_back(source);
        }
      }
    }
    const int num_inputs = static_cast<int>(inputs.size());

    // Kinds indexed as operands are: inputs first, then the ops' results.
    std::vector<ValueKind> kinds;
    for (const auto& [node, output] : inputs) {
      const std::optional<ValueKind> kind = Classify(OutputShape(node, output), full);
      if (!kind) return absl::OkStatus();
      kinds.push_back(*kind);
    }
    std::vector<std::string> ops;
    std::vector<int64_t> operands;
    for (int k = 0; k < static_cast<int>(group.size()); ++k) {
      const Node* n = group[k];
      std::vector<ValueKind> operand_kinds;
      for (const Edge* e : operand_edges[k]) {
        const auto step = step_of.find(e->src());
        int operand;
        if (step != step_of.end()) {
          operand = num_inputs + step->second;
        } else {
          operand = static_cast<int>(std::find(inputs.begin(), inputs.end(),
                                               std::pair<Node*, int>(e->src(), e->src_output())) -
                                     inputs.begin());
        }
        operands.push_back(operand);
        operand_kinds.push_back(kinds[operand]);
      }
      ValueKind expected;
      if (IsClusterReduction(n->type_string())) {
        if (operand_kinds[0] != ValueKind::kFull) return absl::OkStatus();
        expected = ValueKind::kRow;
      } else if (operand_kinds.size() == 1) {
        expected = operand_kinds[0];
      } else {
        expected = CombineKinds(operand_kinds[0], operand_kinds[1]);
      }
      // The inferred shape must be the one the kinds predict: the kernel lays out each value
      // by its kind, so a value whose shape says otherwise would be read wrongly.
      const std::optional<ValueKind> kind = Classify(OutputShape(n, 0), full);
      if (!kind || *kind != expected) return absl::OkStatus();
      kinds.push_back(*kind);
      ops.push_back(std::string(ProgramOp(n)));
    }
    // The output is written as F or one value per row; a column or scalar result would
    // mean that the reductions' work fed nothing the cluster returns.
    if (kinds.back() != ValueKind::kFull && kinds.back() != ValueKind::kRow)
      return absl::OkStatus();

    NodeDef def;
    def.set_name(root->name());
    def.set_op(kMlirClusterOp);
    def.set_device(root->requested_device());
    AddNodeAttr("T", DT_FLOAT, &def);
    AddNodeAttr("N", static_cast<int64_t>(num_inputs), &def);
    AddNodeAttr("ops", ops, &def);
    AddNodeAttr("operands", operands, &def);
    // What the pass found, for tools (sluice optimize --emit-mlir); the kernel finds the
    // kinds again from the shapes it is given.
    std::vector<std::string> input_kinds;
    for (int i = 0; i < num_inputs; ++i) input_kinds.push_back(ValueKindName(kinds[i]));
    AddNodeAttr(kMlirClusterInputKindsAttr, input_kinds, &def);
    if (!opts_.kernel_exists(def, root->assigned_device_name())) return absl::OkStatus();

    // The axes constants, read before their consumers go.
    std::vector<Node*> axes;
    for (const Node* n : group) {
      if (!IsClusterReduction(n->type_string())) continue;
      Node* c = LastAxisConst(n);
      if (c != nullptr && std::find(axes.begin(), axes.end(), c) == axes.end()) {
        axes.push_back(c);
      }
    }
    for (const Node* n : group) consumed_.insert(n->id());
    RETURN_IF_ERROR(SpliceFusedNode(g_, group, root, std::move(def), inputs).status());
    // A constant still read elsewhere (another reduction, a fetch) stays.
    for (Node* c : axes) {
      if (c->out_edges().empty() && !opts_.protected_names.contains(c->name())) {
        consumed_.insert(c->id());
        g_->RemoveNode(c);
      }
    }
    *clustered = true;
    return absl::OkStatus();
  }

  const MlirClusteringOptions& opts_;
  Graph* g_;
  std::unique_ptr<ShapeRefiner> refiner_;
  absl::flat_hash_map<int, int> position_;             // node id -> index in post order
  absl::flat_hash_set<int> consumed_;                  // ids of nodes this pass removed
  absl::flat_hash_map<std::string, bool> kernel_for_;  // device -> whether float has a kernel
};

}  // namespace

absl::Status FormMlirClusters(const MlirClusteringOptions& opts, Graph* g, bool* changed) {
  return MlirClusterer(opts, g).Run(changed);
}

}  // namespace sluice
