// ConstantEvaluator (see eval_const_tensor.h). Evaluate is an iterative depth-first walk up
// the data inputs of the requested node:
//   - an output whose value is known without folding (cache, Const, shapes) is a leaf;
//   - a foldable node is expanded: its inputs are pushed, and once they all have values
//     the node is folded and its value recorded;
//   - anything else (a placeholder, a stateful op, a loop, a missing input edge, a fold that
//     does not apply, a cycle, too many nodes) ends the walk: the value is unknown.
// Iterative so that a long chain of Identity nodes cannot overflow the stack.
#include "graph/eval_const_tensor.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/op/node_def_util.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape_refiner.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

bool IsIndexType(DataType dtype) { return dtype == DT_INT32 || dtype == DT_INT64; }

bool HasIntAttr(const Node& node, absl::string_view name, int64_t expected) {
  int64_t actual = 0;
  return TryGetNodeAttr(node.attrs(), name, &actual) && actual == expected;
}

std::vector<int64_t> ReadInts(const Tensor& t) {
  std::vector<int64_t> values(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    values[i] = t.dtype() == DT_INT32 ? t.flat<int32_t>()(i) : t.flat<int64_t>()(i);
  }
  return values;
}

// REQUIRES: IsIndexType(dtype) and values.size() == shape.num_elements(). int32 values
// wrap, as a C++ (and TensorFlow) cast does.
Tensor MakeInts(DataType dtype, const TensorShape& shape, const std::vector<int64_t>& values) {
  Tensor t(dtype, shape);
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DT_INT32) {
      t.flat<int32_t>()(i) = static_cast<int32_t>(values[i]);
    } else {
      t.flat<int64_t>()(i) = values[i];
    }
  }
  return t;
}

// The value of a Const node holding one int32/int64 element, if `node` is one.
std::optional<int64_t> IntConstValue(const Node& node) {
  const TensorProto* proto = nullptr;
  Tensor t;
  if (!node.IsConstant() || !TryGetNodeAttr(node.attrs(), "value", &proto) ||
      !IsIndexType(proto->dtype()) || !TensorFromProto(*proto, &t).ok() || t.NumElements() != 1) {
    return std::nullopt;
  }
  return ReadInts(t)[0];
}

// If `node` is `tensor[ix]` (a StridedSlice that only shrinks axis 0, at a constant index)
// or `unstack(tensor)[ix]` (output ix of an Unpack along axis 0), returns ix.
std::optional<int64_t> SliceIndex(const Node& node, int port) {
  if (node.type_string() == "Unpack") {
    if (HasIntAttr(node, "axis", 0)) return port;
    return std::nullopt;
  }
  const Edge* begin = nullptr;
  if (node.type_string() == "StridedSlice" && HasIntAttr(node, "begin_mask", 0) &&
      HasIntAttr(node, "end_mask", 0) && HasIntAttr(node, "ellipsis_mask", 0) &&
      HasIntAttr(node, "new_axis_mask", 0) && HasIntAttr(node, "shrink_axis_mask", 1) &&
      node.input_edge(1, &begin).ok()) {
    return IntConstValue(*begin->src());
  }
  return std::nullopt;
}

// The integer values (and whether they form a vector rather than a scalar) that the known
// shapes imply for Shape, Rank, Size, shape[ix] and unstack(shape)[ix]; false if none.
bool IntsFromShapes(const Node& node, int port, const ShapeRefiner& refiner,
                    std::vector<int64_t>* values, bool* is_vector) {
  *is_vector = false;
  const std::string& op = node.type_string();
  const Edge* edge = nullptr;
  const bool of_shape = op != "Shape" && op != "Rank" && op != "Size" &&
                        node.input_edge(0, &edge).ok() && edge->src()->type_string() == "Shape";
  const InferenceContext* c = refiner.GetContext(of_shape ? edge->src() : &node);
  if (c == nullptr) return false;
  const ShapeHandle input = c->input(0);
  if (op == "Shape" && InferenceContext::FullyDefined(input)) {
    for (int i = 0; i < InferenceContext::Rank(input); ++i) {
      values->push_back(InferenceContext::Value(InferenceContext::DimKnownRank(input, i)));
    }
    *is_vector = true;
    return true;
  }
  if (op == "Rank" && InferenceContext::RankKnown(input)) {
    values->push_back(InferenceContext::Rank(input));
    return true;
  }
  if (op == "Size" && InferenceContext::FullyDefined(input)) {
    int64_t size = 1;
    for (int i = 0; i < InferenceContext::Rank(input); ++i) {
      const int64_t d = InferenceContext::Value(InferenceContext::DimKnownRank(input, i));
      if (d != 0 && size > std::numeric_limits<int64_t>::max() / d) return false;
      size *= d;
    }
    values->push_back(size);
    return true;
  }
  if (!of_shape || !InferenceContext::RankKnown(input)) return false;
  const int64_t rank = InferenceContext::Rank(input);
  const std::optional<int64_t> ix = SliceIndex(node, port);
  if (!ix.has_value() || *ix < -rank || *ix >= rank) return false;
  const int64_t dim = InferenceContext::Value(InferenceContext::DimKnownRank(input, *ix));
  if (dim == InferenceContext::kUnknownDim) return false;
  values->push_back(dim);
  return true;
}

absl::StatusOr<std::optional<Tensor>> ValueFromShapes(const Node& node, int port,
                                                      const ShapeRefiner& refiner) {
  if (node.num_inputs() == 0 || port >= node.num_outputs()) return std::nullopt;
  const DataType dtype = node.output_type(port);
  std::vector<int64_t> values;
  bool is_vector = false;
  if (!IsIndexType(dtype) || !IntsFromShapes(node, port, refiner, &values, &is_vector)) {
    return std::nullopt;
  }
  if (dtype == DT_INT32) {
    for (int64_t v : values) {
      // TensorFlow's bound, which also rejects INT32_MAX itself.
      if (v >= std::numeric_limits<int32_t>::max()) {
        return errors::InvalidArgument("Value is out of int32 range: ", v);
      }
    }
  }
  const TensorShape shape =
      is_vector ? TensorShape({static_cast<int64_t>(values.size())}) : TensorShape();
  return MakeInts(dtype, shape, values);
}

// ---- Built-in folds --------------------------------------------------------------------

bool IsIdentityOp(absl::string_view op) {
  return op == "Identity" || op == "Snapshot" || op == "StopGradient" || op == "PreventGradient";
}

bool HasBuiltinFold(absl::string_view op) {
  return IsIdentityOp(op) || op == "IdentityN" || op == "Pack" || op == "Concat" ||
         op == "ConcatV2" || op == "Cast";
}

// Pack of equally shaped integer tensors along axis 0 (every axis, for scalars).
std::optional<Tensor> FoldPack(const Node& node, const std::vector<Tensor>& inputs) {
  int64_t axis = 0;
  if (inputs.empty() || !TryGetNodeAttr(node.attrs(), "axis", &axis)) return std::nullopt;
  const Tensor& first = inputs[0];
  const int64_t rank = first.dims();
  if (axis < 0) axis += rank + 1;
  if (axis != 0 || !IsIndexType(first.dtype())) return std::nullopt;
  std::vector<int64_t> values;
  for (const Tensor& t : inputs) {
    if (t.dtype() != first.dtype() || !t.shape().IsSameSize(first.shape())) return std::nullopt;
    const std::vector<int64_t> part = ReadInts(t);
    values.insert(values.end(), part.begin(), part.end());
  }
  TensorShape shape({static_cast<int64_t>(inputs.size())});
  if (!shape.AppendShapeWithStatus(first.shape()).ok()) return std::nullopt;
  return MakeInts(first.dtype(), shape, values);
}

// Concatenation of integer tensors along axis 0, where row-major data simply joins.
std::optional<Tensor> FoldConcat(const std::vector<Tensor>& parts, const Tensor& axis_tensor) {
  if (parts.empty() || !IsIndexType(axis_tensor.dtype()) || axis_tensor.NumElements() != 1) {
    return std::nullopt;
  }
  const Tensor& first = parts[0];
  const int64_t rank = first.dims();
  int64_t axis = ReadInts(axis_tensor)[0];
  if (axis < 0) axis += rank;
  if (rank == 0 || axis != 0 || !IsIndexType(first.dtype())) return std::nullopt;
  std::vector<int64_t> values;
  int64_t rows = 0;
  for (const Tensor& t : parts) {
    if (t.dtype() != first.dtype() || t.dims() != rank) return std::nullopt;
    for (int d = 1; d < rank; ++d) {
      if (t.dim_size(d) != first.dim_size(d)) return std::nullopt;
    }
    const std::vector<int64_t> part = ReadInts(t);
    values.insert(values.end(), part.begin(), part.end());
    rows += t.dim_size(0);
  }
  TensorShape shape = first.shape();
  if (!shape.SetDimWithStatus(0, rows).ok()) return std::nullopt;
  return MakeInts(first.dtype(), shape, values);
}

std::optional<Tensor> FoldCast(const Node& node, const Tensor& input) {
  DataType dst = DT_INVALID;
  if (!IsIndexType(input.dtype()) || !TryGetNodeAttr(node.attrs(), "DstT", &dst) ||
      !IsIndexType(dst)) {
    return std::nullopt;
  }
  return MakeInts(dst, input.shape(), ReadInts(input));
}

std::optional<Tensor> FoldBuiltin(const Node& node, int port, const std::vector<Tensor>& inputs) {
  const std::string& op = node.type_string();
  if (IsIdentityOp(op)) return inputs[0];
  if (op == "IdentityN") return inputs[port];
  if (op == "Pack") return FoldPack(node, inputs);
  if (op == "Cast") return FoldCast(node, inputs[0]);
  if (op == "ConcatV2") {
    return FoldConcat(std::vector<Tensor>(inputs.begin(), inputs.end() - 1), inputs.back());
  }
  if (op == "Concat") {
    return FoldConcat(std::vector<Tensor>(inputs.begin() + 1, inputs.end()), inputs[0]);
  }
  return std::nullopt;
}

}  // namespace

// ---- ConstantEvaluator -----------------------------------------------------------------

absl::StatusOr<std::optional<Tensor>> ConstantEvaluator::KnownValue(const Node& node,
                                                                    int port) const {
  const auto it = cache_.find(NodeOutput(&node, port));
  if (it != cache_.end()) return it->second;
  if (node.IsConstant()) {
    const TensorProto* proto = nullptr;
    RETURN_IF_ERROR(GetNodeAttr(node.attrs(), "value", &proto));
    Tensor value;
    const absl::Status s = TensorFromProto(*proto, &value);
    if (!s.ok()) {
      return errors::InvalidArgument("Unable to evaluate a constant node: ", s.message());
    }
    return value;
  }
  return ValueFromShapes(node, port, *refiner_);
}

bool ConstantEvaluator::CanFold(const Node& node) const {
  if (node.num_inputs() == 0 || node.type_string() == "PlaceholderWithDefault" ||
      node.IsStateful() || node.IsEnter() || node.IsExit() || node.IsMerge()) {
    return false;
  }
  for (const auto& [name, attr] : node.attrs()) {
    if (attr.has_func() || attr.list().func_size() > 0) return false;
  }
  return HasBuiltinFold(node.type_string()) || folder_ != nullptr;
}

std::optional<Tensor> ConstantEvaluator::Fold(
    const Node& node, int port, const absl::flat_hash_map<NodeOutput, Tensor>& values) const {
  std::vector<Tensor> inputs;
  inputs.reserve(node.num_inputs());
  for (int i = 0; i < node.num_inputs(); ++i) {
    const Edge* e = nullptr;
    if (!node.input_edge(i, &e).ok()) return std::nullopt;
    inputs.push_back(values.at(NodeOutput(e->src(), e->src_output())));
  }
  std::optional<Tensor> result;
  if (HasBuiltinFold(node.type_string())) {
    result = FoldBuiltin(node, port, inputs);
  } else if (folder_ != nullptr) {
    result = folder_(node, port, inputs);
  }
  // A folder answering with the wrong dtype must not mislead shape functions.
  if (result.has_value() && result->dtype() != node.output_type(port)) return std::nullopt;
  return result;
}

void ConstantEvaluator::Remember(const Node& node, int port, const Tensor& value) {
  if (value.TotalBytes() <= kMaxCachedBytes) cache_[NodeOutput(&node, port)] = value;
}

void ConstantEvaluator::Forget(const Node* node) {
  for (int port = 0; port < node->num_outputs(); ++port) cache_.erase(NodeOutput(node, port));
}

absl::StatusOr<std::optional<Tensor>> ConstantEvaluator::Evaluate(const Node& node, int port) {
  if (port < 0 || port >= node.num_outputs()) return std::nullopt;
  ASSIGN_OR_RETURN(std::optional<Tensor> known, KnownValue(node, port));
  if (known.has_value() || !CanFold(node)) return known;

  struct Frame {
    NodeOutput output;
    bool expanded;
  };
  absl::flat_hash_map<NodeOutput, Tensor> values;
  absl::flat_hash_set<NodeOutput> in_progress;
  std::vector<Frame> stack = {{NodeOutput(&node, port), false}};
  int expanded_nodes = 0;
  while (!stack.empty()) {
    const NodeOutput output = stack.back().output;
    const Node& current = *output.first;
    if (values.contains(output)) {
      stack.pop_back();
      continue;
    }
    if (stack.back().expanded) {
      std::optional<Tensor> value = Fold(current, output.second, values);
      if (!value.has_value()) return std::nullopt;
      Remember(current, output.second, *value);
      values.emplace(output, *std::move(value));
      in_progress.erase(output);
      stack.pop_back();
      continue;
    }
    stack.back().expanded = true;
    if (++expanded_nodes > kMaxNodesPerEvaluation || !in_progress.insert(output).second) {
      return std::nullopt;
    }
    for (int i = 0; i < current.num_inputs(); ++i) {
      const Edge* e = nullptr;
      if (!current.input_edge(i, &e).ok()) return std::nullopt;
      const NodeOutput input(e->src(), e->src_output());
      if (values.contains(input)) continue;
      ASSIGN_OR_RETURN(std::optional<Tensor> input_value, KnownValue(*input.first, input.second));
      if (input_value.has_value()) {
        values.emplace(input, *std::move(input_value));
      } else if (CanFold(*input.first)) {
        stack.push_back({input, false});
      } else {
        return std::nullopt;
      }
    }
  }
  return values.at(NodeOutput(&node, port));
}

}  // namespace sluice
