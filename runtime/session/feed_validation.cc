// Checks of fed values against the graph's dtypes and Placeholder shapes (see the header).
#include "runtime/session/feed_validation.h"

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "graph/tensor_id.h"

namespace sluice {
namespace {

bool IsPlaceholder(const Node& node) {
  const std::string& op = node.type_string();
  return op == "Placeholder" || op == "PlaceholderV2" || op == "PlaceholderWithDefault";
}

}  // namespace

FeedSpec MakeFeedSpec(const Graph& graph, const std::string& name) {
  FeedSpec spec;
  TensorId id;
  if (!ParseTensorNameStrict(name, &id).ok()) return spec;
  spec.tensor = absl::StrCat(id.node, ":", id.index);
  const Node* node = graph.FindNodeByName(id.node);
  if (node == nullptr || id.index < 0 || id.index >= node->num_outputs()) return spec;
  spec.dtype = BaseType(node->output_type(id.index));
  PartialTensorShape shape;
  if (IsPlaceholder(*node) && TryGetNodeAttr(node->def(), "shape", &shape) &&
      !shape.unknown_rank()) {
    spec.shape = shape;
  }
  return spec;
}

absl::Status ValidateFeed(const FeedSpec& spec, int index, const Tensor& value) {
  if (spec.dtype == DT_INVALID) return absl::OkStatus();
  if (value.dtype() != spec.dtype) {
    return errors::InvalidArgument("Expects arg[", index, "] to be ", DataTypeString(spec.dtype),
                                   " but ", DataTypeString(value.dtype()),
                                   " is provided for Tensor ", spec.tensor);
  }
  if (spec.shape.has_value() && !spec.shape->IsCompatibleWith(PartialTensorShape(value.shape()))) {
    return errors::InvalidArgument("Cannot feed value of shape ", value.shape().DebugString(),
                                   " for Tensor ", spec.tensor, ", which has shape ",
                                   spec.shape->DebugString());
  }
  return absl::OkStatus();
}

Tensor AlignedFeed(const Tensor& value) {
  if (value.IsAligned()) return value;
  return value.DeepCopy();
}

}  // namespace sluice
