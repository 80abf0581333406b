// Helpers for AttrValue, the value of a node attr or of an op attr's default.
//
// - SummarizeAttrValue prints a value the way TensorFlow does in error messages and in
//   SummarizeNodeDef ("DT_FLOAT", "\"SAME\"", "[1, 2, 2, 1]", "[2,?]", "true").
// - AttrValueHasType checks a value against an attr type string ("int", "list(type)", ...).
// - ParseAttrValue reads the text of a default value from an op spec, in proto-text syntax
//   without the field name ("3", "DT_FLOAT", "'SAME'", "[1, 2]", "{ unknown_rank: true }").
// - AreAttrValuesEqual / AttrValueHash compare values; tensors compare by their contents, so
//   two encodings of the same tensor (tensor_content vs. typed *_val) are equal and hash alike.
// - SetAttrValue fills an AttrValue from a C++ value; the Span overloads produce lists, and
//   an empty span still marks the value as a list.
//
// All functions are pure and thread-compatible.
#ifndef SLUICE_GRAPH_OP_ATTR_VALUE_UTIL_H_
#define SLUICE_GRAPH_OP_ATTR_VALUE_UTIL_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "proto/attr_value.pb.h"
#include "proto/tensor.pb.h"
#include "proto/tensor_shape.pb.h"
#include "proto/types.pb.h"

namespace sluice {

class TensorShape;
class PartialTensorShape;

// A one-line, human-readable rendering of `value`, in TensorFlow's format.
std::string SummarizeAttrValue(const AttrValue& value);

// OK if `value` holds a value of attr type `type` ("int", "list(shape)", ...). An empty list
// matches any "list(...)" type. Otherwise INVALID_ARGUMENT, e.g.
// "AttrValue had value with type 'list(int)' when 'int' expected".
absl::Status AttrValueHasType(const AttrValue& value, absl::string_view type);

// Parses `text`, the value of an attr of type `type`, into `out`. Lists are written
// "[a, b]"; strings may use single or double quotes; shapes and tensors use proto-text
// message syntax. Returns false (leaving `out` unspecified) if `type` is unknown or `text`
// does not parse as a value of that type.
bool ParseAttrValue(absl::string_view type, absl::string_view text, AttrValue* out);

// True when `a` and `b` hold the same value; tensors are compared by dtype, shape and
// contents rather than by their serialized form.
bool AreAttrValuesEqual(const AttrValue& a, const AttrValue& b);

// A hash consistent with AreAttrValuesEqual.
uint64_t AttrValueHash(const AttrValue& a);

void SetAttrValue(absl::string_view value, AttrValue* out);
void SetAttrValue(const std::string& value, AttrValue* out);
void SetAttrValue(const char* value, AttrValue* out);
void SetAttrValue(int64_t value, AttrValue* out);
void SetAttrValue(int32_t value, AttrValue* out);
void SetAttrValue(float value, AttrValue* out);
void SetAttrValue(double value, AttrValue* out);
void SetAttrValue(bool value, AttrValue* out);
void SetAttrValue(DataType value, AttrValue* out);
void SetAttrValue(const TensorShape& value, AttrValue* out);
void SetAttrValue(const PartialTensorShape& value, AttrValue* out);
void SetAttrValue(const TensorShapeProto& value, AttrValue* out);
void SetAttrValue(const TensorProto& value, AttrValue* out);
void SetAttrValue(const NameAttrList& value, AttrValue* out);
void SetAttrValue(const AttrValue& value, AttrValue* out);

void SetAttrValue(absl::Span<const std::string> value, AttrValue* out);
void SetAttrValue(absl::Span<const absl::string_view> value, AttrValue* out);
void SetAttrValue(absl::Span<const char* const> value, AttrValue* out);
void SetAttrValue(absl::Span<const int64_t> value, AttrValue* out);
void SetAttrValue(absl::Span<const int32_t> value, AttrValue* out);
void SetAttrValue(absl::Span<const float> value, AttrValue* out);
void SetAttrValue(absl::Span<const bool> value, AttrValue* out);
void SetAttrValue(absl::Span<const DataType> value, AttrValue* out);
void SetAttrValue(absl::Span<const TensorShape> value, AttrValue* out);
void SetAttrValue(absl::Span<const PartialTensorShape> value, AttrValue* out);
void SetAttrValue(absl::Span<const TensorShapeProto> value, AttrValue* out);
void SetAttrValue(absl::Span<const TensorProto> value, AttrValue* out);
void SetAttrValue(absl::Span<const NameAttrList> value, AttrValue* out);
void SetAttrValue(const std::vector<bool>& value, AttrValue* out);

// Braced lists pick these exactly: SetAttrValue({1, 2}, &v) is list(int),
// SetAttrValue({DT_FLOAT}, &v) is list(type), SetAttrValue({"a"}, &v) is list(string).
void SetAttrValue(std::initializer_list<int> value, AttrValue* out);
void SetAttrValue(std::initializer_list<int64_t> value, AttrValue* out);
void SetAttrValue(std::initializer_list<float> value, AttrValue* out);
void SetAttrValue(std::initializer_list<double> value, AttrValue* out);
void SetAttrValue(std::initializer_list<bool> value, AttrValue* out);
void SetAttrValue(std::initializer_list<DataType> value, AttrValue* out);
void SetAttrValue(std::initializer_list<const char*> value, AttrValue* out);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_ATTR_VALUE_UTIL_H_
