// Constant folding. The algorithm:
//   1. Infer shapes over the whole graph (best effort) with a ShapeRefiner, on the first
//      question that needs a shape (a graph with nothing shape-foldable or evaluable skips it).
//      Given a refiner that already holds the graph's shapes (opts.shapes), only the nodes
//      that changed since, and what depends on them, are inferred again.
//   2. Walk the nodes in topological order and mark the foldable ones: Consts; Shape, ShapeN,
//      Size and Rank whose value the inferred input shapes give; other side-effect-free,
//      evaluable nodes whose data inputs are all foldable. Each foldable node accumulates the
//      non-foldable nodes it depends on through control edges (and, for shape-folded nodes,
//      through the data input they stop reading).
//   3. Targets: every output of a foldable non-Const node that a non-foldable node reads, and
//      each protected single-output foldable node as a whole.
//   4. Copy the foldable ancestors of the targets into a scratch graph, shape-folded nodes
//      as Consts of their known values, and evaluate it once.
//   5. Splice the values back as Consts carrying the accumulated control dependencies, then
//      remove the foldable nodes that lost all their consumers.
// Nothing changes before step 5, so an evaluation error leaves the graph as it was.
#include "passes/constant_folding.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graph/algorithm.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"
#include "graph/shape_refiner.h"
#include "proto/node_def.pb.h"

namespace sluice {
namespace {

bool IsShapeOp(const Node& n) {
  const std::string& op = n.type_string();
  return op == "Shape" || op == "ShapeN" || op == "Size" || op == "Rank";
}

// Ops whose value may differ between steps or that touch session state. Their registrations
// mark most of them stateful already; naming them here keeps folding correct even for a
// registration that forgets the flag.
bool IsNeverFoldedOp(const Node& n) {
  static const auto* const kOps = new absl::flat_hash_set<std::string>{
      "PlaceholderWithDefault", "RandomUniform",      "RandomUniformInt",
      "RandomStandardNormal",   "TruncatedNormal",    "ParameterizedTruncatedNormal",
      "RandomShuffle",          "RandomCrop",         "RandomGamma",
      "RandomPoisson",          "RandomPoissonV2",    "Multinomial",
      "GetSessionHandle",       "GetSessionHandleV2", "GetSessionTensor",
      "DeleteSessionTensor",    "FakeParam",
  };
  return kOps->contains(n.type_string());
}

// A Const cannot hold a reference, a resource handle or a variant.
bool CanBeConstType(DataType dtype) {
  return !IsRefType(dtype) && dtype != DT_RESOURCE && dtype != DT_VARIANT;
}

// An int32 or int64 tensor of `shape` holding `values`; false if a value does not fit.
bool MakeIntTensor(DataType dtype, const TensorShape& shape, absl::Span<const int64_t> values,
                   Tensor* out) {
  Tensor t(dtype, shape);
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DT_INT64) {
      t.flat<int64_t>()(i) = values[i];
    } else if (dtype == DT_INT32 && values[i] <= std::numeric_limits<int32_t>::max()) {
      t.flat<int32_t>()(i) = static_cast<int32_t>(values[i]);
    } else {
      return false;
    }
  }
  *out = std::move(t);
  return true;
}

// A value to splice back: output `port` of `node`, or the whole node when `in_place`.
struct Target {
  Node* node;
  int port;
  bool in_place;
};

class ConstantFolder {
 public:
  ConstantFolder(const ConstantFoldingOptions& opts, ConstantSubgraphEvaluator* evaluator,
                 Graph* graph)
      : opts_(opts),
        evaluator_(evaluator),
        graph_(graph),
        refiner_(opts.shapes),
        foldable_(graph->num_node_ids(), false) {}

  absl::Status Run(bool* was_mutated);

 private:
  // Infers shapes over the whole graph on the first call; later calls do nothing. Folding
  // asks only for Shape/ShapeN/Size/Rank inputs and for nodes that could otherwise fold, so
  // a graph without either never pays for inference.
  void EnsureShapes();
  void FindFoldable();
  // These three infer shapes on first use (EnsureShapes), hence not const.
  bool ShapeOpValues(const Node& n, std::vector<Tensor>* values);
  bool IsFoldableOp(const Node& n);
  bool KnownTooLarge(const Node& n);
  bool DataInputsFoldable(const Node& n) const;
  std::vector<Target> CollectTargets() const;
  absl::Status EvaluateTargets(const std::vector<Target>& targets, std::vector<Tensor>* values);
  bool Fits(const Tensor& value) const;
  absl::Status ReplaceOutput(const Target& target, const Tensor& value);
  absl::Status ReplaceInPlace(Node* node, const Tensor& value);
  void AddControlDeps(const std::set<int>& deps, Node* dst);
  bool RemoveDeadNodes(const std::vector<bool>& had_consumers);

  const ConstantFoldingOptions& opts_;
  ConstantSubgraphEvaluator* const evaluator_;
  Graph* const graph_;
  // opts.shapes, or a private refiner made on first use (EnsureShapes).
  ShapeRefiner* refiner_;
  std::unique_ptr<ShapeRefiner> own_refiner_;
  // Op nodes in topological order, and their ids (which outlive nodes replaced in place).
  std::vector<Node*> order_;
  std::vector<int> order_ids_;
  // By node id (ids of nodes added later are out of range: never foldable).
  std::vector<bool> foldable_;
  // The values of shape-folded nodes, and the ids of the non-foldable control sources of
  // foldable nodes, by node id. Maps, not per-node vectors: few nodes have either, and a
  // graph of a million nodes would otherwise touch 70 MB to fold nothing.
  absl::flat_hash_map<int, std::vector<Tensor>> shape_values_;
  absl::flat_hash_map<int, std::set<int>> control_deps_;
  // shape_values_'s entry for `id`, empty if none.
  const std::vector<Tensor>& ShapeValuesOf(int id) const {
    static const auto* none = new std::vector<Tensor>();
    const auto it = shape_values_.find(id);
    return it == shape_values_.end() ? *none : it->second;
  }
  // control_deps_'s entry for `id`, empty if none.
  const std::set<int>& ControlDepsOf(int id) const {
    static const auto* none = new std::set<int>();
    const auto it = control_deps_.find(id);
    return it == control_deps_.end() ? *none : it->second;
  }
  int64_t next_const_id_ = 0;
  bool shapes_inferred_ = false;
};

// Shape inference is an aid, not a requirement: a node whose shape function fails just has
// unknown output shapes, and its consumers see those.
void ConstantFolder::EnsureShapes() {
  if (shapes_inferred_) return;
  shapes_inferred_ = true;
  // A loop's Merge is added before its NextIteration, which RefreshNode cannot reproduce.
  const bool reuse = refiner_ != nullptr && std::none_of(order_.begin(), order_.end(), [](Node* n) {
                       return n->IsNextIteration();
                     });
  if (!reuse) {
    own_refiner_ = std::make_unique<ShapeRefiner>(graph_->op_registry());
    refiner_ = own_refiner_.get();
  }
  refiner_->set_require_shape_inference_fns(false);
  for (Node* n : order_) {
    (reuse ? refiner_->RefreshNode(n) : refiner_->AddNode(n)).IgnoreError();
  }
}

bool ConstantFolder::ShapeOpValues(const Node& n, std::vector<Tensor>* values) {
  EnsureShapes();
  std::vector<const Edge*> inputs;
  if (!n.input_edges(&inputs).ok()) return false;
  std::vector<PartialTensorShape> shapes(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!refiner_->GetOutputShape(inputs[i]->src(), inputs[i]->src_output(), &shapes[i]).ok()) {
      return false;
    }
  }
  std::vector<Tensor> result(shapes.size());
  if (n.type_string() == "Rank") {
    if (shapes[0].unknown_rank()) return false;
    result[0] = Tensor(static_cast<int32_t>(shapes[0].dims()));
  } else {
    for (size_t i = 0; i < shapes.size(); ++i) {
      if (!shapes[i].IsFullyDefined()) return false;
      const bool ok = n.type_string() == "Size"
                          ? MakeIntTensor(n.output_type(i), TensorShape({}),
                                          {shapes[i].num_elements()}, &result[i])
                          : MakeIntTensor(n.output_type(i), TensorShape({shapes[i].dims()}),
                                          shapes[i].dim_sizes(), &result[i]);
      // A dim past int32 with out_type int32 is an error the kernel reports at run time.
      if (!ok) return false;
    }
  }
  *values = std::move(result);
  return true;
}

bool ConstantFolder::KnownTooLarge(const Node& n) {
  EnsureShapes();
  for (int i = 0; i < n.num_outputs(); ++i) {
    PartialTensorShape shape;
    const int64_t element_size = DataTypeSize(n.output_type(i));
    if (element_size > 0 && refiner_->GetOutputShape(&n, i, &shape).ok() &&
        shape.IsFullyDefined() &&
        shape.num_elements() > opts_.max_constant_size_in_bytes / element_size) {
      return true;
    }
  }
  return false;
}

bool ConstantFolder::IsFoldableOp(const Node& n) {
  if (n.IsStateful() || IsNeverFoldedOp(n)) return false;
  if (n.IsPlaceholder() || n.IsArg() || n.IsRetval() || n.IsSend() || n.IsRecv() ||
      n.IsControlFlow() || n.IsLoopCond() || n.IsControlTrigger()) {
    return false;
  }
  for (DataType t : n.output_types()) {
    if (!CanBeConstType(t)) return false;
  }
  if (opts_.consider_fn && !opts_.consider_fn(&n)) return false;
  // Shapes last: asking for one infers shapes for the whole graph.
  return evaluator_->CanEvaluate(n) && !KnownTooLarge(n);
}

// Walks the in-edges rather than Node::input_edges, which allocates; a node with an input
// missing (fewer data edges than inputs) does not fold.
bool ConstantFolder::DataInputsFoldable(const Node& n) const {
  int data_inputs = 0;
  for (const Edge* e : n.in_edges()) {
    if (e->IsControlEdge()) continue;
    if (!foldable_[e->src()->id()]) return false;
    ++data_inputs;
  }
  return data_inputs == n.num_inputs();
}

void ConstantFolder::FindFoldable() {
  for (Node* n : order_) {
    const int id = n->id();
    if (opts_.excluded_nodes.contains(n->name())) continue;
    // Inputs first: it is the cheapest test and fails for most nodes, sparing the
    // evaluator's kernel lookup.
    std::vector<Tensor> shape_values;
    if (!n->IsConstant() && !(IsShapeOp(*n) && ShapeOpValues(*n, &shape_values)) &&
        !(DataInputsFoldable(*n) && IsFoldableOp(*n))) {
      continue;
    }
    foldable_[id] = true;
    if (!shape_values.empty()) shape_values_[id] = std::move(shape_values);
    std::set<int> deps;
    for (const Edge* e : n->in_edges()) {
      const Node* src = e->src();
      if (src->IsSource()) continue;
      if (foldable_[src->id()]) {
        const std::set<int>& inherited = ControlDepsOf(src->id());
        deps.insert(inherited.begin(), inherited.end());
      } else {
        deps.insert(src->id());
      }
    }
    if (!deps.empty()) control_deps_[id] = std::move(deps);
  }
}

std::vector<Target> ConstantFolder::CollectTargets() const {
  std::vector<Target> targets;
  for (Node* n : order_) {
    if (!foldable_[n->id()] || n->IsConstant()) continue;
    if (opts_.protected_names.contains(n->name()) && n->num_outputs() == 1) {
      targets.push_back({n, 0, true});
      continue;
    }
    std::set<int> ports;
    for (const Edge* e : n->out_edges()) {
      if (!e->IsControlEdge() && !foldable_[e->dst()->id()]) ports.insert(e->src_output());
    }
    for (int port : ports) targets.push_back({n, port, false});
  }
  // By name, as TensorFlow orders its fetches, so new Const names do not depend on the
  // traversal.
  std::sort(targets.begin(), targets.end(), [](const Target& a, const Target& b) {
    return std::make_pair(a.node->name(), a.port) < std::make_pair(b.node->name(), b.port);
  });
  return targets;
}

absl::Status ConstantFolder::EvaluateTargets(const std::vector<Target>& targets,
                                             std::vector<Tensor>* values) {
  // The foldable ancestors of the targets; shape-folded nodes need none of their inputs.
  std::vector<bool> needed(foldable_.size(), false);
  std::vector<const Node*> stack;
  for (const Target& t : targets) stack.push_back(t.node);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (needed[n->id()]) continue;
    needed[n->id()] = true;
    if (!ShapeValuesOf(n->id()).empty()) continue;
    for (const Edge* e : n->in_edges()) {
      if (!e->IsControlEdge()) stack.push_back(e->src());
    }
  }

  Graph scratch(graph_->op_registry());
  std::vector<std::vector<Node*>> copies(foldable_.size());
  std::vector<const Node*> nodes;
  for (Node* n : order_) {
    if (!needed[n->id()]) continue;
    std::vector<Node*>& copy = copies[n->id()];
    for (const Tensor& value : ShapeValuesOf(n->id())) {
      std::string name = n->num_outputs() == 1 ? n->name() : scratch.NewName(n->name());
      ASSIGN_OR_RETURN(Node * c, scratch.AddNode(MakeConstNodeDef(name, value, "")));
      copy.push_back(c);
    }
    if (copy.empty()) {
      copy.push_back(scratch.CopyNode(n));
      for (const Edge* e : n->in_edges()) {
        if (e->IsControlEdge()) continue;
        const std::vector<Node*>& src = copies[e->src()->id()];
        if (src.size() == 1 && ShapeValuesOf(e->src()->id()).empty()) {
          scratch.AddEdge(src[0], e->src_output(), copy[0], e->dst_input());
        } else {
          scratch.AddEdge(src[e->src_output()], 0, copy[0], e->dst_input());
        }
      }
    }
    nodes.insert(nodes.end(), copy.begin(), copy.end());
  }
  std::vector<std::pair<const Node*, int>> outputs;
  for (const Target& t : targets) {
    const std::vector<Node*>& copy = copies[t.node->id()];
    if (ShapeValuesOf(t.node->id()).empty()) {
      outputs.emplace_back(copy[0], t.port);
    } else {
      outputs.emplace_back(copy[t.port], 0);
    }
  }
  return evaluator_->Evaluate(nodes, outputs, values);
}

bool ConstantFolder::Fits(const Tensor& value) const {
  return CanBeConstType(value.dtype()) &&
         value.TotalBytes() <= static_cast<uint64_t>(opts_.max_constant_size_in_bytes);
}

void ConstantFolder::AddControlDeps(const std::set<int>& deps, Node* dst) {
  if (deps.empty()) graph_->AddControlEdge(graph_->source_node(), dst);
  for (int id : deps) graph_->AddControlEdge(graph_->FindNodeId(id), dst);
}

absl::Status ConstantFolder::ReplaceOutput(const Target& target, const Tensor& value) {
  Node* n = target.node;
  std::string name;
  do {
    name = absl::StrCat(graph_->NewName(n->name()), "__cf__", next_const_id_++);
  } while (graph_->FindNodeByName(name) != nullptr);
  ASSIGN_OR_RETURN(Node * c, graph_->AddNode(MakeConstNodeDef(name, value, n->requested_device())));
  c->set_assigned_device_name(n->assigned_device_name());
  std::vector<const Edge*> consumers;
  for (const Edge* e : n->out_edges()) {
    if (!e->IsControlEdge() && e->src_output() == target.port) consumers.push_back(e);
  }
  for (const Edge* e : consumers) {
    RETURN_IF_ERROR(graph_->UpdateEdge(c, 0, e->dst(), e->dst_input()));
  }
  AddControlDeps(ControlDepsOf(n->id()), c);
  return absl::OkStatus();
}

absl::Status ConstantFolder::ReplaceInPlace(Node* n, const Tensor& value) {
  const std::string name = n->name();
  const std::string requested = n->requested_device();
  const std::string assigned = n->assigned_device_name();
  const std::set<int> deps = ControlDepsOf(n->id());
  std::vector<std::pair<Node*, int>> consumers;  // (dst, dst_input), kControlSlot for control
  for (const Edge* e : n->out_edges()) consumers.emplace_back(e->dst(), e->dst_input());
  graph_->RemoveNode(n);
  ASSIGN_OR_RETURN(Node * c, graph_->AddNode(MakeConstNodeDef(name, value, requested)));
  c->set_assigned_device_name(assigned);
  for (const auto& [dst, input] : consumers) {
    if (input == Graph::kControlSlot) {
      graph_->AddControlEdge(c, dst);
    } else {
      graph_->AddEdge(c, 0, dst, input);
    }
  }
  AddControlDeps(deps, c);
  return absl::OkStatus();
}

// Reverse topological order, so that removing a consumer can make its producers dead too.
bool ConstantFolder::RemoveDeadNodes(const std::vector<bool>& had_consumers) {
  bool removed = false;
  for (auto it = order_ids_.rbegin(); it != order_ids_.rend(); ++it) {
    const int id = *it;
    // Ids are never reused, so a node replaced in place is simply gone.
    Node* n = graph_->FindNodeId(id);
    if (n == nullptr || !foldable_[id] || !had_consumers[id] ||
        opts_.protected_names.contains(n->name())) {
      continue;
    }
    const bool dead = std::all_of(n->out_edges().begin(), n->out_edges().end(),
                                  [](const Edge* e) { return e->dst()->IsSink(); });
    if (dead) {
      graph_->RemoveNode(n);
      removed = true;
    }
  }
  return removed;
}

absl::Status ConstantFolder::Run(bool* was_mutated) {
  *was_mutated = false;
  GetReversePostOrder(*graph_, &order_, NodeComparatorName());
  order_.erase(std::remove_if(order_.begin(), order_.end(), [](Node* n) { return !n->IsOp(); }),
               order_.end());
  for (const Node* n : order_) order_ids_.push_back(n->id());
  FindFoldable();
  const std::vector<Target> targets = CollectTargets();
  if (targets.empty()) return absl::OkStatus();

  const OpDef* const_def = nullptr;
  RETURN_IF_ERROR(graph_->op_registry()->LookUpOpDef("Const", &const_def));
  std::vector<Tensor> values;
  RETURN_IF_ERROR(EvaluateTargets(targets, &values));

  std::vector<bool> had_consumers(foldable_.size(), false);
  for (Node* n : order_) {
    had_consumers[n->id()] = std::any_of(n->out_edges().begin(), n->out_edges().end(),
                                         [](const Edge* e) { return e->dst()->IsOp(); });
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (!Fits(values[i])) continue;
    if (targets[i].in_place) {
      RETURN_IF_ERROR(ReplaceInPlace(targets[i].node, values[i]));
    } else {
      RETURN_IF_ERROR(ReplaceOutput(targets[i], values[i]));
    }
    *was_mutated = true;
  }
  if (RemoveDeadNodes(had_consumers)) *was_mutated = true;
  if (*was_mutated) FixupSourceAndSinkEdges(graph_);
  return absl::OkStatus();
}

}  // namespace

absl::Status ConstantFold(const ConstantFoldingOptions& opts, Graph* graph, bool* changed) {
  *changed = false;
  if (opts.evaluator == nullptr) {
    return errors::InvalidArgument("ConstantFold: no evaluator in the options");
  }
  ConstantFolder folder(opts, opts.evaluator, graph);
  return folder.Run(changed);
}

}  // namespace sluice
