#include "graph/tensor_id.h"

#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

// Parses `digits` (all ASCII digits, at least one) into an int; false on overflow.
bool ParseIndex(absl::string_view digits, int* index) {
  int64_t value = 0;
  for (char c : digits) {
    value = value * 10 + (c - '0');
    if (value > std::numeric_limits<int>::max()) return false;
  }
  *index = static_cast<int>(value);
  return true;
}

// Splits "node:digits" at its last ':'; false if the name does not end that way.
bool SplitOutputIndex(absl::string_view name, absl::string_view* node, absl::string_view* digits) {
  const size_t colon = name.rfind(':');
  if (colon == absl::string_view::npos || colon + 1 == name.size()) return false;
  absl::string_view suffix = name.substr(colon + 1);
  for (char c : suffix) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  *node = name.substr(0, colon);
  *digits = suffix;
  return true;
}

absl::Status Malformed(absl::string_view name, absl::string_view why) {
  return errors::InvalidArgument("Malformed tensor name '", name, "': ", why);
}

}  // namespace

TensorId ParseTensorName(absl::string_view name) {
  if (IsControlInput(name)) return TensorId{name.substr(1), kControlSlot};
  absl::string_view node;
  absl::string_view digits;
  int index = 0;
  if (SplitOutputIndex(name, &node, &digits) && !node.empty() && ParseIndex(digits, &index)) {
    return TensorId{node, index};
  }
  return TensorId{name, 0};
}

absl::Status ParseTensorNameStrict(absl::string_view name, TensorId* out) {
  if (name.empty()) return Malformed(name, "empty name");
  if (IsControlInput(name)) {
    absl::string_view node = name.substr(1);
    if (node.empty()) return Malformed(name, "no node name after '^'");
    if (absl::StrContains(node, ':')) {
      return Malformed(name, "a control input names a node, not an output");
    }
    *out = TensorId{node, kControlSlot};
    return absl::OkStatus();
  }
  const size_t colon = name.find(':');
  if (colon == absl::string_view::npos) {
    *out = TensorId{name, 0};
    return absl::OkStatus();
  }
  absl::string_view node = name.substr(0, colon);
  absl::string_view digits = name.substr(colon + 1);
  if (node.empty()) return Malformed(name, "no node name before ':'");
  if (digits.empty()) return Malformed(name, "no output index after ':'");
  for (char c : digits) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      return Malformed(name, "the output index must be a non-negative decimal number");
    }
  }
  if (digits.size() > 1 && digits[0] == '0') {
    return Malformed(name, "the output index has a leading zero");
  }
  int index = 0;
  if (!ParseIndex(digits, &index)) return Malformed(name, "the output index is too large");
  *out = TensorId{node, index};
  return absl::OkStatus();
}

bool IsControlInput(absl::string_view input) { return absl::StartsWith(input, "^"); }

std::string TensorIdString(const TensorId& id) {
  if (id.index == kControlSlot) return absl::StrCat("^", id.node);
  if (id.index == 0) return std::string(id.node);
  return absl::StrCat(id.node, ":", id.index);
}

}  // namespace sluice
