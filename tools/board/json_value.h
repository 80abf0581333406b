// JsonValue: a parsed JSON document (RFC 8259), for the JSON that `sluice board` reads from a
// log folder: `sluice run --capture`'s index.json and the capture plugin's metadata content.
//
// Those files may be damaged or written by anyone, so ParseJson never trusts them: malformed
// text is INVALID_ARGUMENT naming the byte offset ("expected ':' at byte 17"), nesting deeper
// than kMaxJsonDepth is refused (no recursion without bound), and strings are checked for
// valid escapes (\uXXXX becomes UTF-8, surrogate pairs joined). Text after the document other
// than whitespace is an error.
//
// Reading a value never fails: a member or element that is missing or of another type reads
// as null, so callers check the shape they expect with the As* accessors. Numbers keep their
// text, so integers beyond 2^53 are read exactly by AsInt64. In an object with a repeated
// key, Find returns the first. Values are immutable once parsed and safe to read from several
// threads.
#ifndef SLUICE_TOOLS_BOARD_JSON_VALUE_H_
#define SLUICE_TOOLS_BOARD_JSON_VALUE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sluice {
namespace board {

inline constexpr int kMaxJsonDepth = 64;

class JsonValue {
 public:
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };

  JsonValue() = default;

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }

  // The member `key` of an object; a null value when absent or when this is not an object.
  const JsonValue& Find(absl::string_view key) const;
  // Elements of an array (empty for other types).
  const std::vector<JsonValue>& elements() const;

  // Each returns false, leaving *out alone, when the value is of another type. AsInt64 also
  // fails for a number with a fraction or exponent, or outside int64.
  bool AsBool(bool* out) const;
  bool AsDouble(double* out) const;
  bool AsInt64(int64_t* out) const;
  bool AsString(std::string* out) const;

 private:
  friend class JsonParser;

  Type type_ = Type::kNull;
  bool bool_ = false;
  double number_ = 0;
  std::string text_;                 // a string's value, or a number as written
  std::vector<JsonValue> elements_;  // array elements, or object member values
  std::vector<std::string> keys_;    // object member names, parallel to elements_
};

absl::StatusOr<JsonValue> ParseJson(absl::string_view text);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_JSON_VALUE_H_
