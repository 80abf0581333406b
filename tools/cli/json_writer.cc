// JsonWriter: a flat string builder with a stack of "has a value yet" flags for commas.
#include "tools/cli/json_writer.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace sluice {
namespace cli {

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!depth_.empty()) {
    if (depth_.back()) out_ += ',';
    depth_.back() = true;
  }
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue();
  out_ += '{';
  depth_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  depth_.pop_back();
  out_ += '}';
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue();
  out_ += '[';
  depth_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  depth_.pop_back();
  out_ += ']';
  return *this;
}

JsonWriter& JsonWriter::Key(absl::string_view key) {
  String(key);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(absl::string_view value) {
  BeforeValue();
  out_ += '"';
  for (char c : value) {
    switch (c) {
      case '"':
        out_ += "\\\"";
        break;
      case '\\':
        out_ += "\\\\";
        break;
      case '\n':
        out_ += "\\n";
        break;
      case '\t':
        out_ += "\\t";
        break;
      case '\r':
        out_ += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out_, "\\u%04x", static_cast<unsigned char>(c));
        } else {
          out_ += c;
        }
    }
  }
  out_ += '"';
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  absl::StrAppend(&out_, value);
  return *this;
}

JsonWriter& JsonWriter::Double(double value) {
  BeforeValue();
  if (std::isfinite(value)) {
    absl::StrAppendFormat(&out_, "%.9g", value);
  } else {
    out_ += "null";
  }
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::Raw(absl::string_view json) {
  BeforeValue();
  absl::StrAppend(&out_, json);
  return *this;
}

JsonWriter& JsonWriter::StringArray(const std::vector<std::string>& values) {
  BeginArray();
  for (const std::string& value : values) String(value);
  return EndArray();
}

}  // namespace cli
}  // namespace sluice
