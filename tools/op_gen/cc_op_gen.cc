#include "tools/op_gen/cc_op_gen.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "graph/core/types.h"
#include "graph/op/attr_value_util.h"
#include "tools/op_gen/api_names.h"

namespace sluice {
namespace op_gen {
namespace {

// C++ keywords, and names the generated class uses itself.
bool IsReserved(const std::string& name) {
  static const auto* reserved = new std::set<std::string>{
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "class", "compl", "const", "constexpr", "const_cast", "continue",
      "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit",
      "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
      "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
      "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "return", "short",
      "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
      "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // Members and parameters of every wrapper.
      "scope", "attrs", "operation", "node", "Attrs"};
  return reserved->count(name) > 0;
}

std::string SafeName(const std::string& name) { return IsReserved(name) ? name + "_" : name; }

// "transpose_a" -> "TransposeA".
std::string ToCamelCase(const std::string& name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out.push_back(upper ? absl::ascii_toupper(static_cast<unsigned char>(c)) : c);
    upper = false;
  }
  return out;
}

struct AttrType {
  const char* param;    // the setter's / constructor's parameter type
  const char* storage;  // the Attrs member's type (inside std::optional)
  bool is_list;
};

AttrType CppTypeOfAttr(const std::string& type) {
  if (type == "string") return {"absl::string_view", "std::string", false};
  if (type == "int") return {"int64_t", "int64_t", false};
  if (type == "float") return {"float", "float", false};
  if (type == "bool") return {"bool", "bool", false};
  if (type == "type") return {"::sluice::DataType", "::sluice::DataType", false};
  if (type == "shape") {
    return {"::sluice::PartialTensorShape", "::sluice::PartialTensorShape", false};
  }
  if (type == "tensor") return {"::sluice::TensorProto", "::sluice::TensorProto", false};
  if (type == "func") return {"::sluice::NameAttrList", "::sluice::NameAttrList", false};
  if (type == "list(string)") {
    return {"absl::Span<const std::string>", "std::vector<std::string>", true};
  }
  if (type == "list(int)") return {"absl::Span<const int>", "std::vector<int>", true};
  if (type == "list(float)") return {"absl::Span<const float>", "std::vector<float>", true};
  if (type == "list(bool)") return {"absl::Span<const bool>", "std::vector<bool>", true};
  if (type == "list(type)") {
    return {"absl::Span<const ::sluice::DataType>", "std::vector<::sluice::DataType>", true};
  }
  if (type == "list(shape)") {
    return {"absl::Span<const ::sluice::PartialTensorShape>",
            "std::vector<::sluice::PartialTensorShape>", true};
  }
  if (type == "list(tensor)") {
    return {"absl::Span<const ::sluice::TensorProto>", "std::vector<::sluice::TensorProto>", true};
  }
  return {"absl::Span<const ::sluice::NameAttrList>", "std::vector<::sluice::NameAttrList>", true};
}

struct ArgInfo {
  std::string graph_name;
  std::string cpp_name;
  bool is_list = false;
  std::string type;  // for the comment: "T", "N * T", "float", ...
};

struct AttrInfo {
  const OpDef::AttrDef* def = nullptr;
  std::string cpp_name;
  std::string setter;
  AttrType type;
};

// A constructor parameter: inputs[index] or required[index] of its OpInfo.
struct CtorParam {
  bool is_input = false;
  size_t index = 0;
};

struct OpInfo {
  std::string class_name;
  std::vector<std::string> aliases;
  bool internal = false;
  const OpDef* def = nullptr;
  std::vector<ArgInfo> inputs;
  std::vector<ArgInfo> outputs;
  std::vector<AttrInfo> required;
  std::vector<AttrInfo> optional;
  std::vector<std::string> inferred;
  std::vector<CtorParam> ctor_params;
  bool has_list_output = false;
};

ArgInfo MakeArg(const OpDef::ArgDef& arg, const std::string& cpp_name,
                const std::string& class_name) {
  ArgInfo info;
  info.graph_name = arg.name();
  std::string name = cpp_name;
  if (name == class_name) name += "_";
  info.cpp_name = SafeName(name);
  info.is_list = !arg.number_attr().empty() || !arg.type_list_attr().empty();
  std::string type = arg.type_attr().empty() ? DataTypeString(arg.type()) : arg.type_attr();
  if (!arg.type_list_attr().empty()) type = arg.type_list_attr();
  if (!arg.number_attr().empty()) type = absl::StrCat(arg.number_attr(), " * ", type);
  info.type = arg.is_ref() ? absl::StrCat("Ref(", type, ")") : type;
  return info;
}

// `name`'s entry in `renames`, else `name`.
std::string Renamed(const std::map<std::string, std::string>& renames, const std::string& name) {
  auto it = renames.find(name);
  return it == renames.end() ? name : it->second;
}

// The constructor's parameter order: TensorFlow's when it names exactly the op's inputs and
// required attrs (it may not for a custom op that shares a TensorFlow op's name), else the
// inputs then the required attrs.
void OrderParams(const ApiNames& names, OpInfo* info) {
  std::map<std::string, CtorParam> by_name;
  for (size_t i = 0; i < info->inputs.size(); ++i) {
    by_name[info->inputs[i].graph_name] = {true, i};
  }
  for (size_t i = 0; i < info->required.size(); ++i) {
    by_name[info->required[i].def->name()] = {false, i};
  }
  std::set<std::string> seen;
  for (const ApiNames::Param& p : names.params) {
    if (!by_name.count(p.graph_name) || !seen.insert(p.graph_name).second) break;
  }
  if (seen.size() == by_name.size() && names.params.size() == by_name.size()) {
    for (const ApiNames::Param& p : names.params)
      info->ctor_params.push_back(by_name[p.graph_name]);
    return;
  }
  for (size_t i = 0; i < info->inputs.size(); ++i) info->ctor_params.push_back({true, i});
  for (size_t i = 0; i < info->required.size(); ++i) info->ctor_params.push_back({false, i});
}

OpInfo MakeOpInfo(const OpDef& op, const ApiNames& names) {
  OpInfo info;
  info.class_name = names.class_name;
  info.aliases = names.aliases;
  info.internal = names.internal;
  info.def = &op;
  std::map<std::string, std::string> param_names;
  for (const ApiNames::Param& p : names.params) param_names[p.graph_name] = p.cpp_name;
  std::set<std::string> inferred;
  for (const auto& arg : op.input_arg()) {
    info.inputs.push_back(MakeArg(arg, Renamed(param_names, arg.name()), info.class_name));
    for (const std::string* a : {&arg.type_attr(), &arg.number_attr(), &arg.type_list_attr()}) {
      if (!a->empty()) inferred.insert(*a);
    }
  }
  for (const auto& arg : op.output_arg()) {
    info.outputs.push_back(MakeArg(arg, Renamed(names.outputs, arg.name()), info.class_name));
    info.has_list_output |= info.outputs.back().is_list;
  }
  for (const auto& attr : op.attr()) {
    if (inferred.count(attr.name())) {
      info.inferred.push_back(attr.name());
      continue;
    }
    AttrInfo a;
    a.def = &attr;
    a.type = CppTypeOfAttr(attr.type());
    if (attr.has_default_value()) {
      a.cpp_name = SafeName(attr.name());
      auto setter = names.setters.find(attr.name());
      a.setter = setter == names.setters.end() ? ToCamelCase(attr.name()) : setter->second;
      info.optional.push_back(a);
    } else {
      a.cpp_name = SafeName(Renamed(param_names, attr.name()));
      info.required.push_back(a);
    }
  }
  OrderParams(names, &info);
  return info;
}

// "/// " lines of `text`, trailing spaces trimmed.
void AppendComment(const std::string& text, const std::string& indent, std::string* out) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::string l = absl::StrCat(indent, "/// ", line);
    while (!l.empty() && l.back() == ' ') l.pop_back();
    absl::StrAppend(out, l, "\n");
  }
}

std::string AttrDescription(const OpDef::AttrDef& attr) {
  std::string text = absl::StrCat(attr.name(), ": ", attr.type());
  if (attr.has_allowed_values()) {
    absl::StrAppend(&text, " in ", SummarizeAttrValue(attr.allowed_values()));
  }
  if (attr.has_minimum()) absl::StrAppend(&text, ", >= ", attr.minimum());
  if (attr.has_default_value()) {
    absl::StrAppend(&text, ", defaults to ", SummarizeAttrValue(attr.default_value()));
  }
  return text;
}

std::string ClassComment(const OpInfo& op) {
  const OpDef& def = *op.def;
  std::string text;
  if (!def.summary().empty()) absl::StrAppend(&text, def.summary(), "\n\n");
  if (!def.description().empty()) absl::StrAppend(&text, def.description(), "\n\n");
  absl::StrAppend(&text, "Adds a `", def.name(), "` node.\n\nArgs:\n* scope: a Scope\n");
  for (const CtorParam& p : op.ctor_params) {
    if (p.is_input) {
      const ArgInfo& in = op.inputs[p.index];
      absl::StrAppend(&text, "* ", in.cpp_name, ": ", in.type, "\n");
    } else {
      const AttrInfo& a = op.required[p.index];
      const bool renamed = a.cpp_name != a.def->name();
      absl::StrAppend(&text, "* ", renamed ? absl::StrCat(a.cpp_name, ": the attr ") : "",
                      AttrDescription(*a.def), "\n");
    }
  }
  if (!op.optional.empty()) {
    absl::StrAppend(&text, "\nOptional attributes (see `Attrs`):\n");
    for (const AttrInfo& a : op.optional) {
      absl::StrAppend(&text, "* ", AttrDescription(*a.def), "\n");
    }
  }
  if (!op.inferred.empty()) {
    absl::StrAppend(&text, "\nInferred from the inputs: ", absl::StrJoin(op.inferred, ", "), "\n");
  }
  absl::StrAppend(&text, "\nReturns:\n");
  if (op.outputs.empty()) absl::StrAppend(&text, "* the created `Operation`\n");
  for (const ArgInfo& out : op.outputs) {
    absl::StrAppend(&text, "* ", out.is_list ? "`OutputList` " : "`Output` ", out.cpp_name, ": ",
                    out.type, "\n");
  }
  if (def.is_stateful()) absl::StrAppend(&text, "\nStateful.\n");
  return text;
}

// "const ::sluice::Scope& scope, ::sluice::Input a, ..., int64_t num_split".
std::string ParamList(const OpInfo& op) {
  std::vector<std::string> params = {"const ::sluice::Scope& scope"};
  for (const CtorParam& p : op.ctor_params) {
    if (p.is_input) {
      const ArgInfo& in = op.inputs[p.index];
      params.push_back(
          absl::StrCat(in.is_list ? "::sluice::InputList " : "::sluice::Input ", in.cpp_name));
    } else {
      const AttrInfo& a = op.required[p.index];
      params.push_back(absl::StrCat(a.type.param, " ", a.cpp_name));
    }
  }
  return absl::StrJoin(params, ", ");
}

std::string ArgNames(const OpInfo& op) {
  std::vector<std::string> names = {"scope"};
  for (const CtorParam& p : op.ctor_params) {
    names.push_back(p.is_input ? op.inputs[p.index].cpp_name : op.required[p.index].cpp_name);
  }
  return absl::StrJoin(names, ", ");
}

std::string StorageFrom(const AttrInfo& a, const std::string& x) {
  if (a.type.is_list) return absl::StrCat(a.type.storage, "(", x, ".begin(), ", x, ".end())");
  if (std::string(a.type.param) == "absl::string_view") return absl::StrCat("std::string(", x, ")");
  return x;
}

void AppendClass(const OpInfo& op, std::string* h) {
  AppendComment(ClassComment(op), "", h);
  const std::string& c = op.class_name;
  absl::StrAppend(h, "class ", c, " {\n public:\n");
  if (!op.optional.empty()) {
    absl::StrAppend(h, "  /// Optional attribute setters for ", c, ".\n  struct Attrs {\n");
    for (const AttrInfo& a : op.optional) {
      AppendComment(AttrDescription(*a.def), "    ", h);
      absl::StrAppend(h, "    Attrs ", a.setter, "(", a.type.param, " x) const {\n",
                      "      Attrs ret = *this;\n", "      ret.", a.def->name(),
                      "_ = ", StorageFrom(a, "x"), ";\n      return ret;\n    }\n");
    }
    absl::StrAppend(h, "\n");
    for (const AttrInfo& a : op.optional) {
      absl::StrAppend(h, "    std::optional<", a.type.storage, "> ", a.def->name(), "_;\n");
    }
    absl::StrAppend(h, "  };\n");
  }
  absl::StrAppend(h, "  ", c, "(", ParamList(op), ");\n");
  if (!op.optional.empty()) {
    absl::StrAppend(h, "  ", c, "(", ParamList(op), ", const ", c, "::Attrs& attrs);\n");
  }
  const bool single = op.outputs.size() == 1;
  if (op.outputs.empty()) {
    absl::StrAppend(h, "  operator ::sluice::Operation() const { return operation; }\n");
  } else if (single && !op.outputs[0].is_list) {
    const std::string& o = op.outputs[0].cpp_name;
    absl::StrAppend(h, "  operator ::sluice::Output() const { return ", o, "; }\n",
                    "  operator ::sluice::Input() const { return ", o, "; }\n");
  } else if (single) {
    const std::string& o = op.outputs[0].cpp_name;
    absl::StrAppend(h, "  ::sluice::Output operator[](size_t index) const { return ", o,
                    "[index]; }\n", "  operator ::sluice::InputList() const { return ", o, "; }\n");
  }
  absl::StrAppend(h, "  ::sluice::Node* node() const { return operation.node(); }\n");
  for (const AttrInfo& a : op.optional) {
    if (a.setter == c) continue;  // a member may not share the class's name
    absl::StrAppend(h, "\n  static Attrs ", a.setter, "(", a.type.param, " x) {\n",
                    "    return Attrs().", a.setter, "(x);\n  }\n");
  }
  absl::StrAppend(h, "\n  ::sluice::Operation operation;\n");
  for (const ArgInfo& o : op.outputs) {
    absl::StrAppend(h, "  ", o.is_list ? "::sluice::OutputList " : "::sluice::Output ", o.cpp_name,
                    ";\n");
  }
  absl::StrAppend(h, "};\n");
  for (const std::string& alias : op.aliases) absl::StrAppend(h, "using ", alias, " = ", c, ";\n");
  absl::StrAppend(h, "\n");
}

void AppendDefinition(const OpInfo& op, std::string* cc) {
  const std::string& c = op.class_name;
  const bool has_attrs = !op.optional.empty();
  absl::StrAppend(cc, c, "::", c, "(", ParamList(op),
                  has_attrs ? absl::StrCat(", const ", c, "::Attrs& attrs") : "", ") {\n");
  absl::StrAppend(cc, "  if (!scope.ok()) return;\n");
  for (const ArgInfo& in : op.inputs) {
    absl::StrAppend(cc, "  auto _", in.cpp_name,
                    " = ::sluice::ops::", in.is_list ? "AsNodeOutList" : "AsNodeOut", "(scope, ",
                    in.cpp_name, ");\n  if (!scope.ok()) return;\n");
  }
  absl::StrAppend(cc, "  ::sluice::NodeBuilder builder(scope.GetUniqueNameForOp(\"", c, "\"), \"",
                  op.def->name(), "\");\n");
  for (const ArgInfo& in : op.inputs) absl::StrAppend(cc, "  builder.Input(_", in.cpp_name, ");\n");
  for (const AttrInfo& a : op.required) {
    absl::StrAppend(cc, "  builder.Attr(\"", a.def->name(), "\", ", a.cpp_name, ");\n");
  }
  for (const AttrInfo& a : op.optional) {
    absl::StrAppend(cc, "  if (attrs.", a.def->name(), "_) builder.Attr(\"", a.def->name(),
                    "\", *attrs.", a.def->name(), "_);\n");
  }
  absl::StrAppend(
      cc, "  ::sluice::Node* ret = ::sluice::ops::internal::FinishOp(scope, &builder);\n",
      "  if (ret == nullptr) return;\n", "  this->operation = ::sluice::Operation(ret);\n");
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const ArgInfo& o = op.outputs[i];
    if (!op.has_list_output) {
      absl::StrAppend(cc, "  this->", o.cpp_name, " = ::sluice::Output(ret, ", i, ");\n");
      continue;
    }
    absl::StrAppend(cc, "  ::sluice::OutputList _", o.cpp_name,
                    " = ::sluice::ops::internal::OutputsOf(scope, ret, \"", o.graph_name,
                    "\");\n  if (!scope.ok()) return;\n  this->", o.cpp_name, " = ",
                    o.is_list ? absl::StrCat("std::move(_", o.cpp_name, ")")
                              : absl::StrCat("_", o.cpp_name, "[0]"),
                    ";\n");
  }
  absl::StrAppend(cc, "}\n\n");
  if (has_attrs) {
    absl::StrAppend(cc, c, "::", c, "(", ParamList(op), ")\n    : ", c, "(", ArgNames(op), ", ", c,
                    "::Attrs()) {}\n\n");
  }
}

std::string IncludeGuard(const std::string& header_include) {
  std::string guard = "SLUICE_GENERATED_";
  for (char ch : header_include) {
    guard.push_back(absl::ascii_isalnum(static_cast<unsigned char>(ch))
                        ? absl::ascii_toupper(static_cast<unsigned char>(ch))
                        : '_');
  }
  return guard + "_";
}

}  // namespace

GeneratedCode GenerateCcOps(const OpList& ops, const std::string& header_include) {
  std::vector<const OpDef*> sorted;
  for (const OpDef& op : ops.op()) sorted.push_back(&op);
  std::sort(sorted.begin(), sorted.end(),
            [](const OpDef* a, const OpDef* b) { return a->name() < b->name(); });
  const std::string guard = IncludeGuard(header_include);
  GeneratedCode code;
  std::string& h = code.header;
  std::string& cc = code.source;
  absl::StrAppend(&h, "// Generated by //tools/op_gen from the registered OpDefs. Do not edit.\n",
                  "#ifndef ", guard, "\n#define ", guard, "\n\n",
                  "#include <cstddef>\n#include <cstdint>\n#include <optional>\n",
                  "#include <string>\n#include <vector>\n\n",
                  "#include \"absl/strings/string_view.h\"\n#include \"absl/types/span.h\"\n",
                  "#include \"cc_api/const_op.h\"\n#include \"cc_api/ops.h\"\n",
                  "#include \"cc_api/scope.h\"\n#include \"graph/core/partial_tensor_shape.h\"\n",
                  "#include \"graph/core/types.h\"\n#include \"proto/attr_value.pb.h\"\n",
                  "#include \"proto/tensor.pb.h\"\n\nnamespace sluice {\nnamespace ops {\n\n");
  absl::StrAppend(&cc, "// Generated by //tools/op_gen from the registered OpDefs. Do not edit.\n",
                  "#include \"", header_include, "\"\n\n#include <utility>\n\n",
                  "#include \"cc_api/node_builder.h\"\n\nnamespace sluice {\nnamespace ops {\n\n");
  // TensorFlow's hidden ops go into ops::internal, after the others.
  std::vector<OpInfo> public_ops, internal_ops;
  for (const OpDef* op : sorted) {
    if (absl::StartsWith(op->name(), "_") || op->name() == "Const") continue;
    const ApiNames names = ApiNamesForOp(op->name());
    if (!names.visible) continue;
    (names.internal ? internal_ops : public_ops).push_back(MakeOpInfo(*op, names));
  }
  for (const OpInfo& info : public_ops) {
    AppendClass(info, &h);
    AppendDefinition(info, &cc);
  }
  if (!internal_ops.empty()) {
    absl::StrAppend(&h, "namespace internal {\n\n");
    absl::StrAppend(&cc, "namespace internal {\n\n");
    for (const OpInfo& info : internal_ops) {
      AppendClass(info, &h);
      AppendDefinition(info, &cc);
    }
    absl::StrAppend(&h, "}  // namespace internal\n");
    absl::StrAppend(&cc, "}  // namespace internal\n");
  }
  absl::StrAppend(&h, "}  // namespace ops\n}  // namespace sluice\n\n#endif  // ", guard, "\n");
  absl::StrAppend(&cc, "}  // namespace ops\n}  // namespace sluice\n");
  return code;
}

}  // namespace op_gen
}  // namespace sluice
