#include "graph/op/op_def_util.h"

#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/op/attr_value_util.h"

namespace sluice {
namespace {

constexpr const char* kAttrBaseTypes[] = {"string", "int",   "float",  "bool",
                                          "type",   "shape", "tensor", "func"};

absl::Status AllowedTypeValue(DataType dtype, const OpDef::AttrDef& attr) {
  const auto& allowed = attr.allowed_values().list().type();
  for (int t : allowed) {
    if (t == dtype) return absl::OkStatus();
  }
  std::vector<std::string> names;
  for (int t : allowed) names.push_back(DataTypeString(static_cast<DataType>(t)));
  return errors::InvalidArgument(
      "Value for attr '", attr.name(), "' of ", DataTypeString(dtype),
      " is not in the list of allowed values: ", absl::StrJoin(names, ", "));
}

absl::Status AllowedStringValue(const std::string& value, const OpDef::AttrDef& attr) {
  const auto& allowed = attr.allowed_values().list().s();
  for (const std::string& s : allowed) {
    if (s == value) return absl::OkStatus();
  }
  std::vector<std::string> quoted;
  for (const std::string& s : allowed) quoted.push_back(absl::StrCat("\"", s, "\""));
  return errors::InvalidArgument(
      "Value for attr '", attr.name(), "' of \"", value,
      "\" is not in the list of allowed values: ", absl::StrJoin(quoted, ", "));
}

// The length of a list value of attr type `type` ("list(int)" ...); -1 for other types.
int ListLength(const AttrValue& value, absl::string_view type) {
  const AttrValue::ListValue& list = value.list();
  if (type == "list(string)") return list.s_size();
  if (type == "list(int)") return list.i_size();
  if (type == "list(float)") return list.f_size();
  if (type == "list(bool)") return list.b_size();
  if (type == "list(type)") return list.type_size();
  if (type == "list(shape)") return list.shape_size();
  if (type == "list(tensor)") return list.tensor_size();
  if (type == "list(func)") return list.func_size();
  return -1;
}

absl::Status CheckMinimum(const AttrValue& value, const OpDef::AttrDef& attr) {
  if (attr.type() == "int") {
    if (value.i() < attr.minimum()) {
      return errors::InvalidArgument("Value for attr '", attr.name(), "' of ", value.i(),
                                     " must be at least minimum ", attr.minimum());
    }
    return absl::OkStatus();
  }
  const int length = ListLength(value, attr.type());
  if (length < attr.minimum()) {
    return errors::InvalidArgument("Length for attr '", attr.name(), "' of ", length,
                                   " must be at least minimum ", attr.minimum());
  }
  return absl::OkStatus();
}

absl::Status CheckAllowedValues(const AttrValue& value, const OpDef::AttrDef& attr) {
  if (attr.type() == "type") return AllowedTypeValue(value.type(), attr);
  if (attr.type() == "list(type)") {
    for (int t : value.list().type()) {
      RETURN_IF_ERROR(AllowedTypeValue(static_cast<DataType>(t), attr));
    }
    return absl::OkStatus();
  }
  if (attr.type() == "string") return AllowedStringValue(value.s(), attr);
  if (attr.type() == "list(string)") {
    for (const std::string& s : value.list().s()) RETURN_IF_ERROR(AllowedStringValue(s, attr));
    return absl::OkStatus();
  }
  return errors::Unimplemented("Support for allowed_values not implemented for type ", attr.type());
}

// [A-Z][a-zA-Z0-9_]* segments joined by '>' (the namespace separator).
bool IsValidOpName(absl::string_view name) {
  bool segment_start = true;
  for (char c : name) {
    if (segment_start) {
      if (!absl::ascii_isupper(c)) return false;
      segment_start = false;
    } else if (c == '>') {
      segment_start = true;
    } else if (!absl::ascii_isalnum(c) && c != '_') {
      return false;
    }
  }
  return !segment_start;
}

#define VALIDATE(expr, ...)                                                                   \
  do {                                                                                        \
    if (!(expr)) {                                                                            \
      return errors::InvalidArgument(__VA_ARGS__, "; in OpDef: ", op_def.ShortDebugString()); \
    }                                                                                         \
  } while (false)

absl::Status ValidateAttrDef(const OpDef::AttrDef& attr, const OpDef& op_def) {
  DataType dtype;
  VALIDATE(!DataTypeFromString(attr.name(), &dtype), "Attr can't have name ", attr.name(),
           " that matches a data type");

  absl::string_view type(attr.type());
  const bool is_list = absl::ConsumePrefix(&type, "list(");
  bool found = false;
  for (const char* base : kAttrBaseTypes) {
    if (absl::ConsumePrefix(&type, base)) {
      found = true;
      break;
    }
  }
  VALIDATE(found, "Unrecognized type '", type, "' in attr '", attr.name(), "'");
  if (is_list) {
    VALIDATE(absl::ConsumePrefix(&type, ")"), "'list(' is missing ')' in attr ", attr.name(),
             "'s type ", attr.type());
  }
  VALIDATE(type.empty(), "Extra '", type, "' at the end of attr ", attr.name(), "'s type ",
           attr.type());

  if (attr.has_minimum()) {
    VALIDATE(attr.type() == "int" || is_list, "Attr '", attr.name(),
             "' has minimum for unsupported type ", attr.type());
    if (is_list) {
      VALIDATE(attr.minimum() >= 0, "Attr '", attr.name(),
               "' with list type must have a non-negative minimum, not ", attr.minimum());
    }
  } else {
    VALIDATE(attr.minimum() == 0, "Attr '", attr.name(), "' with has_minimum = false but minimum ",
             attr.minimum(), " not equal to default of 0");
  }

  if (attr.has_allowed_values()) {
    const std::string list_type = is_list ? attr.type() : absl::StrCat("list(", attr.type(), ")");
    RETURN_IF_ERROR(errors::AppendToMessage(AttrValueHasType(attr.allowed_values(), list_type),
                                            "\n\t for attr '", attr.name(), "' in Op '",
                                            op_def.name(), "'"));
  }
  // Last, so that ValidateAttrValue may rely on the checks above.
  if (attr.has_default_value()) {
    RETURN_IF_ERROR(errors::AppendToMessage(ValidateAttrValue(attr.default_value(), attr),
                                            "\n\t in Op '", op_def.name(), "'"));
  }
  return absl::OkStatus();
}

absl::Status ValidateNumberAttr(const OpDef::ArgDef& arg, const OpDef& op_def,
                                const std::string& suffix) {
  const OpDef::AttrDef* attr = FindAttr(arg.number_attr(), op_def);
  VALIDATE(attr != nullptr, "No attr with name '", arg.number_attr(), "'", suffix);
  VALIDATE(attr->type() == "int", "Attr '", attr->name(), "' used as length", suffix, " has type ",
           attr->type(), " != int");
  VALIDATE(attr->has_minimum(), "Attr '", attr->name(), "' used as length", suffix,
           " must have minimum");
  VALIDATE(attr->minimum() >= 0, "Attr '", attr->name(), "' used as length", suffix,
           " must have minimum >= 0");
  VALIDATE(arg.type_list_attr().empty(), "Can't have both number_attr and type_list_attr", suffix);
  VALIDATE((arg.type() != DT_INVALID) + !arg.type_attr().empty() == 1,
           "Exactly one of type, type_attr must be set", suffix);
  return absl::OkStatus();
}

absl::Status ValidateArg(const OpDef::ArgDef& arg, const OpDef& op_def, bool output,
                         std::set<std::string>* names) {
  const std::string suffix =
      absl::StrCat(output ? " for output '" : " for input '", arg.name(), "'");
  VALIDATE(names->insert(arg.name()).second, "Duplicate name: ", arg.name());
  const int num_type_fields =
      (arg.type() != DT_INVALID) + !arg.type_attr().empty() + !arg.type_list_attr().empty();
  VALIDATE(num_type_fields > 0, "Missing type", suffix);

  if (!arg.number_attr().empty()) {
    RETURN_IF_ERROR(ValidateNumberAttr(arg, op_def, suffix));
  } else {
    VALIDATE(num_type_fields == 1, "Exactly one of type, type_attr, type_list_attr must be set",
             suffix);
  }

  if (!arg.type_attr().empty()) {
    const OpDef::AttrDef* attr = FindAttr(arg.type_attr(), op_def);
    VALIDATE(attr != nullptr, "No attr with name '", arg.type_attr(), "'", suffix);
    VALIDATE(attr->type() == "type", "Attr '", attr->name(), "' used as type_attr", suffix,
             " has type ", attr->type(), " != type");
  } else if (!arg.type_list_attr().empty()) {
    const OpDef::AttrDef* attr = FindAttr(arg.type_list_attr(), op_def);
    VALIDATE(attr != nullptr, "No attr with name '", arg.type_list_attr(), "'", suffix);
    VALIDATE(attr->type() == "list(type)", "Attr '", attr->name(), "' used as type_list_attr",
             suffix, " has type ", attr->type(), " != list(type)");
  } else {
    // Ref-ness is ArgDef.is_ref; the dtype itself must be a plain type.
    VALIDATE(!IsRefType(arg.type()), "Illegal use of ref type '", DataTypeString(arg.type()),
             "'. Use 'Ref(type)' instead", suffix);
  }
  return absl::OkStatus();
}

absl::Status ValidateControlOutputs(const OpDef& op_def) {
  std::set<std::string> seen;
  for (const std::string& name : op_def.control_output()) {
    VALIDATE(seen.insert(name).second, "Duplicate control output name: ", name);
  }
  return absl::OkStatus();
}

#undef VALIDATE

std::string SummarizeArgs(const google::protobuf::RepeatedPtrField<OpDef::ArgDef>& args) {
  std::string out;
  for (const OpDef::ArgDef& arg : args) {
    if (!out.empty()) out.append(", ");
    absl::StrAppend(&out, arg.name(), ":");
    if (arg.is_ref()) out.append("Ref(");
    if (!arg.number_attr().empty()) absl::StrAppend(&out, arg.number_attr(), "*");
    if (arg.type() != DT_INVALID) {
      out.append(DataTypeString(arg.type()));
    } else if (!arg.type_attr().empty()) {
      out.append(arg.type_attr());
    } else {
      out.append(arg.type_list_attr());
    }
    if (arg.is_ref()) out.append(")");
  }
  return out;
}

}  // namespace

absl::Status ValidateAttrValue(const AttrValue& attr_value, const OpDef::AttrDef& attr) {
  RETURN_IF_ERROR(errors::AppendToMessage(AttrValueHasType(attr_value, attr.type()),
                                          "\n\t for attr '", attr.name(), "'"));
  if (attr.has_minimum()) RETURN_IF_ERROR(CheckMinimum(attr_value, attr));
  if (attr.has_allowed_values()) RETURN_IF_ERROR(CheckAllowedValues(attr_value, attr));
  return absl::OkStatus();
}

absl::Status ValidateOpDef(const OpDef& op_def) {
  if (!absl::StartsWith(op_def.name(), "_") && !IsValidOpName(op_def.name())) {
    return errors::InvalidArgument("Invalid name: ", op_def.name(), " (Did you use CamelCase?)",
                                   "; in OpDef: ", op_def.ShortDebugString());
  }
  std::set<std::string> names;  // attrs and args share one namespace
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (!names.insert(attr.name()).second) {
      return errors::InvalidArgument("Duplicate name: ", attr.name(),
                                     "; in OpDef: ", op_def.ShortDebugString());
    }
    RETURN_IF_ERROR(ValidateAttrDef(attr, op_def));
  }
  for (const OpDef::ArgDef& arg : op_def.input_arg()) {
    RETURN_IF_ERROR(ValidateArg(arg, op_def, /*output=*/false, &names));
  }
  for (const OpDef::ArgDef& arg : op_def.output_arg()) {
    RETURN_IF_ERROR(ValidateArg(arg, op_def, /*output=*/true, &names));
  }
  return ValidateControlOutputs(op_def);
}

const OpDef::AttrDef* FindAttr(absl::string_view name, const OpDef& op_def) {
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}

OpDef::AttrDef* FindAttrMutable(absl::string_view name, OpDef* op_def) {
  for (OpDef::AttrDef& attr : *op_def->mutable_attr()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}

const OpDef::ArgDef* FindInputArg(absl::string_view name, const OpDef& op_def) {
  for (const OpDef::ArgDef& arg : op_def.input_arg()) {
    if (arg.name() == name) return &arg;
  }
  return nullptr;
}

std::string SummarizeOpDef(const OpDef& op_def) {
  std::string out =
      absl::StrCat("Op<name=", op_def.name(), "; signature=", SummarizeArgs(op_def.input_arg()),
                   " -> ", SummarizeArgs(op_def.output_arg()));
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    absl::StrAppend(&out, "; attr=", attr.name(), ":", attr.type());
    if (attr.has_default_value()) {
      absl::StrAppend(&out, ",default=", SummarizeAttrValue(attr.default_value()));
    }
    if (attr.has_minimum()) absl::StrAppend(&out, ",min=", attr.minimum());
    if (attr.has_allowed_values()) {
      absl::StrAppend(&out, ",allowed=", SummarizeAttrValue(attr.allowed_values()));
    }
  }
  if (op_def.is_commutative()) out.append("; is_commutative=true");
  if (op_def.is_aggregate()) out.append("; is_aggregate=true");
  if (op_def.is_stateful()) out.append("; is_stateful=true");
  if (op_def.allows_uninitialized_input()) out.append("; allows_uninitialized_input=true");
  if (op_def.is_distributed_communication()) out.append("; is_distributed_communication=true");
  out.append(">");
  return out;
}

}  // namespace sluice
