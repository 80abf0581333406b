// NodeDef helpers: reading attrs, checking a NodeDef against its OpDef, and the types and
// index ranges of a node's inputs and outputs.
//
// Everything here takes user-provided NodeDefs and must not crash on them: a missing attr,
// an attr of the wrong type, a negative or huge number attr, a type list of the wrong length
// all come back as a Status. Error messages follow TensorFlow's wording and name the node as
// "{{node n}}" so that error reporters can rewrite it.
//
// Attr getters:
//   GetNodeAttr(attrs, name, &value)     NOT_FOUND if absent ("No attr named 'x' in NodeDef:"),
//                                        INVALID_ARGUMENT if of another type or an int out of
//                                        int32 range (the message names the attr and the node).
//   TryGetNodeAttr(attrs, name, &value)  the same lookups; false on any of those failures,
//                                        leaving *value unchanged.
//   GetNodeAttrOr(attrs, name, fallback) the value, or `fallback` where TryGetNodeAttr fails.
// Both are overloaded for std::string, int64_t, int32_t, float, bool, DataType,
// TensorShapeProto, TensorShape, PartialTensorShape, TensorProto, NameAttrList, std::vector<>
// of std::string/int64_t/int32_t/float/bool/DataType/TensorShape/PartialTensorShape/
// TensorShapeProto/TensorProto/NameAttrList, DataTypeVector, const TensorProto** and
// const NameAttrList** (the last two point into the attr map, valid while it is).
// The vector forms replace *value's contents.
//
// Thread safety: all functions are pure over their arguments; AttrSlice is a read-only view
// and as thread-safe as the map it views.
#ifndef SLUICE_GRAPH_OP_NODE_DEF_UTIL_H_
#define SLUICE_GRAPH_OP_NODE_DEF_UTIL_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/core/types.h"
#include "graph/op/attr_value_util.h"
#include "proto/attr_value.pb.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"
#include "proto/tensor.pb.h"
#include "proto/tensor_shape.pb.h"

namespace sluice {

class TensorShape;
class PartialTensorShape;

using AttrValueMap = google::protobuf::Map<std::string, AttrValue>;

// A read-only view of a set of attrs: a NodeDef's, or a bare map's (a function call's, a
// kernel's). It does not own what it views, which must outlive it; it is cheap to copy.
class AttrSlice {
 public:
  // An empty set of attrs.
  AttrSlice();
  // Implicit on purpose, so that a NodeDef can be passed wherever attrs are read.
  AttrSlice(const NodeDef& node_def);  // NOLINT(google-explicit-constructor)
  // REQUIRES: attrs != nullptr.
  explicit AttrSlice(const AttrValueMap* attrs);

  // The attr named `name`, or nullptr if absent.
  const AttrValue* Find(absl::string_view name) const;
  // As above, but NOT_FOUND "No attr named 'x' in NodeDef:" (plus the node, when known and
  // the name does not start with '_') if absent.
  absl::Status Find(absl::string_view name, const AttrValue** attr_value) const;

  int size() const { return attrs_->size(); }
  AttrValueMap::const_iterator begin() const { return attrs_->begin(); }
  AttrValueMap::const_iterator end() const { return attrs_->end(); }

  // The NodeDef viewed, or nullptr for a bare map.
  const NodeDef* node_def() const { return node_def_; }

  // SummarizeNodeDef of the node, or "[a=1, b=true]" for a bare map.
  std::string SummarizeNode() const;

 private:
  const NodeDef* node_def_;
  const AttrValueMap* attrs_;
};

#define SLUICE_DECLARE_GET_NODE_ATTR(TYPE)                                               \
  absl::Status GetNodeAttr(const AttrSlice& attrs, absl::string_view name, TYPE* value); \
  bool TryGetNodeAttr(const AttrSlice& attrs, absl::string_view name, TYPE* value);
#define SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(TYPE) \
  SLUICE_DECLARE_GET_NODE_ATTR(TYPE)                \
  SLUICE_DECLARE_GET_NODE_ATTR(std::vector<TYPE>)

SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(std::string)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(int64_t)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(int32_t)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(float)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(bool)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(DataType)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(TensorShapeProto)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(TensorShape)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(PartialTensorShape)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(TensorProto)
SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST(NameAttrList)
SLUICE_DECLARE_GET_NODE_ATTR(DataTypeVector)
SLUICE_DECLARE_GET_NODE_ATTR(const TensorProto*)
SLUICE_DECLARE_GET_NODE_ATTR(const NameAttrList*)

#undef SLUICE_DECLARE_GET_NODE_ATTR_AND_LIST
#undef SLUICE_DECLARE_GET_NODE_ATTR

// The value of attr `name`, or `fallback` where TryGetNodeAttr fails (the attr is missing or
// of another type): for passes that read an attr of a node already checked against its OpDef.
template <typename T>
T GetNodeAttrOr(const AttrSlice& attrs, absl::string_view name, T fallback) {
  TryGetNodeAttr(attrs, name, &fallback);
  return fallback;
}

// True if `node_def` has an attr named `name` (of any type).
bool HasNodeAttr(const NodeDef& node_def, absl::string_view name);

// Sets attr `name` of `node_def` to `value`, replacing any value it had. `value` is an
// AttrValue, or anything SetAttrValue accepts (scalars, strings, DataType, shapes, TensorProto,
// NameAttrList, and lists of those as vectors, spans or braced lists).
template <class T>
void AddNodeAttr(absl::string_view name, T&& value, NodeDef* node_def) {
  AttrValue& slot = (*node_def->mutable_attr())[std::string(name)];
  if constexpr (std::is_same_v<std::decay_t<T>, AttrValue>) {
    slot = std::forward<T>(value);
  } else if constexpr (std::is_same_v<std::decay_t<T>, std::vector<bool>>) {
    // std::vector<bool> is packed and cannot be viewed as a Span<const bool>.
    AttrValue attr_value;
    attr_value.mutable_list();
    for (bool b : value) attr_value.mutable_list()->add_b(b);
    slot = std::move(attr_value);
  } else {
    AttrValue attr_value;
    SetAttrValue(std::forward<T>(value), &attr_value);
    slot = std::move(attr_value);
  }
}
template <class T>
void AddNodeAttr(absl::string_view name, std::initializer_list<T> value, NodeDef* node_def) {
  AddNodeAttr(name, absl::Span<const T>(value.begin(), value.size()), node_def);
}

// Checks `node_def` against `op_def` as TensorFlow does: the op names match; control inputs
// ("^x") come after all data inputs and have no ':'; every attr is in the OpDef (names
// starting with '_' are exempt) and its value is valid for it (type, allowed values,
// minimum); every OpDef attr is present; the number of data inputs equals what the OpDef's
// args give once number and type-list attrs are resolved. The NodeDef is checked as if
// AddDefaultsToNodeDef had run first (as TensorFlow's importer does), so only attrs without a
// default are reported missing. INVALID_ARGUMENT on failure, e.g.
//   "NodeDef missing attr 'T' from Op<name=MatMul; ...>; NodeDef: {{node m}}".
absl::Status ValidateNodeDef(const NodeDef& node_def, const OpDef& op_def);
// The same, and on success sets *inputs and *outputs to the flat types validation computed
// (InOutTypesForNode of the NodeDef with defaults added), sparing callers a second
// computation.
absl::Status ValidateNodeDef(const NodeDef& node_def, const OpDef& op_def, DataTypeVector* inputs,
                             DataTypeVector* outputs);

// Adds each attr of `op_def` that has a default and is absent from `node_def`.
void AddDefaultsToNodeDef(const OpDef& op_def, NodeDef* node_def);

// The flat types of a node's inputs and outputs, one per input/output port, with N * T args
// expanded and type lists spliced in; args marked Ref give ref types. The vectors are
// appended to. INVALID_ARGUMENT (naming the node and attr) if an attr the types depend on is
// missing, of the wrong type, or a number attr is negative or too large.
absl::Status InOutTypesForNode(const NodeDef& node_def, const OpDef& op_def, DataTypeVector* inputs,
                               DataTypeVector* outputs);
absl::Status InputTypesForNode(const NodeDef& node_def, const OpDef& op_def,
                               DataTypeVector* inputs);
absl::Status OutputTypesForNode(const NodeDef& node_def, const OpDef& op_def,
                                DataTypeVector* outputs);
// The type of one port; INVALID_ARGUMENT "Input 3 not found for node n" if out of range.
absl::Status InputTypeForNode(const NodeDef& node_def, const OpDef& op_def, int input_port,
                              DataType* input_type);
absl::Status OutputTypeForNode(const NodeDef& node_def, const OpDef& op_def, int output_port,
                               DataType* output_type);
absl::Status NumOutputsForNode(const NodeDef& node_def, const OpDef& op_def, int* num_outputs);

// Arg name -> [start, end) of the flat port indices it covers.
using NameRangeMap = absl::flat_hash_map<std::string, std::pair<int, int>>;
// Fills the ranges of the inputs and/or outputs (either may be null). Same errors as
// InOutTypesForNode.
absl::Status NameRangesForNode(const AttrSlice& attrs, const OpDef& op_def, NameRangeMap* inputs,
                               NameRangeMap* outputs);

// Syntax checks that need no OpDef, for NodeDefs from outside: the name matches
// [A-Za-z0-9.][A-Za-z0-9_>./-]* (each '>'-separated part starting with [A-Za-z0-9.]), each
// input is "node", "node:k" or "^node" with such a node name, and control inputs follow all
// data inputs. INVALID_ARGUMENT "Illegal op name 'x'", "Illegal op input name 'x'" or
// "All control inputs must follow all data inputs", with the node attached.
absl::Status ValidateExternalNodeDefSyntax(const NodeDef& node_def);

// TensorFlow's node-name grammar: parts separated by '>', each [A-Za-z0-9.][A-Za-z0-9_./-]*;
// with `allow_internal`, the first part may also start with '_' (the names of internal ops
// such as _Arg and _Retval nodes, which only Sluice itself imports).
bool IsValidNodeName(absl::string_view name, bool allow_internal = false);

// "{{node n}} = MatMul[T=DT_FLOAT, transpose_a=false](a, b)": attrs sorted by name, the
// device (if any) as a final "_device=\"...\"", inputs verbatim. With max_inputs_in_summary
// >= 0, inputs past that many are shown as "...".
std::string SummarizeNodeDef(const NodeDef& node_def, int max_inputs_in_summary = -1);

// "{{node n}}", or "{{node a}}, {{node b}}" for the original names in the debug info of a
// node that a rewrite produced.
std::string FormatNodeDefForError(const NodeDef& node_def);

// `status` with "\n\t [[{{node n}}]]" appended (same code); OK stays OK. If the message
// already names a node ("{{node "), the plain name is appended instead ("\n\t [[n]]"), so
// that error reporters rewrite only the innermost node.
absl::Status AttachDef(const absl::Status& status, const NodeDef& node_def);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_NODE_DEF_UTIL_H_
