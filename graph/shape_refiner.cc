// ShapeRefiner (see shape_refiner.h). For each node:
//   1. build an InferenceContext whose input shapes are the producers' output shapes
//      (unknown for a producer not added yet: the back edge of a loop);
//   2. run the shape function; for every input whose value or denoted shape it requested,
//      compute what is known (ConstantEvaluator, ConstantPartialShape) and run it again,
//      until a run requests nothing new;
//   3. keep the context, and the input values it points at, for the node's consumers.
#include "graph/shape_refiner.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "graph/algorithm.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeAndType;
using shape_inference::ShapeHandle;

namespace {

// True when s0 and s1 denote the same shape: the same handle, or the same known rank with
// each pair of dims the same handle or the same known value.
bool SameDefinedShape(ShapeHandle s0, ShapeHandle s1) {
  if (s0.SameHandle(s1)) return true;
  if (InferenceContext::Rank(s0) != InferenceContext::Rank(s1)) return false;
  if (!InferenceContext::RankKnown(s0)) return false;
  for (int i = 0; i < InferenceContext::Rank(s0); ++i) {
    const DimensionHandle d0 = InferenceContext::DimKnownRank(s0, i);
    const DimensionHandle d1 = InferenceContext::DimKnownRank(s1, i);
    if (d0.SameHandle(d1)) continue;
    const int64_t v0 = InferenceContext::Value(d0);
    if (v0 < 0 || v0 != InferenceContext::Value(d1)) return false;
  }
  return true;
}

bool SameShapesAndTypes(const std::vector<ShapeAndType>* a, const std::vector<ShapeAndType>* b) {
  if (a == nullptr || b == nullptr) return a == b;
  if (a->size() != b->size()) return false;
  for (size_t i = 0; i < a->size(); ++i) {
    if ((*a)[i].dtype != (*b)[i].dtype || !SameDefinedShape((*a)[i].shape, (*b)[i].shape)) {
      return false;
    }
  }
  return true;
}

}  // namespace

struct ShapeRefiner::NodeState {
  NodeState(const Node& node, std::vector<ShapeHandle> inputs)
      : node_id(node.id()),
        context(node.def(), node.op_def(), node.num_outputs(), std::move(inputs)) {}

  // What RefreshNode checks. Retired states are never freed, so a producer's state pointer
  // identifies the producer's context at the time this one was made.
  const int node_id;
  // False once SetShape or UpdateNode changed the context.
  bool as_added = true;
  // Set by RefreshNode when it kept the context although some data input now comes from
  // another producer, or from one with this flag: the shapes are right, values need not be.
  bool changed_above = false;
  // Per data input (by index): the producer's state and output, or null when it had none.
  absl::InlinedVector<std::pair<const NodeState*, int>, 4> producers;

  // Inline rather than behind a pointer: one allocation per node fewer.
  InferenceContext context;
  // Values of the node's inputs found so far; the context points at them.
  std::vector<Tensor> input_values;
  std::vector<const Tensor*> input_value_ptrs;
  std::vector<ShapeHandle> input_tensors_as_shapes;
};

ShapeRefiner::ShapeRefiner(const OpRegistryInterface* ops) : ops_(ops), evaluator_(this) {}

ShapeRefiner::~ShapeRefiner() = default;

InferenceContext* ShapeRefiner::GetContext(const Node* node) const {
  const auto it = states_.find(node);
  return it == states_.end() ? nullptr : &it->second->context;
}

absl::Status ShapeRefiner::LookUpShapeFn(const Node* node,
                                         const OpRegistrationData** op_reg_data) const {
  // Nodes of one op share its OpDef: remembering each OpDef's registration spares the
  // registry's lock and string hashing for every node after the first.
  auto cached = registrations_.find(&node->op_def());
  if (cached != registrations_.end()) {
    *op_reg_data = cached->second;
  } else {
    RETURN_IF_ERROR(ops_->LookUp(node->type_string(), op_reg_data));
    registrations_.emplace(&node->op_def(), *op_reg_data);
  }
  if ((*op_reg_data)->shape_inference_fn == nullptr && require_shape_inference_fns_) {
    return AttachDef(
        errors::InvalidArgument("No shape inference function exists for op '", node->type_string(),
                                "', did you forget to define it?"),
        node->def());
  }
  return absl::OkStatus();
}

void ShapeRefiner::RemoveNode(const Node* node) {
  auto existing = states_.find(node);
  if (existing != states_.end()) {
    retired_.push_back(std::move(existing->second));
    states_.erase(existing);
  }
  evaluator_.Forget(node);
}

absl::Status ShapeRefiner::AddNode(const Node* node) {
  RemoveNode(node);

  // The Graph validated the node against its OpDef, so its port counts are right and the
  // context can take them (and the producers' shapes) directly.
  const int num_inputs = node->num_inputs();
  std::vector<ShapeHandle> inputs(num_inputs);
  absl::InlinedVector<std::pair<const NodeState*, int>, 4> producers(num_inputs, {nullptr, 0});
  bool any_handle_data = false;
  for (const Edge* e : node->in_edges()) {
    if (e->IsControlEdge() || e->dst_input() >= num_inputs) continue;
    const auto it = states_.find(e->src());
    // A producer not added yet is the back edge of a loop: leave that input unknown.
    if (it == states_.end()) continue;
    producers[e->dst_input()] = {it->second.get(), e->src_output()};
    const InferenceContext* src = &it->second->context;
    inputs[e->dst_input()] = src->output(e->src_output());
    any_handle_data |= src->output_handle_shapes_and_types(e->src_output()) != nullptr;
  }
  auto state = std::make_unique<NodeState>(*node, std::move(inputs));
  state->producers = std::move(producers);
  InferenceContext* c = &state->context;
  for (const Edge* e : node->in_edges()) {
    if (!any_handle_data) break;
    if (e->IsControlEdge()) continue;
    const InferenceContext* src = GetContext(e->src());
    if (src == nullptr) continue;
    const std::vector<ShapeAndType>* handle_data =
        src->output_handle_shapes_and_types(e->src_output());
    if (handle_data != nullptr) c->set_input_handle_shapes_and_types(e->dst_input(), *handle_data);
  }
  const OpRegistrationData* op_reg_data = nullptr;
  RETURN_IF_ERROR(LookUpShapeFn(node, &op_reg_data));
  RETURN_IF_ERROR(RunShapeFn(node, op_reg_data, state.get()));
  states_[node] = std::move(state);
  return absl::OkStatus();
}

absl::Status ShapeRefiner::RefreshNode(const Node* node) {
  const auto it = states_.find(node);
  if (it == states_.end()) return AddNode(node);
  NodeState* state = it->second.get();
  bool changed_inputs = false;
  if (!CanKeep(*node, *state, &changed_inputs)) return AddNode(node);
  if (changed_inputs) {
    // The shapes still hold, but values computed through the old inputs may not.
    state->changed_above = true;
    evaluator_.Forget(node);
  }
  return absl::OkStatus();
}

bool ShapeRefiner::CanKeep(const Node& node, const NodeState& state, bool* changed_inputs) const {
  const InferenceContext& c = state.context;
  if (state.node_id != node.id() || !state.as_added ||
      static_cast<int>(state.producers.size()) != node.num_inputs()) {
    return false;
  }
  for (const Edge* e : node.in_edges()) {
    if (e->IsControlEdge()) continue;
    const int input = e->dst_input();
    if (input >= node.num_inputs()) return false;
    const auto it = states_.find(e->src());
    if (it == states_.end()) return false;
    const NodeState* producer = it->second.get();
    if (producer == state.producers[input].first &&
        e->src_output() == state.producers[input].second && !producer->changed_above) {
      continue;
    }
    // A different producer (or one whose own inputs changed) will do if it gives the same
    // fully known shape and the shape function used nothing else of that input.
    *changed_inputs = true;
    if (c.requested_input_tensor(input) || c.requested_input_tensor_as_partial_shape(input) ||
        c.input_handle_shapes_and_types(input) != nullptr) {
      return false;
    }
    const InferenceContext& src = producer->context;
    if (src.output_handle_shapes_and_types(e->src_output()) != nullptr) return false;
    const ShapeHandle now = src.output(e->src_output());
    const ShapeHandle before = c.input(input);
    if (!InferenceContext::FullyDefined(now) || !SameDefinedShape(now, before)) return false;
  }
  return true;
}

absl::Status ShapeRefiner::RunShapeFn(const Node* node, const OpRegistrationData* op_reg_data,
                                      NodeState* state) {
  InferenceContext* c = &state->context;
  const int n = c->num_inputs();
  // Most shape functions request no input values: the value vectors are sized on the first
  // request (SupplyRequestedInputs), not here.
  state->input_values.clear();
  state->input_value_ptrs.clear();
  state->input_tensors_as_shapes.clear();
  c->set_input_tensors(state->input_value_ptrs);
  c->set_input_tensors_as_shapes(state->input_tensors_as_shapes);
  const OpShapeInferenceFn& fn = op_reg_data->shape_inference_fn;
  RETURN_IF_ERROR(c->Run(fn));
  bool requested = false;
  for (int i = 0; i < n && !requested; ++i) {
    requested = c->requested_input_tensor(i) || c->requested_input_tensor_as_partial_shape(i);
  }
  if (!requested) return absl::OkStatus();

  // A shape function may ask for an input only once it knows another one, so keep going
  // while each run brings something new.
  std::vector<bool> attempted_value(n, false);
  std::vector<bool> attempted_shape(n, false);
  bool rerun = true;
  while (rerun) {
    rerun = false;
    RETURN_IF_ERROR(SupplyRequestedInputs(node, state, &attempted_value, &attempted_shape, &rerun));
    if (rerun) {
      c->set_input_tensors(state->input_value_ptrs);
      c->set_input_tensors_as_shapes(state->input_tensors_as_shapes);
      RETURN_IF_ERROR(c->Run(fn));
    }
  }
  return absl::OkStatus();
}

absl::Status ShapeRefiner::SupplyRequestedInputs(const Node* node, NodeState* state,
                                                 std::vector<bool>* attempted_value,
                                                 std::vector<bool>* attempted_shape, bool* rerun) {
  InferenceContext* c = &state->context;
  for (int i = 0; i < c->num_inputs(); ++i) {
    if (c->requested_input_tensor(i) && !(*attempted_value)[i]) {
      (*attempted_value)[i] = true;
      absl::StatusOr<std::optional<Tensor>> value = InputValue(node, i);
      RETURN_IF_ERROR(AttachDef(value.status(), node->def()));
      if (value->has_value()) {
        if (state->input_values.empty()) {
          state->input_values.resize(c->num_inputs());
          state->input_value_ptrs.resize(c->num_inputs(), nullptr);
        }
        state->input_values[i] = **std::move(value);
        state->input_value_ptrs[i] = &state->input_values[i];
        *rerun = true;
      }
    }
    if (c->requested_input_tensor_as_partial_shape(i) && !(*attempted_shape)[i]) {
      (*attempted_shape)[i] = true;
      if (static_cast<int>(state->input_tensors_as_shapes.size()) <= i) {
        state->input_tensors_as_shapes.resize(i + 1);
      }
      ShapeHandle shape;
      RETURN_IF_ERROR(AttachDef(ConstantPartialShape(c, node, i, 0, &shape), node->def()));
      state->input_tensors_as_shapes[i] = shape;
      *rerun = true;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<Tensor>> ShapeRefiner::InputValue(const Node* node, int input) {
  const Edge* e = nullptr;
  if (!node->input_edge(input, &e).ok()) return std::nullopt;
  return evaluator_.Evaluate(*e->src(), e->src_output());
}

absl::Status ShapeRefiner::SetShape(const Node* node, int output_port, ShapeHandle shape) {
  InferenceContext* c = GetContext(node);
  if (c == nullptr) return errors::Internal("Could not find context for ", node->name());
  if (output_port < 0 || output_port >= node->num_outputs()) {
    return errors::InvalidArgument("output_port '", output_port, "' is out of range, node '",
                                   node->name(), "' has ", node->num_outputs(), " outputs");
  }
  ShapeHandle merged;
  RETURN_IF_ERROR(AttachDef(c->Merge(c->output(output_port), shape, &merged), node->def()));
  c->set_output(output_port, merged);
  states_.find(node)->second->as_added = false;
  return absl::OkStatus();
}

absl::Status ShapeRefiner::UpdateNode(const Node* node, bool relax, bool* refined) {
  const auto it = states_.find(node);
  if (it == states_.end()) {
    *refined = true;
    return AddNode(node);
  }
  NodeState* state = it->second.get();
  state->as_added = false;
  InferenceContext* c = &state->context;
  bool inputs_changed = false;
  for (const Edge* e : node->in_edges()) {
    if (e->IsControlEdge()) continue;
    const int input = e->dst_input();
    const InferenceContext* src = GetContext(e->src());
    if (src == nullptr) {
      return errors::FailedPrecondition("Input ", input, " ('", e->src()->name(), "') for '",
                                        node->name(),
                                        "' was not previously added to ShapeRefiner.");
    }
    const ShapeHandle existing = c->input(input);
    const ShapeHandle update = src->output(e->src_output());
    const bool changed = relax ? c->RelaxInput(input, update) : c->MergeInput(input, update);
    if (changed && !SameDefinedShape(c->input(input), existing)) inputs_changed = true;
    // The input's value may have changed with its shape; there is no telling, so re-run.
    if (c->requested_input_tensor_as_partial_shape(input)) inputs_changed = true;
    const std::vector<ShapeAndType>* handle_data =
        src->output_handle_shapes_and_types(e->src_output());
    if (handle_data != nullptr &&
        !SameShapesAndTypes(handle_data, c->input_handle_shapes_and_types(input))) {
      c->set_input_handle_shapes_and_types(input, *handle_data);
      inputs_changed = true;
    }
  }
  if (!inputs_changed) return absl::OkStatus();
  *refined = true;
  const OpRegistrationData* op_reg_data = nullptr;
  RETURN_IF_ERROR(LookUpShapeFn(node, &op_reg_data));
  if (op_reg_data->shape_inference_fn == nullptr) return absl::OkStatus();
  return RunShapeFn(node, op_reg_data, state);
}

absl::Status ShapeRefiner::GetOutputShape(const Node* node, int port,
                                          PartialTensorShape* shape) const {
  const InferenceContext* c = GetContext(node);
  if (c == nullptr) {
    return errors::NotFound("Node '", node->name(), "' was not added to the ShapeRefiner");
  }
  if (port < 0 || port >= c->num_outputs()) {
    return errors::InvalidArgument("Output ", port, " of node '", node->name(), "' (op '",
                                   node->type_string(), "') is out of range: it has ",
                                   c->num_outputs(), " outputs");
  }
  absl::Status s = c->AsPartialTensorShape(c->output(port), shape);
  if (!s.ok()) {
    return errors::AppendToMessage(s, " (output ", port, " of node '", node->name(), "', op '",
                                   node->type_string(), "')");
  }
  return absl::OkStatus();
}

void InferShapesBestEffort(const Graph& g, ShapeRefiner* refiner) {
  refiner->set_require_shape_inference_fns(false);
  std::vector<Node*> order;
  GetReversePostOrder(g, &order);
  for (const Node* n : order) {
    if (n->IsOp()) refiner->AddNode(n).IgnoreError();
  }
}

}  // namespace sluice
