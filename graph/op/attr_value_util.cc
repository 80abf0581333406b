#include "graph/op/attr_value_util.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/op/attr_value_tensor.h"

namespace sluice {
namespace {

using attr_value_internal::FloatToString;
using attr_value_internal::Hash64;
using attr_value_internal::Hash64Combine;

constexpr size_t kMaxStringSummary = 80;  // longer escaped strings keep 10 chars each end
constexpr size_t kMaxListSummary = 15;    // longer lists keep 5 items each end

// The value kinds an attr can hold, with the oneof case and list field of each.
struct AttrKind {
  const char* name;
  AttrValue::ValueCase single_case;
  int (*list_size)(const AttrValue::ListValue&);
  const char* field;  // the AttrValue field name, for text parsing
};

const AttrKind kAttrKinds[] = {
    {"string", AttrValue::kS, [](const AttrValue::ListValue& l) { return l.s_size(); }, "s"},
    {"int", AttrValue::kI, [](const AttrValue::ListValue& l) { return l.i_size(); }, "i"},
    {"float", AttrValue::kF, [](const AttrValue::ListValue& l) { return l.f_size(); }, "f"},
    {"bool", AttrValue::kB, [](const AttrValue::ListValue& l) { return l.b_size(); }, "b"},
    {"type", AttrValue::kType, [](const AttrValue::ListValue& l) { return l.type_size(); }, "type"},
    {"shape", AttrValue::kShape, [](const AttrValue::ListValue& l) { return l.shape_size(); },
     "shape"},
    {"tensor", AttrValue::kTensor, [](const AttrValue::ListValue& l) { return l.tensor_size(); },
     "tensor"},
    {"func", AttrValue::kFunc, [](const AttrValue::ListValue& l) { return l.func_size(); }, "func"},
};

std::string SummarizeString(const std::string& s) {
  const std::string escaped = absl::CEscape(s);
  if (escaped.size() >= kMaxStringSummary) {
    return absl::StrCat("\"", escaped.substr(0, 10), "...", escaped.substr(escaped.size() - 10),
                        "\"");
  }
  return absl::StrCat("\"", escaped, "\"");
}

std::string SummarizeShape(const TensorShapeProto& shape) {
  if (shape.unknown_rank()) return "<unknown>";
  std::string out = "[";
  for (int i = 0; i < shape.dim_size(); ++i) {
    if (i > 0) out.append(",");
    const int64_t size = shape.dim(i).size();
    out.append(size < 0 ? "?" : absl::StrCat(size));
  }
  out.append("]");
  return out;
}

std::string SummarizeFunc(const NameAttrList& func) {
  std::vector<std::string> entries;
  for (const auto& entry : func.attr()) {
    entries.push_back(absl::StrCat(entry.first, "=", SummarizeAttrValue(entry.second)));
  }
  std::sort(entries.begin(), entries.end());
  return absl::StrCat(func.name(), "[", absl::StrJoin(entries, ", "), "]");
}

// Renders the first non-empty field of `list`, as TensorFlow does (a list holds one kind).
std::vector<std::string> SummarizeListItems(const AttrValue::ListValue& list) {
  std::vector<std::string> items;
  if (list.s_size() > 0) {
    for (const std::string& s : list.s()) items.push_back(SummarizeString(s));
  } else if (list.i_size() > 0) {
    for (int64_t i : list.i()) items.push_back(absl::StrCat(i));
  } else if (list.f_size() > 0) {
    for (float f : list.f()) items.push_back(FloatToString(f));
  } else if (list.b_size() > 0) {
    for (bool b : list.b()) items.push_back(b ? "true" : "false");
  } else if (list.type_size() > 0) {
    for (int t : list.type()) items.push_back(DataTypeEnumName(static_cast<DataType>(t)));
  } else if (list.shape_size() > 0) {
    for (const TensorShapeProto& s : list.shape()) items.push_back(SummarizeShape(s));
  } else if (list.tensor_size() > 0) {
    for (const TensorProto& t : list.tensor()) {
      items.push_back(attr_value_internal::SummarizeTensorProto(t));
    }
  } else if (list.func_size() > 0) {
    for (const NameAttrList& f : list.func()) items.push_back(SummarizeFunc(f));
  }
  return items;
}

std::string SummarizeList(const AttrValue::ListValue& list) {
  std::vector<std::string> items = SummarizeListItems(list);
  if (items.size() >= kMaxListSummary) {
    items.erase(items.begin() + 6, items.end() - 5);
    items[5] = "...";
  }
  return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
}

absl::Status CheckDataType(DataType dtype, bool in_list) {
  if (!DataType_IsValid(dtype)) {
    return errors::InvalidArgument("AttrValue has invalid DataType enum: ",
                                   static_cast<int>(dtype));
  }
  if (IsRefType(dtype)) {
    return errors::InvalidArgument("AttrValue must not have reference type value of ",
                                   DataTypeString(dtype));
  }
  if (dtype == DT_INVALID) {
    return errors::InvalidArgument(in_list ? "AttrValue contains invalid DataType"
                                           : "AttrValue has invalid DataType");
  }
  return absl::OkStatus();
}

// Swallows TextFormat's diagnostics: a default that does not parse is reported by the
// caller, naming the spec, rather than logged by protobuf.
class SilentErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
};

// ---- Equality and hashing ------------------------------------------------------------

template <typename T>
absl::string_view BytesOf(const T& value) {
  return absl::string_view(reinterpret_cast<const char*>(&value), sizeof(T));
}

// Floats compare and hash by their bits, so equality and hashing agree on NaN and -0.0.
bool FloatsEqual(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

template <typename Repeated, typename Eq>
bool RepeatedEqual(const Repeated& a, const Repeated& b, Eq eq) {
  if (a.size() != b.size()) return false;
  for (int i = 0; i < a.size(); ++i) {
    if (!eq(a.Get(i), b.Get(i))) return false;
  }
  return true;
}

bool ShapesEqual(const TensorShapeProto& a, const TensorShapeProto& b) {
  return a.SerializeAsString() == b.SerializeAsString();
}

bool FuncsEqual(const NameAttrList& a, const NameAttrList& b) {
  if (a.name() != b.name() || a.attr_size() != b.attr_size()) return false;
  for (const auto& entry : a.attr()) {
    auto it = b.attr().find(entry.first);
    if (it == b.attr().end() || !AreAttrValuesEqual(entry.second, it->second)) return false;
  }
  return true;
}

bool ListsEqual(const AttrValue::ListValue& a, const AttrValue::ListValue& b) {
  auto same = [](const auto& x, const auto& y) { return x == y; };
  return RepeatedEqual(a.s(), b.s(), same) && RepeatedEqual(a.i(), b.i(), same) &&
         RepeatedEqual(a.f(), b.f(), FloatsEqual) && RepeatedEqual(a.b(), b.b(), same) &&
         RepeatedEqual(a.type(), b.type(), same) &&
         RepeatedEqual(a.shape(), b.shape(), ShapesEqual) &&
         RepeatedEqual(a.tensor(), b.tensor(), attr_value_internal::AreTensorProtosEqual) &&
         RepeatedEqual(a.func(), b.func(), FuncsEqual);
}

uint64_t FuncHash(const NameAttrList& func, uint64_t seed) {
  uint64_t h = Hash64(func.name(), seed);
  const std::map<std::string, AttrValue> sorted(func.attr().begin(), func.attr().end());
  for (const auto& entry : sorted) {
    h = Hash64Combine(Hash64(entry.first, h), AttrValueHash(entry.second));
  }
  return h;
}

uint64_t ListHash(const AttrValue::ListValue& list, uint64_t h) {
  // Elements are tagged with their field, so [1] and [true] differ; empty lists of every
  // kind hash alike, as AreAttrValuesEqual finds them equal.
  for (const std::string& s : list.s()) h = Hash64(s, Hash64("s", h));
  for (int64_t i : list.i()) h = Hash64(BytesOf(i), Hash64("i", h));
  for (float f : list.f()) h = Hash64(BytesOf(f), Hash64("f", h));
  for (bool b : list.b()) h = Hash64(b ? "1" : "0", Hash64("b", h));
  for (int t : list.type()) h = Hash64(BytesOf(t), Hash64("t", h));
  for (const TensorShapeProto& s : list.shape()) h = Hash64(s.SerializeAsString(), h);
  for (const TensorProto& t : list.tensor()) {
    h = Hash64Combine(h, attr_value_internal::TensorProtoHash(t));
  }
  for (const NameAttrList& f : list.func()) h = FuncHash(f, h);
  return h;
}

template <typename Field, typename T>
void SetList(absl::Span<const T> values, Field* (AttrValue::ListValue::*field)(), AttrValue* out) {
  out->mutable_list()->Clear();  // an empty input still marks the value as a list
  auto* repeated = (out->mutable_list()->*field)();
  for (const T& v : values) *repeated->Add() = v;
}

}  // namespace

std::string SummarizeAttrValue(const AttrValue& value) {
  switch (value.value_case()) {
    case AttrValue::kS:
      return SummarizeString(value.s());
    case AttrValue::kI:
      return absl::StrCat(value.i());
    case AttrValue::kF:
      return FloatToString(value.f());
    case AttrValue::kB:
      return value.b() ? "true" : "false";
    case AttrValue::kType:
      return DataTypeEnumName(value.type());
    case AttrValue::kShape:
      return SummarizeShape(value.shape());
    case AttrValue::kTensor:
      return attr_value_internal::SummarizeTensorProto(value.tensor());
    case AttrValue::kList:
      return SummarizeList(value.list());
    case AttrValue::kFunc:
      return SummarizeFunc(value.func());
    case AttrValue::kPlaceholder:
      return absl::StrCat("$", value.placeholder());
    case AttrValue::VALUE_NOT_SET:
      break;
  }
  return "<Unknown AttrValue type>";
}

absl::Status AttrValueHasType(const AttrValue& value, absl::string_view type) {
  int num_set = 0;
  for (const AttrKind& kind : kAttrKinds) {
    if (value.has_list()) {
      if (kind.list_size(value.list()) == 0) continue;
      const std::string list_type = absl::StrCat("list(", kind.name, ")");
      if (type != list_type) {
        return errors::InvalidArgument("AttrValue had value with type '", list_type, "' when '",
                                       type, "' expected");
      }
      ++num_set;
    } else if (value.value_case() == kind.single_case) {
      if (type != kind.name) {
        return errors::InvalidArgument("AttrValue had value with type '", kind.name, "' when '",
                                       type, "' expected");
      }
      ++num_set;
    }
  }
  if (value.value_case() == AttrValue::kPlaceholder) {
    return errors::InvalidArgument("AttrValue had value with unexpected type 'placeholder'");
  }
  // An empty list may arrive with no field set at all (proto3 drops it in old GraphDefs).
  const bool list_type = absl::StartsWith(type, "list(");
  if (num_set == 0 && !list_type) {
    return errors::InvalidArgument("AttrValue missing value with expected type '", type, "'");
  }
  if (type == "type") return CheckDataType(value.type(), /*in_list=*/false);
  if (type == "list(type)") {
    for (int t : value.list().type()) {
      RETURN_IF_ERROR(CheckDataType(static_cast<DataType>(t), /*in_list=*/true));
    }
  }
  return absl::OkStatus();
}

bool ParseAttrValue(absl::string_view type, absl::string_view text, AttrValue* out) {
  absl::string_view base = type;
  const bool is_list = absl::ConsumePrefix(&base, "list(");
  if (is_list && !absl::ConsumeSuffix(&base, ")")) return false;
  const char* field = base == "placeholder" ? "placeholder" : nullptr;
  for (const AttrKind& kind : kAttrKinds) {
    if (base == kind.name) field = kind.field;
  }
  if (field == nullptr) return false;

  std::string to_parse;
  if (is_list) {
    // TextFormat reads "i: 7" as a one-element list; a list default must be bracketed.
    const absl::string_view cleaned = absl::StripAsciiWhitespace(text);
    if (cleaned.size() < 2 || cleaned.front() != '[' || cleaned.back() != ']') return false;
    if (absl::StripAsciiWhitespace(cleaned.substr(1, cleaned.size() - 2)).empty()) {
      out->Clear();
      out->mutable_list();
      return true;
    }
    to_parse = absl::StrCat("list { ", field, ": ", cleaned, " }");
  } else {
    to_parse = absl::StrCat(field, ": ", text);
  }
  google::protobuf::TextFormat::Parser parser;
  SilentErrorCollector errors;
  parser.RecordErrorsTo(&errors);
  return parser.ParseFromString(to_parse, out);
}

bool AreAttrValuesEqual(const AttrValue& a, const AttrValue& b) {
  if (a.value_case() != b.value_case()) return false;
  switch (a.value_case()) {
    case AttrValue::kS:
      return a.s() == b.s();
    case AttrValue::kI:
      return a.i() == b.i();
    case AttrValue::kF:
      return FloatsEqual(a.f(), b.f());
    case AttrValue::kB:
      return a.b() == b.b();
    case AttrValue::kType:
      return a.type() == b.type();
    case AttrValue::kShape:
      return ShapesEqual(a.shape(), b.shape());
    case AttrValue::kTensor:
      return attr_value_internal::AreTensorProtosEqual(a.tensor(), b.tensor());
    case AttrValue::kList:
      return ListsEqual(a.list(), b.list());
    case AttrValue::kFunc:
      return FuncsEqual(a.func(), b.func());
    case AttrValue::kPlaceholder:
      return a.placeholder() == b.placeholder();
    case AttrValue::VALUE_NOT_SET:
      return true;
  }
  return false;
}

uint64_t AttrValueHash(const AttrValue& a) {
  const int value_case = a.value_case();
  const uint64_t h = Hash64(BytesOf(value_case), 0);
  switch (a.value_case()) {
    case AttrValue::kS:
      return Hash64(a.s(), h);
    case AttrValue::kI:
      return Hash64(BytesOf(a.i()), h);
    case AttrValue::kF:
      return Hash64(BytesOf(a.f()), h);
    case AttrValue::kB:
      return Hash64(a.b() ? "1" : "0", h);
    case AttrValue::kType:
      return Hash64(BytesOf(static_cast<int>(a.type())), h);
    case AttrValue::kShape:
      return Hash64(a.shape().SerializeAsString(), h);
    case AttrValue::kTensor:
      return Hash64Combine(h, attr_value_internal::TensorProtoHash(a.tensor()));
    case AttrValue::kList:
      return ListHash(a.list(), h);
    case AttrValue::kFunc:
      return FuncHash(a.func(), h);
    case AttrValue::kPlaceholder:
      return Hash64(a.placeholder(), h);
    case AttrValue::VALUE_NOT_SET:
      break;
  }
  return h;
}

// ---- SetAttrValue --------------------------------------------------------------------

void SetAttrValue(absl::string_view value, AttrValue* out) {
  out->set_s(value.data(), value.size());
}
void SetAttrValue(const std::string& value, AttrValue* out) { out->set_s(value); }
void SetAttrValue(const char* value, AttrValue* out) { out->set_s(value); }
void SetAttrValue(int64_t value, AttrValue* out) { out->set_i(value); }
void SetAttrValue(int32_t value, AttrValue* out) { out->set_i(value); }
void SetAttrValue(float value, AttrValue* out) { out->set_f(value); }
void SetAttrValue(double value, AttrValue* out) { out->set_f(static_cast<float>(value)); }
void SetAttrValue(bool value, AttrValue* out) { out->set_b(value); }
void SetAttrValue(DataType value, AttrValue* out) { out->set_type(value); }
void SetAttrValue(const TensorShape& value, AttrValue* out) { value.AsProto(out->mutable_shape()); }
void SetAttrValue(const PartialTensorShape& value, AttrValue* out) {
  value.AsProto(out->mutable_shape());
}
void SetAttrValue(const TensorShapeProto& value, AttrValue* out) { *out->mutable_shape() = value; }
void SetAttrValue(const TensorProto& value, AttrValue* out) { *out->mutable_tensor() = value; }
void SetAttrValue(const NameAttrList& value, AttrValue* out) { *out->mutable_func() = value; }
void SetAttrValue(const AttrValue& value, AttrValue* out) { *out = value; }

void SetAttrValue(absl::Span<const std::string> value, AttrValue* out) {
  SetList(value, &AttrValue::ListValue::mutable_s, out);
}
void SetAttrValue(absl::Span<const absl::string_view> value, AttrValue* out) {
  out->mutable_list()->Clear();
  for (absl::string_view v : value) out->mutable_list()->add_s(v.data(), v.size());
}
void SetAttrValue(absl::Span<const char* const> value, AttrValue* out) {
  out->mutable_list()->Clear();
  for (const char* v : value) out->mutable_list()->add_s(v);
}
void SetAttrValue(absl::Span<const int64_t> value, AttrValue* out) {
  SetList(value, &AttrValue::ListValue::mutable_i, out);
}
void SetAttrValue(absl::Span<const int32_t> value, AttrValue* out) {
  out->mutable_list()->Clear();
  for (int32_t v : value) out->mutable_list()->add_i(v);
}
void SetAttrValue(absl::Span<const float> value, AttrValue* out) {
  SetList(value, &AttrValue::ListValue::mutable_f, out);
}
void SetAttrValue(absl::Span<const bool> value, AttrValue* out) {
  SetList(value, &AttrValue::ListValue::mutable_b, out);
}
void SetAttrValue(const std::vector<bool>& value, AttrValue* out) {
  out->mutable_list()->Clear();
  for (bool v : value) out->mutable_list()->add_b(v);
}
void SetAttrValue(absl::Span<const DataType> value, AttrValue* out) {
  out->mutable_list()->Clear();
  for (DataType v : value) out->mutable_list()->add_type(v);
}
void SetAttrValue(absl::Span<const TensorShape> value, AttrValue* out) {
  out->mutable_list()->Clear();
  for (const TensorShape& v : value) v.AsProto(out->mutable_list()->add_shape());
}
void SetAttrValue(absl::Span<const PartialTensorShape> value, AttrValue* out) {
  out->mutable_list()->Clear();
  for (const PartialTensorShape& v : value) v.AsProto(out->mutable_list()->add_shape());
}
void SetAttrValue(absl::Span<const TensorShapeProto> value, AttrValue* out) {
  SetList(value, &AttrValue::ListValue::mutable_shape, out);
}
void SetAttrValue(absl::Span<const TensorProto> value, AttrValue* out) {
  SetList(value, &AttrValue::ListValue::mutable_tensor, out);
}
void SetAttrValue(absl::Span<const NameAttrList> value, AttrValue* out) {
  SetList(value, &AttrValue::ListValue::mutable_func, out);
}

void SetAttrValue(std::initializer_list<int> value, AttrValue* out) {
  SetAttrValue(absl::Span<const int32_t>(value.begin(), value.size()), out);
}
void SetAttrValue(std::initializer_list<int64_t> value, AttrValue* out) {
  SetAttrValue(absl::Span<const int64_t>(value.begin(), value.size()), out);
}
void SetAttrValue(std::initializer_list<float> value, AttrValue* out) {
  SetAttrValue(absl::Span<const float>(value.begin(), value.size()), out);
}
void SetAttrValue(std::initializer_list<double> value, AttrValue* out) {
  out->mutable_list()->Clear();
  for (double v : value) out->mutable_list()->add_f(static_cast<float>(v));
}
void SetAttrValue(std::initializer_list<bool> value, AttrValue* out) {
  SetAttrValue(absl::Span<const bool>(value.begin(), value.size()), out);
}
void SetAttrValue(std::initializer_list<DataType> value, AttrValue* out) {
  SetAttrValue(absl::Span<const DataType>(value.begin(), value.size()), out);
}
void SetAttrValue(std::initializer_list<const char*> value, AttrValue* out) {
  SetAttrValue(absl::Span<const char* const>(value.begin(), value.size()), out);
}

}  // namespace sluice
