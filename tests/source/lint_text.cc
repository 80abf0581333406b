#include "tests/source/lint_text.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace sluice {
namespace lint_text {
namespace {

bool IsCommentOnlyLine(const SplitText& split, int line) {
  if (split.comments[line - 1].empty()) return false;
  const size_t begin = split.line_starts[line - 1];
  const size_t end = line < static_cast<int>(split.line_starts.size()) ? split.line_starts[line]
                                                                       : split.code.size();
  return absl::StripAsciiWhitespace(absl::string_view(split.code).substr(begin, end - begin))
      .empty();
}

}  // namespace

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

int SplitText::LineOf(size_t offset) const {
  return static_cast<int>(std::upper_bound(line_starts.begin(), line_starts.end(), offset) -
                          line_starts.begin());
}

SplitText Split(absl::string_view text) {
  SplitText out;
  out.code.assign(text.data(), text.size());
  out.line_starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') out.line_starts.push_back(i + 1);
  }
  out.comments.resize(out.line_starts.size());
  auto blank = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end && i < out.code.size(); ++i) {
      if (out.code[i] != '\n') out.code[i] = ' ';
    }
  };
  // Records the comment text in [begin, end) line by line.
  auto record = [&](size_t begin, size_t end) {
    while (begin < end) {
      size_t eol = text.find('\n', begin);
      if (eol == kNone || eol > end) eol = end;
      out.comments[out.LineOf(begin) - 1].emplace_back(text.substr(begin, eol - begin));
      begin = eol + 1;
    }
  };
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      size_t end = text.find('\n', i);
      if (end == kNone) end = text.size();
      record(i + 2, end);
      blank(i, end);
      i = end;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      end = end == kNone ? text.size() : end + 2;
      record(i + 2, end - 2);
      blank(i, end);
      i = end;
    } else if (c == '"' && i > 0 && text[i - 1] == 'R' &&
               (i < 2 || !IsIdentChar(text[i - 2]) || text[i - 2] == '8' || text[i - 2] == 'u' ||
                text[i - 2] == 'U' || text[i - 2] == 'L')) {
      // A raw string: R"delim( ... )delim".
      const size_t open = text.find('(', i);
      if (open == kNone) break;
      const std::string close = absl::StrCat(")", text.substr(i + 1, open - i - 1), "\"");
      size_t end = text.find(close, open);
      end = end == kNone ? text.size() : end + close.size();
      blank(i + 1, end - 1);
      i = end;
    } else if (c == '"' ||
               (c == '\'' && !(i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]))))) {
      // A string or character literal (a ' after a digit is a digit separator).
      size_t j = i + 1;
      while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else {
      ++i;
    }
  }
  return out;
}

size_t SkipSpace(absl::string_view code, size_t pos) {
  while (pos < code.size() && absl::ascii_isspace(code[pos])) ++pos;
  return pos;
}

size_t CloseOf(absl::string_view code, size_t open) {
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '(' || c == '{' || c == '[') ++depth;
    if (c == ')' || c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return kNone;
}

std::vector<absl::string_view> TopLevelArgs(absl::string_view inner) {
  std::vector<absl::string_view> args;
  if (absl::StripAsciiWhitespace(inner).empty()) return args;
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    const char c = i < inner.size() ? inner[i] : ',';
    if (c == '(' || c == '{' || c == '[') ++depth;
    if (c == ')' || c == '}' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      args.push_back(absl::StripAsciiWhitespace(inner.substr(begin, i - begin)));
      begin = i + 1;
    }
  }
  return args;
}

bool IsIntegerLiteral(absl::string_view s) {
  s = absl::StripAsciiWhitespace(s);
  if (absl::ConsumePrefix(&s, "-") || absl::ConsumePrefix(&s, "+")) {
    s = absl::StripLeadingAsciiWhitespace(s);
  }
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return IsIdentChar(c) || c == '\''; });
}

bool IsMemberName(absl::string_view code, size_t begin) {
  size_t back = begin;
  while (back > 0 && absl::ascii_isspace(code[back - 1])) --back;
  if (back == 0) return false;
  return code[back - 1] == '.' || (code[back - 1] == '>' && back > 1 && code[back - 2] == '-');
}

bool LooksLikeParameters(absl::string_view inner) {
  const std::vector<absl::string_view> args = TopLevelArgs(inner);
  if (args.empty()) return true;
  for (absl::string_view arg : args) {
    if (absl::StartsWith(arg, "{")) return false;
    // Two names separated only by spaces, '&' or '*': `const Tensor& t`, `int64_t n`, but not
    // a product or a conjunction: the tree's format writes a binary `*`, `&` or `&&` with a
    // space on each side (`n * m`), a declarator's without (`Tensor* t`, `T&& v`).
    bool after_name = false;
    bool gap = false;
    for (size_t i = 0; i < arg.size(); ++i) {
      const char c = arg[i];
      if (IsIdentChar(c)) {
        if (after_name && gap) return true;
        after_name = true;
        gap = false;
      } else if (c == '&' || c == '*') {
        size_t last = i;
        while (last + 1 < arg.size() && (arg[last + 1] == '&' || arg[last + 1] == '*')) ++last;
        const bool binary = i > 0 && absl::ascii_isspace(arg[i - 1]) && last + 1 < arg.size() &&
                            absl::ascii_isspace(arg[last + 1]);
        if (binary) after_name = false;
        gap = after_name;
        i = last;
      } else if (c == ' ' || c == '\n') {
        gap = after_name;
      } else if (c == '<') {
        // Skip template arguments: std::vector<int64_t> dims.
        size_t depth = 0;
        for (; i < arg.size(); ++i) {
          if (arg[i] == '<') ++depth;
          if (arg[i] == '>' && --depth == 0) break;
        }
        gap = false;
      } else {
        after_name = false;
        gap = false;
      }
    }
  }
  return false;
}

size_t StatementStart(absl::string_view code, size_t pos) {
  size_t i = pos;
  while (i > 0) {
    const char c = code[i - 1];
    if (c == ';' || c == '{') break;
    if (c == '}') {
      const size_t next = SkipSpace(code, i);
      const char after = next < code.size() ? code[next] : '\0';
      if (after != ')' && after != ',' && after != '.' && after != ']') break;
      // Back to the matching '{'.
      int depth = 0;
      while (i > 0) {
        const char b = code[--i];
        if (b == '}') ++depth;
        if (b == '{' && --depth == 0) break;
      }
      continue;
    }
    --i;
  }
  return SkipSpace(code, i);
}

std::string Excerpt(absl::string_view code, size_t begin, size_t end) {
  std::string text;
  bool space = false;
  for (size_t i = begin; i < end && i < code.size(); ++i) {
    if (absl::ascii_isspace(code[i])) {
      space = !text.empty();
      continue;
    }
    if (space) text += ' ';
    space = false;
    text += code[i];
  }
  if (text.size() > 100) text = absl::StrCat(text.substr(0, 97), "...");
  return text;
}

absl::string_view ReasonOf(absl::string_view comment, absl::string_view marker) {
  comment = absl::StripLeadingAsciiWhitespace(comment);
  while (absl::ConsumePrefix(&comment, "*")) comment = absl::StripLeadingAsciiWhitespace(comment);
  if (!absl::ConsumePrefix(&comment, marker)) return "";
  return absl::StripAsciiWhitespace(comment);
}

bool IsMarkerLine(const SplitText& split, int line, absl::string_view marker) {
  for (const std::string& comment : split.comments[line - 1]) {
    if (!ReasonOf(comment, marker).empty()) return true;
  }
  return false;
}

std::vector<int> JustifyingLines(const SplitText& split, size_t pos, absl::string_view marker) {
  std::vector<int> lines;
  const int site_line = split.LineOf(pos);
  const int first = split.LineOf(std::min(StatementStart(split.code, pos), pos));
  for (int line = first; line <= site_line; ++line) {
    if (IsMarkerLine(split, line, marker)) lines.push_back(line);
  }
  for (int line = first - 1; line >= 1 && IsCommentOnlyLine(split, line); --line) {
    if (IsMarkerLine(split, line, marker)) lines.push_back(line);
  }
  return lines;
}

Findings::Findings(absl::string_view text, absl::string_view marker)
    : split_(Split(text)), marker_(marker) {}

void Findings::Add(size_t begin, size_t end) {
  Site site;
  site.line = split_.LineOf(begin);
  site.what = Excerpt(split_.code, begin, end);
  const std::vector<int> lines = JustifyingLines(split_, begin, marker_);
  site.justified = !lines.empty();
  used_markers_.insert(lines.begin(), lines.end());
  sites_.push_back(std::move(site));
}

std::vector<int> Findings::UnusedMarkers() const {
  std::vector<int> unused;
  for (int line = 1; line <= static_cast<int>(split_.comments.size()); ++line) {
    if (IsMarkerLine(split_, line, marker_) && used_markers_.count(line) == 0) {
      unused.push_back(line);
    }
  }
  return unused;
}

}  // namespace lint_text
}  // namespace sluice
