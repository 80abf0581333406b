// A recursive-descent parser over the text, one function per JSON production; the depth
// argument bounds the recursion.
#include "tools/board/json_value.h"

#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"

namespace sluice {
namespace board {

const JsonValue& JsonValue::Find(absl::string_view key) const {
  static const JsonValue* const kNull = new JsonValue();
  if (type_ != Type::kObject) return *kNull;
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return elements_[i];
  }
  return *kNull;
}

const std::vector<JsonValue>& JsonValue::elements() const {
  static const std::vector<JsonValue>* const kEmpty = new std::vector<JsonValue>();
  return type_ == Type::kArray ? elements_ : *kEmpty;
}

bool JsonValue::AsBool(bool* out) const {
  if (type_ != Type::kBool) return false;
  *out = bool_;
  return true;
}

bool JsonValue::AsDouble(double* out) const {
  if (type_ != Type::kNumber) return false;
  *out = number_;
  return true;
}

bool JsonValue::AsInt64(int64_t* out) const {
  int64_t value;
  // SimpleAtoi may write to its output when it fails.
  if (type_ != Type::kNumber || !absl::SimpleAtoi(text_, &value)) return false;
  *out = value;
  return true;
}

bool JsonValue::AsString(std::string* out) const {
  if (type_ != Type::kString) return false;
  *out = text_;
  return true;
}

class JsonParser {
 public:
  explicit JsonParser(absl::string_view text) : text_(text) {}

  absl::StatusOr<JsonValue> Document() {
    JsonValue value;
    RETURN_IF_ERROR(Value(0, &value));
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the document");
    return value;
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return errors::InvalidArgument("JSON: ", what, " at byte ", pos_);
  }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Consume(absl::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  absl::Status Value(int depth, JsonValue* out) {
    if (depth >= kMaxJsonDepth) {
      return Error(absl::StrCat("nesting deeper than ", kMaxJsonDepth, " levels"));
    }
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end of text");
    const char c = text_[pos_];
    if (c == '{') return Object(depth, out);
    if (c == '[') return Array(depth, out);
    if (c == '"') {
      out->type_ = JsonValue::Type::kString;
      return String(&out->text_);
    }
    if (c == '-' || absl::ascii_isdigit(static_cast<unsigned char>(c))) return Number(out);
    if (Consume("true") || Consume("false")) {
      out->type_ = JsonValue::Type::kBool;
      out->bool_ = c == 't';
      return absl::OkStatus();
    }
    if (Consume("null")) return absl::OkStatus();
    return Error("expected a value");
  }

  absl::Status Object(int depth, JsonValue* out) {
    out->type_ = JsonValue::Type::kObject;
    ++pos_;  // '{'
    SkipSpace();
    if (Consume("}")) return absl::OkStatus();
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected a member name");
      std::string key;
      RETURN_IF_ERROR(String(&key));
      SkipSpace();
      if (!Consume(":")) return Error("expected ':'");
      JsonValue member;
      RETURN_IF_ERROR(Value(depth + 1, &member));
      out->keys_.push_back(std::move(key));
      out->elements_.push_back(std::move(member));
      SkipSpace();
      if (Consume("}")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected ',' or '}'");
    }
  }

  absl::Status Array(int depth, JsonValue* out) {
    out->type_ = JsonValue::Type::kArray;
    ++pos_;  // '['
    SkipSpace();
    if (Consume("]")) return absl::OkStatus();
    while (true) {
      JsonValue element;
      RETURN_IF_ERROR(Value(depth + 1, &element));
      out->elements_.push_back(std::move(element));
      SkipSpace();
      if (Consume("]")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected ',' or ']'");
    }
  }

  // Digits as JSON allows them: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  absl::Status Number(JsonValue* out) {
    const size_t start = pos_;
    auto digits = [&]() {
      const size_t first = pos_;
      while (pos_ < text_.size() && absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      }
      return pos_ > first;
    };
    Consume("-");
    if (Consume("0")) {
      // A leading zero stands alone.
    } else if (!digits()) {
      return Error("expected digits");
    }
    if (Consume(".") && !digits()) return Error("expected digits after '.'");
    if (Consume("e") || Consume("E")) {
      if (!Consume("+")) Consume("-");
      if (!digits()) return Error("expected exponent digits");
    }
    out->type_ = JsonValue::Type::kNumber;
    out->text_ = std::string(text_.substr(start, pos_ - start));
    // Out of double's range is still a number (SimpleAtod gives +-inf); callers that need a
    // finite value check it.
    if (!absl::SimpleAtod(out->text_, &out->number_)) return Error("malformed number");
    return absl::OkStatus();
  }

  absl::Status Hex4(uint32_t* out) {
    if (text_.size() - pos_ < 4) return Error("truncated \\u escape");
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      value <<= 4;
      if (c >= '0' && c <= '9') {
        value |= c - '0';
      } else if (c >= 'a' && c <= 'f') {
        value |= c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        value |= c - 'A' + 10;
      } else {
        return Error("bad hex digit in \\u escape");
      }
    }
    *out = value;
    return absl::OkStatus();
  }

  static void AppendUtf8(uint32_t code, std::string* out) {
    if (code < 0x80) {
      *out += static_cast<char>(code);
    } else if (code < 0x800) {
      *out += static_cast<char>(0xC0 | (code >> 6));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      *out += static_cast<char>(0xE0 | (code >> 12));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (code >> 18));
      *out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  absl::Status Escape(std::string* out) {
    if (pos_ >= text_.size()) return Error("unterminated string");
    const char c = text_[pos_++];
    switch (c) {
      case '"':
      case '\\':
      case '/':
        *out += c;
        return absl::OkStatus();
      case 'b':
        *out += '\b';
        return absl::OkStatus();
      case 'f':
        *out += '\f';
        return absl::OkStatus();
      case 'n':
        *out += '\n';
        return absl::OkStatus();
      case 'r':
        *out += '\r';
        return absl::OkStatus();
      case 't':
        *out += '\t';
        return absl::OkStatus();
      case 'u':
        break;
      default:
        return Error("bad escape");
    }
    uint32_t code;
    RETURN_IF_ERROR(Hex4(&code));
    if (code >= 0xDC00 && code <= 0xDFFF) return Error("lone low surrogate");
    if (code >= 0xD800 && code <= 0xDBFF) {
      uint32_t low;
      if (!Consume("\\u")) return Error("high surrogate without its low half");
      RETURN_IF_ERROR(Hex4(&low));
      if (low < 0xDC00 || low > 0xDFFF) return Error("high surrogate without its low half");
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(code, out);
    return absl::OkStatus();
  }

  absl::Status String(std::string* out) {
    ++pos_;  // '"'
    while (true) {
      if (pos_ >= text_.size()) return Error("unterminated string");
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return absl::OkStatus();
      }
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in string");
      ++pos_;
      if (c == '\\') {
        RETURN_IF_ERROR(Escape(out));
      } else {
        *out += c;
      }
    }
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

absl::StatusOr<JsonValue> ParseJson(absl::string_view text) { return JsonParser(text).Document(); }

}  // namespace board
}  // namespace sluice
