#include "graph/op/op_def_builder.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/op_def_util.h"

namespace sluice {
namespace {

// ---- Lexing --------------------------------------------------------------------------
// Each Consume* function either matches at the front of *sp, advances *sp past the match
// (and any trailing whitespace) and returns true, or leaves *sp untouched and returns false.

bool IsLetter(char c) { return absl::ascii_isalpha(c); }
bool IsLower(char c) { return absl::ascii_islower(c); }
bool IsWordChar(char c) { return absl::ascii_isalnum(c) || c == '_'; }
bool IsLowerWordChar(char c) {
  return absl::ascii_islower(c) || absl::ascii_isdigit(c) || c == '_';
}

void SkipSpaces(absl::string_view* sp) { *sp = absl::StripLeadingAsciiWhitespace(*sp); }

// Consumes one `first` char then any number of `rest` chars, then whitespace.
bool ConsumeWord(absl::string_view* sp, bool (*first)(char), bool (*rest)(char),
                 absl::string_view* out) {
  if (sp->empty() || !first(sp->front())) return false;
  size_t end = 1;
  while (end < sp->size() && rest((*sp)[end])) ++end;
  *out = sp->substr(0, end);
  sp->remove_prefix(end);
  SkipSpaces(sp);
  return true;
}

// Consumes `literal` then whitespace.
bool ConsumeLiteral(absl::string_view* sp, absl::string_view literal) {
  if (!absl::ConsumePrefix(sp, literal)) return false;
  SkipSpaces(sp);
  return true;
}

// Consumes "<word> :" where the word matches first/rest.
bool ConsumeNameColon(absl::string_view* sp, bool (*first)(char), bool (*rest)(char),
                      absl::string_view* name) {
  absl::string_view s = *sp;
  if (!ConsumeWord(&s, first, rest, name) || !ConsumeLiteral(&s, ":")) return false;
  *sp = s;
  return true;
}

// Consumes "<keyword> (", as in "list(" and "Ref(".
bool ConsumeOpenParen(absl::string_view* sp, absl::string_view keyword) {
  absl::string_view s = *sp;
  if (!ConsumeLiteral(&s, keyword) || !ConsumeLiteral(&s, "(")) return false;
  *sp = s;
  return true;
}

// Consumes a string quoted with `quote` (backslash escapes the next char); *out is the
// text between the quotes, still escaped.
bool ConsumeQuotedString(char quote, absl::string_view* sp, absl::string_view* out) {
  if (sp->empty() || sp->front() != quote) return false;
  size_t i = 1;
  while (i < sp->size() && (*sp)[i] != quote) i += (*sp)[i] == '\\' ? 2 : 1;
  if (i >= sp->size()) return false;
  *out = sp->substr(1, i - 1);
  sp->remove_prefix(i + 1);
  SkipSpaces(sp);
  return true;
}

// Consumes an optionally negative decimal integer.
bool ConsumeInteger(absl::string_view* sp, int64_t* out) {
  absl::string_view s = absl::StripLeadingAsciiWhitespace(*sp);
  size_t end = !s.empty() && s.front() == '-' ? 1 : 0;
  const size_t digits_start = end;
  while (end < s.size() && absl::ascii_isdigit(s[end])) ++end;
  if (end == digits_start || !absl::SimpleAtoi(s.substr(0, end), out)) return false;
  s.remove_prefix(end);
  *sp = absl::StripLeadingAsciiWhitespace(s);
  return true;
}

// ---- Attr specs ----------------------------------------------------------------------

// Adds the members of a type class ("numbertype" ...) to `list`; false if `name` is none.
bool AddTypeClass(absl::string_view name, AttrValue::ListValue* list) {
  DataTypeSlice types;
  if (name == "numbertype" || name == "numerictype") {
    types = NumberTypes();
  } else if (name == "realnumbertype" || name == "realnumerictype") {
    types = RealNumberTypes();
  } else if (name == "quantizedtype") {
    types = QuantizedTypes();
  } else {
    return false;
  }
  for (DataType t : types) list->add_type(t);
  return true;
}

// After ",": true at "}" (a trailing comma is allowed). Without ",", "}" must follow.
absl::Status ConsumeListSeparator(absl::string_view* sp, const char* what, bool* done) {
  if (ConsumeLiteral(sp, ",")) {
    *done = ConsumeLiteral(sp, "}");
    return absl::OkStatus();
  }
  if (!ConsumeLiteral(sp, "}")) {
    return errors::InvalidArgument("Expected , or } after ", what, " in list, not: '", *sp, "'");
  }
  *done = true;
  return absl::OkStatus();
}

// Parses the rest of "{'a', \"b\"}" into allowed string values.
absl::Status ParseAllowedStrings(absl::string_view* sp, AttrValue::ListValue* list) {
  for (bool done = false; !done;) {
    absl::string_view escaped;
    if (!ConsumeQuotedString('"', sp, &escaped) && !ConsumeQuotedString('\'', sp, &escaped)) {
      return errors::InvalidArgument("Trouble parsing allowed string at '", *sp, "'");
    }
    std::string unescaped, error;
    if (!absl::CUnescape(escaped, &unescaped, &error)) {
      return errors::InvalidArgument("Trouble unescaping \"", escaped, "\", got error: ", error);
    }
    list->add_s(unescaped);
    RETURN_IF_ERROR(ConsumeListSeparator(sp, "strings", &done));
  }
  return absl::OkStatus();
}

// Parses the rest of "{float, int32, quantizedtype}" into allowed types.
absl::Status ParseAllowedTypes(absl::string_view* sp, AttrValue::ListValue* list) {
  for (bool done = false; !done;) {
    absl::string_view name;
    if (!ConsumeWord(sp, IsLowerWordChar, IsLowerWordChar, &name)) {
      return errors::InvalidArgument("Trouble parsing type string at '", *sp, "'");
    }
    if (!AddTypeClass(name, list)) {
      DataType dtype;
      if (!DataTypeFromString(name, &dtype)) {
        return errors::InvalidArgument("Unrecognized type string '", name, "'");
      }
      list->add_type(dtype);
    }
    RETURN_IF_ERROR(ConsumeListSeparator(sp, "types", &done));
  }
  return absl::OkStatus();
}

// Parses the attr's base type: a plain type name, a type class, or a "{...}" restriction
// (which sets attr->allowed_values).
absl::Status ParseAttrBaseType(absl::string_view* sp, OpDef::AttrDef* attr, std::string* type) {
  for (const char* name : {"string", "int", "float", "bool", "type", "shape", "tensor", "func"}) {
    if (absl::ConsumePrefix(sp, name)) {
      *type = name;
      return absl::OkStatus();
    }
  }
  for (const char* name :
       {"numbertype", "numerictype", "realnumbertype", "realnumerictype", "quantizedtype"}) {
    if (absl::ConsumePrefix(sp, name)) {
      *type = "type";
      AddTypeClass(name, attr->mutable_allowed_values()->mutable_list());
      return absl::OkStatus();
    }
  }
  if (ConsumeLiteral(sp, "{")) {
    AttrValue::ListValue* list = attr->mutable_allowed_values()->mutable_list();
    if (!sp->empty() && (sp->front() == '"' || sp->front() == '\'')) {
      *type = "string";
      return ParseAllowedStrings(sp, list);
    }
    *type = "type";
    return ParseAllowedTypes(sp, list);
  }
  return errors::InvalidArgument("Trouble parsing type string at '", *sp, "'");
}

// "<name>: <type> [>= <min>] [= <default>]" into `attr`; errors without the spec context.
absl::Status ParseAttrSpec(absl::string_view spec, OpDef::AttrDef* attr) {
  absl::string_view name;
  if (!ConsumeNameColon(&spec, IsLetter, IsWordChar, &name)) {
    return errors::InvalidArgument("Trouble parsing '<name>:'");
  }
  attr->set_name(std::string(name));
  const bool is_list = ConsumeOpenParen(&spec, "list");
  std::string type;
  RETURN_IF_ERROR(ParseAttrBaseType(&spec, attr, &type));
  SkipSpaces(&spec);
  if (is_list) {
    if (!ConsumeLiteral(&spec, ")")) {
      return errors::InvalidArgument("Expected ) to close 'list(', not: '", spec, "'");
    }
    type = absl::StrCat("list(", type, ")");
  }
  attr->set_type(type);

  if ((is_list || type == "int") && absl::ConsumePrefix(&spec, ">=")) {
    int64_t minimum;
    if (!ConsumeInteger(&spec, &minimum)) {
      return errors::InvalidArgument("Could not parse integer lower limit after '>=', found '",
                                     spec, "' instead");
    }
    attr->set_has_minimum(true);
    attr->set_minimum(minimum);
  }
  if (absl::ConsumePrefix(&spec, "=")) {
    SkipSpaces(&spec);
    if (!ParseAttrValue(attr->type(), spec, attr->mutable_default_value())) {
      return errors::InvalidArgument("Could not parse default value '", spec, "'");
    }
  } else if (!spec.empty()) {
    return errors::InvalidArgument("Extra '", spec, "' unparsed at the end");
  }
  return absl::OkStatus();
}

// ---- Input / output specs ------------------------------------------------------------

// Sets the arg's dtype from `type_or_attr`: a dtype name, a "type" attr or a "list(type)"
// attr of `op_def`.
absl::Status SetArgType(absl::string_view type_or_attr, const OpDef& op_def, OpDef::ArgDef* arg) {
  DataType dtype;
  if (DataTypeFromString(type_or_attr, &dtype)) {
    arg->set_type(dtype);
    return absl::OkStatus();
  }
  const OpDef::AttrDef* attr = FindAttr(type_or_attr, op_def);
  if (attr == nullptr) {
    return errors::InvalidArgument("Reference to unknown attr '", type_or_attr, "'");
  }
  if (attr->type() == "type") {
    arg->set_type_attr(std::string(type_or_attr));
  } else if (attr->type() == "list(type)") {
    arg->set_type_list_attr(std::string(type_or_attr));
  } else {
    return errors::InvalidArgument("Reference to attr '", type_or_attr, "' with type ",
                                   attr->type(), " that isn't type or list(type)");
  }
  return absl::OkStatus();
}

// "<name>: [Ref(] [<number_attr> *] <type-or-attr> [)]" into `arg`.
absl::Status ParseArgSpec(absl::string_view spec, const OpDef& op_def, OpDef::ArgDef* arg) {
  absl::string_view name;
  if (!ConsumeNameColon(&spec, IsLower, IsLowerWordChar, &name)) {
    return errors::InvalidArgument("Trouble parsing 'name:'");
  }
  arg->set_name(std::string(name));
  arg->set_is_ref(ConsumeOpenParen(&spec, "Ref"));

  absl::string_view first, second;
  if (!ConsumeWord(&spec, IsLetter, IsWordChar, &first)) {
    return errors::InvalidArgument("Trouble parsing either a type or an attr name at '", spec, "'");
  }
  absl::string_view rest = spec;
  const bool is_list =
      ConsumeLiteral(&rest, "*") && ConsumeWord(&rest, IsLetter, IsWordChar, &second);
  if (is_list) {
    spec = rest;
    arg->set_number_attr(std::string(first));
  }
  RETURN_IF_ERROR(SetArgType(is_list ? second : first, op_def, arg));

  if (arg->is_ref() && !ConsumeLiteral(&spec, ")")) {
    return errors::InvalidArgument("Did not find closing ')' for 'Ref(', instead found: '", spec,
                                   "'");
  }
  if (!spec.empty()) return errors::InvalidArgument("Extra '", spec, "' unparsed at the end");
  return absl::OkStatus();
}

// Attrs used as a list length or as a list of types default to a minimum of 1, and ops
// with a fixed resource arg touch a resource manager, hence are stateful.
void ApplyArgImplications(const OpDef::ArgDef& arg, OpDef* op_def) {
  const std::string& length_attr =
      !arg.number_attr().empty() ? arg.number_attr() : arg.type_list_attr();
  OpDef::AttrDef* attr = length_attr.empty() ? nullptr : FindAttrMutable(length_attr, op_def);
  if (attr != nullptr && !attr->has_minimum() &&
      (!arg.number_attr().empty() || attr->type() == "list(type)")) {
    attr->set_has_minimum(true);
    attr->set_minimum(1);
  }
  if (arg.type() == DT_RESOURCE) op_def->set_is_stateful(true);
}

void FinalizeArg(absl::string_view spec, bool is_output, OpDef* op_def,
                 std::vector<std::string>* errors) {
  OpDef::ArgDef* arg = is_output ? op_def->add_output_arg() : op_def->add_input_arg();
  const absl::Status status = ParseArgSpec(spec, *op_def, arg);
  if (!status.ok()) {
    errors->push_back(absl::StrCat(status.message(), " from ", is_output ? "Output" : "Input",
                                   "(\"", spec, "\") for Op ", op_def->name()));
    return;
  }
  ApplyArgImplications(*arg, op_def);
}

void FinalizeControlOutput(absl::string_view spec, OpDef* op_def,
                           std::vector<std::string>* errors) {
  absl::string_view rest = spec, name;
  if (!ConsumeWord(&rest, IsLetter, IsWordChar, &name) || !rest.empty()) {
    errors->push_back(absl::StrCat("Trouble parsing 'name:' from ControlOutput(\"", spec,
                                   "\") for Op ", op_def->name()));
    return;
  }
  op_def->add_control_output(std::string(name));
}

// ---- Doc -----------------------------------------------------------------------------

bool ConsumeDocName(absl::string_view* line, absl::string_view* name) {
  return ConsumeNameColon(line, IsLetter, IsWordChar, name);
}

bool IsDocNameLine(absl::string_view line) {
  absl::string_view name;
  return ConsumeDocName(&line, &name);
}

// Joins a "name: text" section: the first line's text, then the continuation lines with
// their common indentation removed.
std::string JoinDocSection(std::vector<absl::string_view> lines) {
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  size_t min_indent = std::string::npos;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    min_indent = std::min(min_indent, lines[i].find_first_not_of(' '));
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    if (!lines[i].empty()) lines[i].remove_prefix(std::min(min_indent, lines[i].size()));
  }
  return absl::StrJoin(lines, "\n");
}

bool SetArgOrAttrDescription(absl::string_view name, std::string text, OpDef* op_def) {
  for (auto* args : {op_def->mutable_input_arg(), op_def->mutable_output_arg()}) {
    for (OpDef::ArgDef& arg : *args) {
      if (arg.name() == name) {
        arg.set_description(std::move(text));
        return true;
      }
    }
  }
  OpDef::AttrDef* attr = FindAttrMutable(name, op_def);
  if (attr == nullptr) return false;
  attr->set_description(std::move(text));
  return true;
}

void FinalizeDoc(const std::string& text, OpDef* op_def, std::vector<std::string>* errors) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  for (absl::string_view& line : lines) line = absl::StripTrailingAsciiWhitespace(line);

  size_t l = 0;
  while (l < lines.size() && lines[l].empty()) ++l;
  if (l < lines.size()) op_def->set_summary(std::string(lines[l++]));
  while (l < lines.size() && lines[l].empty()) ++l;

  const size_t start = l;
  while (l < lines.size() && !IsDocNameLine(lines[l])) ++l;
  size_t end = l;
  while (end > start && lines[end - 1].empty()) --end;
  const std::string description = absl::StrJoin(lines.begin() + start, lines.begin() + end, "\n");
  if (!description.empty()) op_def->set_description(description);

  while (l < lines.size()) {
    std::vector<absl::string_view> section = {lines[l++]};
    absl::string_view name;
    ConsumeDocName(&section.front(), &name);
    while (l < lines.size() && !IsDocNameLine(lines[l])) section.push_back(lines[l++]);
    if (!SetArgOrAttrDescription(name, JoinDocSection(std::move(section)), op_def)) {
      errors->push_back(absl::StrCat("No matching input/output/attr for name '", name,
                                     "' from Doc() for Op ", op_def->name()));
      return;
    }
  }
}

}  // namespace

OpDefBuilder::OpDefBuilder(std::string op_name) { op_def_.set_name(std::move(op_name)); }

OpDefBuilder& OpDefBuilder::Attr(std::string spec) {
  attrs_.push_back(std::move(spec));
  return *this;
}

OpDefBuilder& OpDefBuilder::Input(std::string spec) {
  inputs_.push_back(std::move(spec));
  return *this;
}

OpDefBuilder& OpDefBuilder::Output(std::string spec) {
  outputs_.push_back(std::move(spec));
  return *this;
}

OpDefBuilder& OpDefBuilder::ControlOutput(std::string name) {
  control_outputs_.push_back(std::move(name));
  return *this;
}

OpDefBuilder& OpDefBuilder::SetIsCommutative() {
  op_def_.set_is_commutative(true);
  return *this;
}

OpDefBuilder& OpDefBuilder::SetIsAggregate() {
  op_def_.set_is_aggregate(true);
  return *this;
}

OpDefBuilder& OpDefBuilder::SetIsStateful() {
  op_def_.set_is_stateful(true);
  return *this;
}

OpDefBuilder& OpDefBuilder::SetAllowsUninitializedInput() {
  op_def_.set_allows_uninitialized_input(true);
  return *this;
}

OpDefBuilder& OpDefBuilder::SetIsDistributedCommunication() {
  op_def_.set_is_distributed_communication(true);
  return *this;
}

OpDefBuilder& OpDefBuilder::Deprecated(int version, std::string explanation) {
  if (op_def_.has_deprecation()) {
    errors_.push_back(absl::StrCat("Deprecated called twice for Op ", op_def_.name()));
  } else {
    op_def_.mutable_deprecation()->set_version(version);
    op_def_.mutable_deprecation()->set_explanation(std::move(explanation));
  }
  return *this;
}

OpDefBuilder& OpDefBuilder::Doc(std::string text) {
  if (!doc_.empty()) {
    errors_.push_back(absl::StrCat("Extra call to Doc() for Op ", op_def_.name()));
  } else {
    doc_ = std::move(text);
  }
  return *this;
}

OpDefBuilder& OpDefBuilder::SetShapeFn(OpShapeInferenceFn fn) {
  if (shape_fn_ != nullptr) {
    errors_.push_back(absl::StrCat("SetShapeFn called twice for Op ", op_def_.name()));
  } else {
    shape_fn_ = std::move(fn);
  }
  return *this;
}

absl::Status OpDefBuilder::Finalize(OpRegistrationData* op_reg_data) const {
  std::vector<std::string> errors = errors_;
  OpRegistrationData data(op_def_, shape_fn_);
  OpDef* op_def = &data.op_def;
  // Attrs first, so that args may refer to attrs declared after them.
  for (const std::string& spec : attrs_) {
    const absl::Status status = ParseAttrSpec(spec, op_def->add_attr());
    if (!status.ok()) {
      errors.push_back(
          absl::StrCat(status.message(), " from Attr(\"", spec, "\") for Op ", op_def->name()));
    }
  }
  for (const std::string& spec : inputs_) FinalizeArg(spec, /*is_output=*/false, op_def, &errors);
  for (const std::string& spec : outputs_) FinalizeArg(spec, /*is_output=*/true, op_def, &errors);
  for (const std::string& name : control_outputs_) FinalizeControlOutput(name, op_def, &errors);
  FinalizeDoc(doc_, op_def, &errors);

  *op_reg_data = std::move(data);
  if (!errors.empty()) return errors::InvalidArgument(absl::StrJoin(errors, "\n"));
  return ValidateOpDef(op_reg_data->op_def);
}

}  // namespace sluice
