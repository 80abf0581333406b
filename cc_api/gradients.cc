#include "cc_api/gradients.h"

#include <deque>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "cc_api/grad_op_registry.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/graph.h"

namespace sluice {
namespace {

// One differentiation: the gradients flow from the outputs' seeds back along data edges,
// node by node, a node becoming ready once every consumer that leads to an output has handed
// it a gradient (so each node's gradient function runs once, on summed gradients).
class GradientBuilder {
 public:
  GradientBuilder(const Scope& scope, const std::vector<Output>& outputs,
                  const std::vector<Output>& inputs, const std::vector<Output>& grad_inputs,
                  std::vector<Output>* grad_outputs)
      : scope_(scope),
        outputs_(outputs),
        inputs_(inputs),
        grad_inputs_(grad_inputs),
        grad_outputs_(grad_outputs) {}

  absl::Status Build() {
    RETURN_IF_ERROR(Prepare());
    while (!ready_.empty()) {
      Node* node = ready_.front();
      ready_.pop_front();
      RETURN_IF_ERROR(Differentiate(node));
    }
    // An input on a node with several outputs, some of which led nowhere, never made its node
    // ready: what reached it is its gradient.
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (waiting_[inputs_[i].node()->id()] > 0) (*grad_outputs_)[i] = SumOf(inputs_[i]);
    }
    return absl::OkStatus();
  }

 private:
  // Nodes with a data path to one of the outputs (the outputs' nodes included).
  std::vector<bool> NodesLeadingToOutputs() const {
    std::vector<bool> leads(scope_.graph()->num_node_ids(), false);
    std::deque<Node*> queue;
    for (const Output& out : outputs_) {
      if (!leads[out.node()->id()]) {
        leads[out.node()->id()] = true;
        queue.push_back(out.node());
      }
    }
    while (!queue.empty()) {
      Node* node = queue.front();
      queue.pop_front();
      for (const Edge* e : node->in_edges()) {
        if (e->IsControlEdge() || leads[e->src()->id()]) continue;
        leads[e->src()->id()] = true;
        queue.push_back(e->src());
      }
    }
    return leads;
  }

  absl::Status Prepare() {
    if (outputs_.size() != grad_inputs_.size()) {
      return absl::InvalidArgumentError("Must specify a gradient input for each output.");
    }
    for (const Output& out : outputs_) {
      if (out.node() == nullptr) return absl::InvalidArgumentError("An output has no node.");
    }
    const std::vector<bool> leads = NodesLeadingToOutputs();
    for (const Output& in : inputs_) {
      if (in.node() == nullptr) return absl::InvalidArgumentError("An input has no node.");
      if (!leads[in.node()->id()]) {
        return absl::InvalidArgumentError(
            absl::StrCat("Cannot compute the partial derivative for node '", in.node()->name(),
                         "' as it's unreachable from the output node(s)."));
      }
    }
    grad_outputs_->assign(inputs_.size(), NoGradient());
    for (const Output& out : outputs_) output_nodes_.insert(out.node()->id());
    for (size_t i = 0; i < inputs_.size(); ++i) input_index_.emplace(inputs_[i], i);

    // Forward from the inputs: the endpoints that need a gradient, and per node how many
    // gradients to wait for (one per data edge to a node that leads to an output; at an
    // output's node, one per seed).
    waiting_.assign(scope_.graph()->num_node_ids(), 0);
    absl::flat_hash_set<Node*> seen;
    std::deque<Node*> queue;
    for (const Output& in : inputs_) {
      if (seen.insert(in.node()).second) queue.push_back(in.node());
    }
    while (!queue.empty()) {
      Node* node = queue.front();
      queue.pop_front();
      for (int i = 0; i < node->num_outputs(); ++i) received_[Output(node, i)];
      int expected = 0;
      if (output_nodes_.contains(node->id())) {
        for (const Output& out : outputs_) expected += out.node() == node;
      } else {
        for (const Edge* e : node->out_edges()) {
          if (e->IsControlEdge() || !leads[e->dst()->id()]) continue;
          if (seen.insert(e->dst()).second) queue.push_back(e->dst());
          ++expected;
        }
      }
      waiting_[node->id()] = expected;
    }
    for (size_t i = 0; i < outputs_.size(); ++i) Receive(grad_inputs_[i], outputs_[i]);
    return absl::OkStatus();
  }

  // Hands `grad` to `endpoint` if it needs one; its node is ready once nothing is awaited.
  void Receive(const Output& grad, const Output& endpoint) {
    auto it = received_.find(endpoint);
    if (it == received_.end()) return;
    it->second.push_back(grad);
    if (--waiting_[endpoint.node()->id()] == 0) ready_.push_back(endpoint.node());
  }

  // The sum of what `endpoint` received, NoGradient() markers left out.
  Output SumOf(const Output& endpoint) {
    std::vector<Output> grads;
    for (const Output& g : received_[endpoint]) {
      if (g.node() != nullptr) grads.push_back(g);
    }
    if (grads.empty()) return NoGradient();
    if (grads.size() == 1) return grads[0];
    return ops::AddN(scope_, grads);
  }

  bool HasNoGradientRegistered(const std::string& op) const {
    ops::GradFunc fn;
    return ops::GradOpRegistry::Global()->Lookup(op, &fn).ok() && fn == nullptr;
  }

  absl::Status Differentiate(Node* node) {
    const int num_outputs = node->num_outputs();
    std::vector<Output> dy(num_outputs);
    std::vector<int> missing;
    for (int i = 0; i < num_outputs; ++i) {
      dy[i] = SumOf(Output(node, i));
      if (dy[i].node() == nullptr) missing.push_back(i);
      auto input = input_index_.find(Output(node, i));
      if (input != input_index_.end()) (*grad_outputs_)[input->second] = dy[i];
    }

    // Nothing upstream of this node needs a gradient: the inputs stop here.
    bool feeds_on_needed = false;
    for (const Edge* e : node->in_edges()) {
      if (!e->IsControlEdge() && received_.contains(Output(e->src(), e->src_output()))) {
        feeds_on_needed = true;
        break;
      }
    }
    if (!feeds_on_needed) return absl::OkStatus();

    if (node->IsExit()) {
      return absl::UnimplementedError(
          absl::StrCat("Gradients of while loops are not implemented (reached the loop exit '",
                       node->name(), "')."));
    }
    std::vector<Output> dx;
    if (HasNoGradientRegistered(node->type_string()) ||
        static_cast<int>(missing.size()) == num_outputs) {
      dx.assign(node->num_inputs(), NoGradient());
    } else {
      // A gradient function expects a gradient for every output: zeros where none came.
      for (int i : missing) dy[i] = ops::ZerosLike(scope_, Output(node, i));
      ops::GradFunc fn;
      RETURN_IF_ERROR(ops::GradOpRegistry::Global()->Lookup(node->type_string(), &fn));
      RETURN_IF_ERROR(fn(scope_, Operation(node), dy, &dx));
      RETURN_IF_ERROR(scope_.status());
    }
    for (const Edge* e : node->in_edges()) {
      if (e->IsControlEdge()) continue;
      if (e->dst_input() >= static_cast<int>(dx.size())) {
        return absl::InternalError(
            absl::StrCat("Invalid gradient output index: ", e->dst_input(), " size: ", dx.size()));
      }
      Receive(dx[e->dst_input()], Output(e->src(), e->src_output()));
    }
    return absl::OkStatus();
  }

  const Scope& scope_;
  const std::vector<Output>& outputs_;
  const std::vector<Output>& inputs_;
  const std::vector<Output>& grad_inputs_;
  std::vector<Output>* grad_outputs_;

  // Per endpoint that needs a gradient, the gradients its consumers handed back so far.
  absl::flat_hash_map<Output, std::vector<Output>, OutputHash> received_;
  // Per node id, how many gradients its endpoints still wait for.
  std::vector<int> waiting_;
  std::deque<Node*> ready_;
  absl::flat_hash_set<int> output_nodes_;
  absl::flat_hash_map<Output, size_t, OutputHash> input_index_;
};

}  // namespace

absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  const std::vector<Output>& grad_inputs,
                                  std::vector<Output>* grad_outputs) {
  RETURN_IF_ERROR(scope.status());
  return GradientBuilder(scope, outputs, inputs, grad_inputs, grad_outputs).Build();
}

absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  std::vector<Output>* grad_outputs) {
  std::vector<Output> seeds;
  seeds.reserve(outputs.size());
  for (const Output& out : outputs) {
    if (out.node() == nullptr) return absl::InvalidArgumentError("An output has no node.");
    seeds.push_back(ops::OnesLike(scope, out));
  }
  return AddSymbolicGradients(scope, outputs, inputs, seeds, grad_outputs);
}

Output NoGradient() { return Output(nullptr, -1); }

}  // namespace sluice
