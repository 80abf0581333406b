#include "tools/board/slice_index.h"

#include <limits>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"

namespace sluice {
namespace board {
namespace {

// Strict decimal: [+-]?[0-9]+ within int64. SimpleAtoi alone would accept spaces.
bool ParseInteger(absl::string_view text, int64_t* out) {
  absl::string_view digits = text;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
  if (digits.empty()) return false;
  for (char c : digits) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return absl::SimpleAtoi(text, out);
}

absl::Status NotAnIndex(absl::string_view item, absl::string_view why) {
  return errors::InvalidArgument("'", item, "' is not an index: ", why);
}

absl::StatusOr<IndexItem> ParseItem(absl::string_view item) {
  IndexItem parsed;
  if (item == "...") {
    parsed.kind = IndexItem::Kind::kEllipsis;
    return parsed;
  }
  std::vector<absl::string_view> parts = absl::StrSplit(item, ':');
  if (parts.size() > 3) return NotAnIndex(item, "a slice has at most two ':'");
  if (parts.size() == 1) {
    parsed.kind = IndexItem::Kind::kInteger;
    if (!ParseInteger(item, &parsed.integer)) {
      return NotAnIndex(item, "expected an integer, a slice such as 2:5 or ::2, or '...'");
    }
    return parsed;
  }
  std::optional<int64_t>* fields[] = {&parsed.start, &parsed.stop, &parsed.step};
  for (size_t i = 0; i < parts.size(); ++i) {
    absl::string_view part = absl::StripAsciiWhitespace(parts[i]);
    if (part.empty()) continue;
    int64_t value;
    if (!ParseInteger(part, &value)) {
      return NotAnIndex(item, absl::StrCat("'", part, "' is not an integer"));
    }
    *fields[i] = value;
  }
  if (parsed.step.has_value() && *parsed.step == 0) {
    return NotAnIndex(item, "a slice step cannot be zero");
  }
  if (parsed.step.has_value() && *parsed.step == std::numeric_limits<int64_t>::min()) {
    return NotAnIndex(item, "the step is out of range");
  }
  return parsed;
}

// Python's slice.indices(n): start and count of the positions a slice visits.
DimSelection ResolveSlice(const IndexItem& item, int64_t n) {
  DimSelection dim;
  dim.step = item.step.value_or(1);
  auto normalise = [n](int64_t value, int64_t low, int64_t high) {
    if (value < 0) value += n;  // no overflow: value >= INT64_MIN and n >= 0
    return std::min(std::max(value, low), high);
  };
  int64_t start, stop;
  if (dim.step > 0) {
    start = item.start.has_value() ? normalise(*item.start, 0, n) : 0;
    stop = item.stop.has_value() ? normalise(*item.stop, 0, n) : n;
  } else {
    start = item.start.has_value() ? normalise(*item.start, -1, n - 1) : n - 1;
    stop = item.stop.has_value() ? normalise(*item.stop, -1, n - 1) : -1;
  }
  const int64_t distance = dim.step > 0 ? stop - start : start - stop;
  const int64_t stride = dim.step > 0 ? dim.step : -dim.step;
  dim.start = start;
  // 1 + (distance - 1) / stride rather than a rounded-up sum, which could overflow.
  dim.count = distance <= 0 ? 0 : 1 + (distance - 1) / stride;
  return dim;
}

}  // namespace

absl::StatusOr<std::vector<IndexItem>> ParseIndex(absl::string_view text) {
  if (text.size() > kMaxIndexLength) {
    return errors::InvalidArgument("the index is longer than ", kMaxIndexLength, " characters");
  }
  absl::string_view body = absl::StripAsciiWhitespace(text);
  if (!body.empty() && body.front() == '[') {
    if (body.back() != ']') return errors::InvalidArgument("'", text, "' has no closing ']'");
    body = absl::StripAsciiWhitespace(body.substr(1, body.size() - 2));
  } else if (!body.empty() && body.back() == ']') {
    return errors::InvalidArgument("'", text, "' has no opening '['");
  }
  std::vector<IndexItem> items;
  if (body.empty()) return items;
  std::vector<absl::string_view> texts = absl::StrSplit(body, ',');
  // "0," is Python's one-item tuple.
  if (texts.size() > 1 && absl::StripAsciiWhitespace(texts.back()).empty()) texts.pop_back();
  bool ellipsis = false;
  for (absl::string_view raw : texts) {
    absl::string_view item = absl::StripAsciiWhitespace(raw);
    if (item.empty()) return errors::InvalidArgument("'", text, "' has an empty item");
    ASSIGN_OR_RETURN(IndexItem parsed, ParseItem(item));
    if (parsed.kind == IndexItem::Kind::kEllipsis) {
      if (ellipsis) return errors::InvalidArgument("an index can only have one '...'");
      ellipsis = true;
    }
    items.push_back(parsed);
  }
  return items;
}

absl::StatusOr<std::vector<DimSelection>> ResolveIndex(const std::vector<IndexItem>& items,
                                                       absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(shape.size());
  int explicit_items = 0;
  for (const IndexItem& item : items) {
    if (item.kind != IndexItem::Kind::kEllipsis) ++explicit_items;
  }
  if (explicit_items > rank) {
    return errors::InvalidArgument("too many indices: the tensor has rank ", rank,
                                   ", the index has ", explicit_items);
  }
  std::vector<DimSelection> selection;
  selection.reserve(rank);
  auto keep_whole = [&]() {
    DimSelection whole;
    whole.count = shape[selection.size()];
    selection.push_back(whole);
  };
  for (const IndexItem& item : items) {
    if (item.kind == IndexItem::Kind::kEllipsis) {
      for (int i = 0; i < rank - explicit_items; ++i) keep_whole();
      continue;
    }
    const int dim = static_cast<int>(selection.size());
    const int64_t n = shape[dim];
    if (item.kind == IndexItem::Kind::kSlice) {
      selection.push_back(ResolveSlice(item, n));
      continue;
    }
    const int64_t position = item.integer < 0 ? item.integer + n : item.integer;
    if (position < 0 || position >= n) {
      return errors::InvalidArgument("index ", item.integer, " is out of range for dimension ", dim,
                                     " of size ", n);
    }
    DimSelection picked;
    picked.start = position;
    picked.count = 1;
    picked.kept = false;
    selection.push_back(picked);
  }
  while (static_cast<int>(selection.size()) < rank) keep_whole();
  return selection;
}

std::vector<int64_t> SelectedShape(const std::vector<DimSelection>& selection) {
  std::vector<int64_t> shape;
  for (const DimSelection& dim : selection) {
    if (dim.kept) shape.push_back(dim.count);
  }
  return shape;
}

}  // namespace board
}  // namespace sluice
