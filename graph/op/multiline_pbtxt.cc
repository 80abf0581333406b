#include "graph/op/multiline_pbtxt.h"

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace sluice {
namespace {

// Removes and returns the first line of `*text` (without its newline). `*had_newline` says
// whether one ended it: the last line of a text without a final newline has none.
absl::string_view TakeLine(absl::string_view* text, bool* had_newline) {
  const size_t end = text->find('\n');
  *had_newline = end != absl::string_view::npos;
  absl::string_view line = text->substr(0, end);
  text->remove_prefix(*had_newline ? end + 1 : text->size());
  return line;
}

// The terminator of the multi-line string `line` starts, if it starts one.
bool MultilineTerminator(absl::string_view line, size_t colon, absl::string_view* terminator) {
  if (colon == absl::string_view::npos) return false;
  absl::string_view rest = line.substr(colon + 1);
  while (absl::ConsumePrefix(&rest, " ")) {
  }
  if (!absl::ConsumePrefix(&rest, "<<")) return false;
  *terminator = rest;
  return true;
}

}  // namespace

std::string ExpandMultilineStrings(absl::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  while (!text.empty()) {
    bool had_newline = false;
    absl::string_view line = TakeLine(&text, &had_newline);
    if (!had_newline) {
      absl::StrAppend(&out, line);
      break;
    }
    const size_t colon = line.find(':');
    absl::string_view terminator;
    if (!MultilineTerminator(line, colon, &terminator)) {
      absl::StrAppend(&out, line, "\n");
      continue;
    }
    absl::StrAppend(&out, line.substr(0, colon + 1));
    std::string value;
    absl::string_view after_terminator;
    bool first = true;
    while (!text.empty()) {
      absl::string_view body_line = TakeLine(&text, &had_newline);
      if (absl::ConsumePrefix(&body_line, terminator)) {
        after_terminator = body_line;
        break;
      }
      if (!first) value.push_back('\n');
      first = false;
      absl::StrAppend(&value, body_line);
    }
    absl::StrAppend(&out, " \"", absl::CEscape(value), "\"", after_terminator, "\n");
  }
  return out;
}

}  // namespace sluice
