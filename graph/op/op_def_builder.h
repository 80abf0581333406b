// OpDefBuilder: builds an OpDef from TensorFlow's op spec grammar.
//
//   OpDefBuilder("MatMul")
//       .Input("a: T").Input("b: T").Output("product: T")
//       .Attr("transpose_a: bool = false")
//       .Attr("T: {half, float, double, int32}")
//
// The builder only records the specs; Finalize parses them all, reports every malformed
// spec at once as INVALID_ARGUMENT (each message names the spec and the op), and then checks
// the result with ValidateOpDef. Nothing here aborts on bad input.
//
// Grammar (whitespace is allowed between tokens):
//   Attr:    <name>: <type> [>= <int>] [= <default>]
//     <type> is string | int | float | bool | type | shape | tensor | func | list(<type>),
//     or a restriction of "type"/"string": {float, int32}, {'a', "b"}, numbertype,
//     realnumbertype, quantizedtype (also numerictype / realnumerictype). ">= n" is allowed on
//     "int" (a minimum value) and on lists (a minimum length). <default> is proto-text
//     (see ParseAttrValue).
//   Input / Output:   <name>: [Ref(] <type-or-attr> [)]  |  <name>: [Ref(] <attr> * <type-or-attr>
//   [)]
//     where <type-or-attr> is a dtype name ("float"), a "type" attr or a "list(type)" attr, and
//     the "N * ..." form names an "int" attr giving the number of tensors. Attrs referenced by
//     args must be declared (before or after the arg); an "N" attr used as a length gets a
//     minimum of 1 unless it states one, as does a list(type) attr used as an arg's type.
//   Doc:     first paragraph = summary, then description, then "<name>: text" lines that
//     describe args and attrs (continuation lines are de-indented).
//
// Thread-compatible: a builder is used by one thread while it is being filled.
#ifndef SLUICE_GRAPH_OP_OP_DEF_BUILDER_H_
#define SLUICE_GRAPH_OP_OP_DEF_BUILDER_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "proto/op_def.pb.h"

namespace sluice {

namespace shape_inference {
class InferenceContext;
}  // namespace shape_inference

// Computes the output shapes of a node from its inputs' shapes and its attrs.
using OpShapeInferenceFn = std::function<absl::Status(shape_inference::InferenceContext* c)>;

// What the registry keeps per op: its signature and its shape function (may be empty).
struct OpRegistrationData {
  OpRegistrationData() = default;
  explicit OpRegistrationData(OpDef def) : op_def(std::move(def)) {}
  OpRegistrationData(OpDef def, OpShapeInferenceFn fn)
      : op_def(std::move(def)), shape_inference_fn(std::move(fn)) {}

  OpDef op_def;
  OpShapeInferenceFn shape_inference_fn;
};

class OpDefBuilder {
 public:
  // `op_name` is checked by Finalize: [A-Z][a-zA-Z0-9>_]*, or a leading '_' for internal ops.
  explicit OpDefBuilder(std::string op_name);

  // Each call adds one attr / input / output; order of inputs and outputs is kept.
  OpDefBuilder& Attr(std::string spec);
  OpDefBuilder& Input(std::string spec);
  OpDefBuilder& Output(std::string spec);
  // Names a control output of a function-like op (must be unique).
  OpDefBuilder& ControlOutput(std::string name);

  // Flags copied into the OpDef. Stateful ops are never constant-folded or CSE'd; an op
  // with a fixed "resource" arg becomes stateful on its own.
  OpDefBuilder& SetIsCommutative();
  OpDefBuilder& SetIsAggregate();
  OpDefBuilder& SetIsStateful();
  OpDefBuilder& SetAllowsUninitializedInput();
  OpDefBuilder& SetIsDistributedCommunication();

  // Graphs with producer version >= `version` may not use this op.
  OpDefBuilder& Deprecated(int version, std::string explanation);

  // Summary, description and per-arg/attr descriptions (see the grammar above). A
  // "<name>:" line that matches no arg or attr is an error at Finalize.
  OpDefBuilder& Doc(std::string text);

  OpDefBuilder& SetShapeFn(OpShapeInferenceFn fn);

  // Parses every spec into op_reg_data->op_def (replacing it) and copies the shape function.
  // INVALID_ARGUMENT lists every malformed spec, one per line; a well-formed but invalid
  // OpDef fails with ValidateOpDef's error.
  absl::Status Finalize(OpRegistrationData* op_reg_data) const;

  const std::string& op_name() const { return op_def_.name(); }

 private:
  OpDef op_def_;  // name, flags, deprecation and control outputs, set directly
  std::vector<std::string> attrs_;
  std::vector<std::string> inputs_;
  std::vector<std::string> outputs_;
  std::vector<std::string> control_outputs_;
  std::string doc_;
  OpShapeInferenceFn shape_fn_;
  std::vector<std::string> errors_;  // from calls that can fail before Finalize
};

}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_OP_DEF_BUILDER_H_
