// TF_TryEvaluateConstant: the value of a graph tensor when it does not depend on anything fed
// or stateful, computed now with the CPU kernels, as TensorFlow's C API computes it.
//
// As in TensorFlow: a Const's value is read; Shape, Size and Rank whose input shape the graph's
// shape inference knows well enough (fully, or its rank for Rank) give their value from it,
// for the tensor asked about and for any such node on the way up; otherwise the subgraph that
// computes the tensor, followed backwards along data edges, must reach only Consts and such
// shape-known nodes through nodes that are neither stateful, Merge, Enter, Exit nor
// PlaceholderWithDefault and have a CPU kernel. That subgraph is copied, the shape-known nodes
// turned into Consts, and run on the host. The answer is best effort: a subgraph that is not
// constant, or whose kernels fail (an integer division by zero), gives false with an OK status.
// Unlike TensorFlow, an output index out of range is OUT_OF_RANGE (TensorFlow returns a
// Const's value whatever the index).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/shape_refiner.h"
#include "runtime/session/host_constant_evaluator.h"

using sluice::c_api::SetStatus;
using sluice::c_api::ToNode;

namespace {

using sluice::DataType;
using sluice::Node;
using sluice::PartialTensorShape;
using sluice::Tensor;

// The shape of `node`'s first data input as shape inference knows it.
std::optional<PartialTensorShape> InputShape(const Node& node,
                                             const sluice::ShapeRefiner& refiner) {
  for (const sluice::Edge* e : node.in_edges()) {
    if (e->IsControlEdge() || e->dst_input() != 0) continue;
    PartialTensorShape shape;
    if (!refiner.GetOutputShape(e->src(), e->src_output(), &shape).ok()) return std::nullopt;
    return shape;
  }
  return std::nullopt;
}

// An int32 or int64 tensor of `values` (a vector, or a scalar when `scalar`); INVALID_ARGUMENT
// when an int32 output cannot hold a value, as TensorFlow says it.
absl::StatusOr<Tensor> IntegerTensor(DataType dtype, const std::vector<int64_t>& values,
                                     bool scalar, const char* what) {
  Tensor t(dtype, scalar ? sluice::TensorShape({})
                         : sluice::TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == sluice::DT_INT32) {
      if (values[i] > std::numeric_limits<int32_t>::max()) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, " has output type int32, but ",
            std::string(what) == "Shape" ? "dimension" : "size", " exceeds maximum int32 value"));
      }
      t.flat<int32_t>()(i) = static_cast<int32_t>(values[i]);
    } else {
      t.flat<int64_t>()(i) = values[i];
    }
  }
  return t;
}

// The value of a Shape, Size or Rank that shape inference implies; nullopt when it does not.
absl::StatusOr<std::optional<Tensor>> ValueFromShapes(const Node& node,
                                                      const sluice::ShapeRefiner& refiner) {
  const std::string& op = node.type_string();
  if (op != "Shape" && op != "Size" && op != "Rank") return std::optional<Tensor>();
  const std::optional<PartialTensorShape> shape = InputShape(node, refiner);
  if (!shape.has_value()) return std::optional<Tensor>();
  const DataType dtype = node.output_type(0);
  if (op == "Rank") {
    if (shape->unknown_rank()) return std::optional<Tensor>();
    return std::optional<Tensor>(*IntegerTensor(sluice::DT_INT32, {shape->dims()}, true, "Rank"));
  }
  if (!shape->IsFullyDefined()) return std::optional<Tensor>();
  absl::StatusOr<Tensor> value =
      op == "Shape"
          ? IntegerTensor(
                dtype, std::vector<int64_t>(shape->dim_sizes().begin(), shape->dim_sizes().end()),
                false, "Shape")
          : IntegerTensor(dtype, {shape->num_elements()}, true, "Size");
  if (!value.ok()) return value.status();
  return std::optional<Tensor>(*std::move(value));
}

// Whether `node` may be part of a constant subgraph at all.
bool MayFold(const Node& node, const sluice::HostConstantEvaluator& evaluator) {
  return !node.IsStateful() && !node.IsMerge() && !node.IsEnter() && !node.IsExit() &&
         node.type_string() != "PlaceholderWithDefault" && evaluator.CanEvaluate(node);
}

// The value of output `index` of `target`, or nullopt when it is not a constant.
absl::StatusOr<std::optional<Tensor>> Evaluate(const sluice::Graph& graph,
                                               const sluice::ShapeRefiner& refiner,
                                               const Node& target, int index) {
  if (target.IsConstant()) {
    Tensor value;
    const sluice::AttrValue* attr = target.attrs().Find("value");
    if (attr != nullptr && sluice::TensorFromProto(attr->tensor(), &value).ok()) {
      return std::optional<Tensor>(value);
    }
  }
  absl::StatusOr<std::optional<Tensor>> from_shapes = ValueFromShapes(target, refiner);
  if (!from_shapes.ok() || from_shapes->has_value()) return from_shapes;

  sluice::HostConstantEvaluator evaluator;
  if (!MayFold(target, evaluator)) return std::optional<Tensor>();
  // Walk up the data edges; `order` ends up producers first.
  absl::flat_hash_map<const Node*, Tensor> known;  // shape-implied values
  absl::flat_hash_set<const Node*> visited;
  std::vector<const Node*> order;
  std::vector<std::pair<const Node*, bool>> stack = {{&target, false}};
  while (!stack.empty()) {
    auto [node, expanded] = stack.back();
    stack.pop_back();
    if (expanded) {
      order.push_back(node);
      continue;
    }
    if (!visited.insert(node).second) continue;
    if (node != &target) {
      if (!MayFold(*node, evaluator)) return std::optional<Tensor>();
      absl::StatusOr<std::optional<Tensor>> value = ValueFromShapes(*node, refiner);
      if (!value.ok()) return value.status();
      if (value->has_value()) {
        known.emplace(node, **value);
        order.push_back(node);
        continue;
      }
      if (node->num_inputs() == 0 && !node->IsConstant()) return std::optional<Tensor>();
    }
    stack.push_back({node, true});
    for (const sluice::Edge* e : node->in_edges()) {
      if (!e->IsControlEdge() && !visited.contains(e->src())) stack.push_back({e->src(), false});
    }
  }

  // The subgraph, copied without control edges, the shape-implied nodes as Consts.
  sluice::Graph subgraph(graph.op_registry());
  absl::flat_hash_map<const Node*, Node*> copies;
  for (const Node* node : order) {
    auto it = known.find(node);
    if (it == known.end()) {
      copies[node] = subgraph.CopyNode(node);
      continue;
    }
    absl::StatusOr<Node*> added =
        subgraph.AddNode(sluice::MakeConstNodeDef(node->name(), it->second, ""));
    if (!added.ok()) return std::optional<Tensor>();
    copies[node] = *added;
  }
  std::vector<const Node*> nodes;
  for (const Node* node : order) {
    nodes.push_back(copies[node]);
    if (known.contains(node)) continue;
    for (const sluice::Edge* e : node->in_edges()) {
      if (e->IsControlEdge()) continue;
      subgraph.AddEdge(copies[e->src()], e->src_output(), copies[node], e->dst_input());
    }
  }
  std::vector<Tensor> values;
  const std::pair<const Node*, int> output = {copies[&target], index};
  // Best effort: a kernel that fails means "not evaluated", not an error.
  if (!evaluator.Evaluate(nodes, {&output, 1}, &values).ok()) return std::optional<Tensor>();
  return std::optional<Tensor>(values[0]);
}

}  // namespace

extern "C" {

unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output, TF_Tensor** result,
                                     TF_Status* status) {
  if (result == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("'result' is null"));
    return 0;
  }
  *result = nullptr;
  if (graph == nullptr || output.oper == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("'graph' and 'output.oper' must be set"));
    return 0;
  }
  absl::MutexLock lock(&graph->mu);
  const Node* node = ToNode(output.oper);
  if (graph->graph.FindNodeId(node->id()) != node) {
    SetStatus(status, absl::InvalidArgumentError("'output' is not an operation of this graph"));
    return 0;
  }
  if (output.index < 0 || output.index >= node->num_outputs()) {
    SetStatus(status, absl::OutOfRangeError(absl::StrCat("output index ", output.index, " of '",
                                                         node->name(), "' is out of range (it has ",
                                                         node->num_outputs(), ")")));
    return 0;
  }
  absl::StatusOr<std::optional<Tensor>> value =
      Evaluate(graph->graph, graph->refiner, *node, output.index);
  if (!value.ok()) {
    SetStatus(status, value.status());
    return 0;
  }
  SetStatus(status, absl::OkStatus());
  if (!value->has_value()) return 0;
  absl::StatusOr<TF_Tensor*> tensor = sluice::c_api::TensorToTF(**value);
  if (!tensor.ok()) return 0;
  *result = *tensor;
  return 1;
}

}  // extern "C"
