#include "tools/board/json_number.h"

#include <charconv>
#include <cmath>

namespace sluice {
namespace board {
namespace {

template <typename T>
std::string Format(T value) {
  if (std::isnan(value)) return "\"NaN\"";
  if (std::isinf(value)) return value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  char text[64];
  const std::to_chars_result result = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, result.ptr);
}

}  // namespace

std::string JsonNumber(double value) { return Format(value); }
std::string JsonFloat(float value) { return Format(value); }

}  // namespace board
}  // namespace sluice
