#include "cc_api/while_loop.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cc_api/node_builder.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/shape_refiner.h"

namespace sluice {
namespace ops {
namespace {

// TensorFlow's Graph::IsValidOutputTensor: the tensor a builder function returned exists.
absl::Status CheckOutputExists(const Output& output) {
  const Node* node = output.node();
  if (node == nullptr) return absl::InvalidArgumentError("Node is null");
  if (output.index() < 0 || output.index() >= node->num_outputs()) {
    return absl::OutOfRangeError(absl::StrCat(
        "Node '", node->name(), "' (type: '", node->type_string(),
        "', num of outputs: ", node->num_outputs(), ") does not have output ", output.index()));
  }
  return absl::OkStatus();
}

// The loop variable's Merge, whose second input is the back edge from a NextIteration that
// does not exist yet. The node is built with the Enter output in both slots (so it is typed
// and checked like any node), the second edge is dropped before shape inference (so, as in
// TensorFlow, the unknown back edge leaves the Merge's shape unknown), and ConnectBackEdge adds
// the real one.
absl::Status CreateMerge(const Scope& scope, const Output& enter, Output* merge) {
  NodeBuilder builder(scope.GetUniqueNameForOp("Merge"), "Merge");
  builder.Input(std::vector<Output>{enter, enter});
  scope.UpdateBuilder(&builder);
  Node* node = nullptr;
  RETURN_IF_ERROR(builder.Finalize(scope.graph(), &node));
  for (const Edge* e : node->in_edges()) {
    if (e->dst_input() == 1) {
      scope.graph()->RemoveEdge(e);
      break;
    }
  }
  RETURN_IF_ERROR(scope.DoShapeInference(node));
  *merge = Output(node, 0);
  return absl::OkStatus();
}

absl::Status CreateCond(const Scope& scope, const CondGraphBuilderFn& cond,
                        const std::vector<Output>& merges, Output* loop_cond) {
  const Scope cond_scope = scope.NewSubScope("cond").WithControlDependencies(merges[0]);
  Output raw;
  RETURN_IF_ERROR(cond(cond_scope, merges, &raw));
  RETURN_IF_ERROR(CheckOutputExists(raw));
  if (raw.type() != DT_BOOL) {
    return absl::InvalidArgumentError(
        absl::StrCat("BuildWhileLoop: 'cond' argument must return a boolean output, got ",
                     DataTypeString(raw.type())));
  }
  *loop_cond = LoopCond(scope, raw).output;
  return scope.status();
}

absl::Status CreateBody(const Scope& scope, const BodyGraphBuilderFn& body,
                        const std::vector<Output>& values, std::vector<Output>* next) {
  const Scope body_scope = scope.NewSubScope("body").WithControlDependencies(values[0]);
  RETURN_IF_ERROR(body(body_scope, values, next));
  if (next->size() != values.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("BuildWhileLoop: 'body' argument expected to return ", values.size(),
                     " output(s), got ", next->size()));
  }
  for (size_t i = 0; i < next->size(); ++i) {
    const Output& output = (*next)[i];
    RETURN_IF_ERROR(CheckOutputExists(output));
    // The value goes back into the loop variable's Merge, so it must have its type (TensorFlow
    // builds the mismatched loop and fails when the graph is run).
    if (BaseType(output.type()) != BaseType(values[i].type())) {
      return absl::InvalidArgumentError(
          absl::StrCat("BuildWhileLoop: 'body' output ", i, " is ", DataTypeString(output.type()),
                       " but loop variable ", i, " is ", DataTypeString(values[i].type())));
    }
  }
  return absl::OkStatus();
}

// BuildWhileLoop's work, which may leave part of the loop behind on error.
absl::Status BuildLoop(const Scope& scope, const std::vector<Output>& inputs,
                       const CondGraphBuilderFn& cond, const BodyGraphBuilderFn& body,
                       const std::string& frame_name, OutputList* outputs, Output* cond_output) {
  RETURN_IF_ERROR(scope.status());
  if (inputs.empty()) {
    return absl::InvalidArgumentError("BuildWhileLoop: 'inputs' must hold a loop variable");
  }
  if (outputs == nullptr || !outputs->empty()) {
    return absl::InvalidArgumentError("BuildWhileLoop: 'outputs' must be an empty list");
  }
  const size_t n = inputs.size();
  std::vector<Output> enters(n);
  for (size_t i = 0; i < n; ++i) enters[i] = internal::Enter(scope, inputs[i], frame_name);
  RETURN_IF_ERROR(scope.status());

  std::vector<Output> merges(n);
  for (size_t i = 0; i < n; ++i) RETURN_IF_ERROR(CreateMerge(scope, enters[i], &merges[i]));

  Output loop_cond;
  RETURN_IF_ERROR(CreateCond(scope, cond, merges, &loop_cond));

  std::vector<Output> values(n), exits_from(n);
  for (size_t i = 0; i < n; ++i) {
    const Switch branch(scope, merges[i], loop_cond);
    values[i] = branch.output_true;
    exits_from[i] = branch.output_false;
  }
  RETURN_IF_ERROR(scope.status());

  std::vector<Output> next;
  RETURN_IF_ERROR(CreateBody(scope, body, values, &next));
  for (size_t i = 0; i < n; ++i) {
    const Output back = NextIteration(scope, next[i]);
    RETURN_IF_ERROR(scope.status());
    scope.graph()->AddEdge(back.node(), back.index(), merges[i].node(), 1);
  }

  outputs->resize(n);
  for (size_t i = 0; i < n; ++i) (*outputs)[i] = internal::Exit(scope, exits_from[i]);
  if (cond_output != nullptr) *cond_output = loop_cond;
  return scope.status();
}

}  // namespace

absl::Status BuildWhileLoop(const Scope& scope, const std::vector<Output>& inputs,
                            const CondGraphBuilderFn& cond, const BodyGraphBuilderFn& body,
                            const std::string& frame_name, OutputList* outputs,
                            bool /*create_while_ctx*/, Output* cond_output) {
  Graph* graph = scope.graph();
  const int first_new_id = graph == nullptr ? 0 : graph->num_node_ids();
  absl::Status s = BuildLoop(scope, inputs, cond, body, frame_name, outputs, cond_output);
  if (!s.ok() && graph != nullptr) {
    // A half-built loop (a Merge without its back edge) would make the graph invalid: take
    // out every node this call added.
    for (int id = graph->num_node_ids() - 1; id >= first_new_id; --id) {
      Node* node = graph->FindNodeId(id);
      if (node == nullptr) continue;
      if (scope.refiner() != nullptr) scope.refiner()->RemoveNode(node);
      graph->RemoveNode(node);
    }
    if (outputs != nullptr) outputs->clear();
  }
  return s;
}

}  // namespace ops
}  // namespace sluice
