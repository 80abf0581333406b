// NodeBuilder: adds one node to a Graph from its op name, attrs and input Outputs (the part
// of TensorFlow's NodeBuilder that client op wrappers use).
//
// Finalize fills what the inputs imply and the caller did not set (a type attr from the dtype
// of the first input of its args, a number attr from a list's length, a type-list attr from
// the list's dtypes), adds the OpDef's defaults, checks the NodeDef against the OpDef and each
// input's dtype against the arg it feeds, then adds the node, its data edges and its control
// edges. Every failure is a Status (INVALID_ARGUMENT, or the registry's NOT_FOUND for an
// unknown op) and leaves the graph unchanged. The first error met by a setter (an input from
// another graph, a null input) is kept and returned by Finalize.
//
// Not thread-safe; one builder per node.
#ifndef SLUICE_CC_API_NODE_BUILDER_H_
#define SLUICE_CC_API_NODE_BUILDER_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "cc_api/ops.h"
#include "graph/graph.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/node_def_util.h"
#include "proto/node_def.pb.h"

namespace sluice {

class NodeBuilder {
 public:
  NodeBuilder(std::string name, std::string op_name);

  // The next data input: a single tensor arg.
  NodeBuilder& Input(const Output& src);
  // The next data input: a list arg (N * T or list(type)).
  NodeBuilder& Input(absl::Span<const Output> src_list);
  NodeBuilder& ControlInput(Node* src);
  NodeBuilder& ControlInputs(absl::Span<Node* const> src_nodes);
  NodeBuilder& Device(absl::string_view device);
  NodeBuilder& AssignedDevice(absl::string_view device);

  // Sets attr `name` (anything AddNodeAttr accepts), replacing an earlier value.
  template <class T>
  NodeBuilder& Attr(absl::string_view name, T&& value) {
    AddNodeAttr(name, std::forward<T>(value), &def_);
    return *this;
  }
  template <class T>
  NodeBuilder& Attr(absl::string_view name, std::initializer_list<T> value) {
    AddNodeAttr(name, value, &def_);
    return *this;
  }

  const std::string& node_name() const { return def_.name(); }
  const std::string& op_name() const { return def_.op(); }

  // Adds the node to `graph` (see above). On success *created is the node; on error it is
  // left unchanged.
  absl::Status Finalize(Graph* graph, Node** created);

 private:
  // One data arg as given: a single Output, or a list.
  struct Arg {
    bool is_list = false;
    std::vector<Output> outputs;
  };

  // Sets the attrs the inputs imply and the caller left unset.
  absl::Status InferAttrsFromInputs(const OpDef& op_def);
  // Checks each input's dtype against the flat input types of the node.
  absl::Status CheckInputTypes(const DataTypeVector& input_types) const;

  NodeDef def_;
  std::vector<Arg> args_;
  std::vector<Node*> control_inputs_;
  std::string assigned_device_;
  absl::Status status_;
};

}  // namespace sluice

#endif  // SLUICE_CC_API_NODE_BUILDER_H_
