// Checks and lookups over OpDefs (the signature of an op).
//
// ValidateOpDef enforces TensorFlow's rules for a well-formed OpDef: op, arg and attr names,
// unique attr and arg names, known attr types, args whose dtypes come from exactly one of a
// fixed type / a "type" attr / a "list(type)" attr, number attrs of type "int" with minimum
// >= 0, and defaults that satisfy their attr's type, allowed values and minimum.
// ValidateAttrValue checks one value against one AttrDef.
//
// All functions are pure and thread-compatible.
#ifndef SLUICE_GRAPH_OP_OP_DEF_UTIL_H_
#define SLUICE_GRAPH_OP_OP_DEF_UTIL_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/attr_value.pb.h"
#include "proto/op_def.pb.h"

namespace sluice {

// OK, or INVALID_ARGUMENT naming the op and the offending attr or arg.
absl::Status ValidateOpDef(const OpDef& op_def);

// OK if `attr_value` has attr.type(), is in attr.allowed_values (when set) and meets
// attr.minimum (when set). INVALID_ARGUMENT otherwise, in TensorFlow's wording, e.g.
// "Value for attr 'T' of int8 is not in the list of allowed values: float, double".
absl::Status ValidateAttrValue(const AttrValue& attr_value, const OpDef::AttrDef& attr);

// nullptr when absent.
const OpDef::AttrDef* FindAttr(absl::string_view name, const OpDef& op_def);
OpDef::AttrDef* FindAttrMutable(absl::string_view name, OpDef* op_def);
const OpDef::ArgDef* FindInputArg(absl::string_view name, const OpDef& op_def);

// One line: "Op<name=MatMul; signature=a:T, b:T -> product:T; attr=transpose_a:bool,
// default=false; ...; is_commutative=true>".
std::string SummarizeOpDef(const OpDef& op_def);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_OP_DEF_UTIL_H_
