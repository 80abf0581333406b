#include "tests/source/shape_lint.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace sluice {
namespace shape_lint {
namespace {

constexpr size_t kNone = std::string::npos;

// The shape types whose constructors taking dims CHECK.
const std::set<std::string>& ShapeTypes() {
  static const auto* types = new std::set<std::string>{"TensorShape", "PartialTensorShape"};
  return *types;
}

// Mutators that CHECK on their arguments or on the shape they produce.
const std::set<std::string>& CheckingMutators() {
  static const auto* names =
      new std::set<std::string>{"AddDim",    "set_dim",        "AppendShape",    "InsertDim",
                                "RemoveDim", "RemoveLastDims", "RemoveDimRange", "Concatenate"};
  return *names;
}

// Calls with a `const TensorShape&` parameter, which a braced list converts to through the
// CHECKing constructor. (forward_input_or_allocate_* take their input indices as a braced list
// first; that one is not a shape.)
const std::set<std::string>& ShapeTakingCalls() {
  static const auto* names = new std::set<std::string>{"allocate",
                                                       "allocate_output",
                                                       "allocate_temp",
                                                       "AllocateTensor",
                                                       "Tensor",
                                                       "Allocate",
                                                       "CopyFrom",
                                                       "BitcastFrom",
                                                       "FromExternalData",
                                                       "forward_input_or_allocate_output",
                                                       "forward_input_or_allocate_temp"};
  return *names;
}

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The code of a file with comments and literals blanked, and the comments of each line.
struct SplitText {
  std::string code;
  std::vector<std::vector<std::string>> comments;  // per 0-based line, each comment's text
  std::vector<size_t> line_starts;                 // offset of each line's first character

  int LineOf(size_t offset) const {
    return static_cast<int>(std::upper_bound(line_starts.begin(), line_starts.end(), offset) -
                            line_starts.begin());  // 1-based
  }
};

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

// The offset just past the bracket that closes the one at `open`, or kNone.
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

// The comma-separated parts of `inner` at bracket depth 0, trimmed.
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

// An integer literal, possibly signed and suffixed: 3, -1, 0x10, 2LL.
bool IsIntegerLiteral(absl::string_view s) {
  s = absl::StripAsciiWhitespace(s);
  if (absl::ConsumePrefix(&s, "-") || absl::ConsumePrefix(&s, "+")) {
    s = absl::StripLeadingAsciiWhitespace(s);
  }
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return IsIdentChar(c) || c == '\''; });
}

// Integer literals separated by commas, or nothing.
bool AreLiteralDims(absl::string_view inner) {
  for (absl::string_view arg : TopLevelArgs(inner)) {
    if (!IsIntegerLiteral(arg)) return false;
  }
  return true;
}

// A braced list of integer literals, such as {} or {2, 3}.
bool IsLiteralList(absl::string_view arg) {
  arg = absl::StripAsciiWhitespace(arg);
  if (!absl::ConsumePrefix(&arg, "{") || !absl::ConsumeSuffix(&arg, "}")) return false;
  return AreLiteralDims(arg);
}

// A whole braced list (not, say, `{a}.size()`).
bool IsBracedList(absl::string_view arg) {
  return absl::StartsWith(arg, "{") && CloseOf(arg, 0) == arg.size();
}

// Whether a parenthesised list after `Type name` declares parameters (a function) rather than
// passing arguments: it is empty, or some part names a type and then a parameter.
bool LooksLikeParameters(absl::string_view inner) {
  const std::vector<absl::string_view> args = TopLevelArgs(inner);
  if (args.empty()) return true;
  for (absl::string_view arg : args) {
    if (absl::StartsWith(arg, "{")) return false;
    // Two names separated only by spaces, '&' or '*': `const Tensor& t`, `int64_t n`.
    bool after_name = false;
    bool gap = false;
    for (size_t i = 0; i < arg.size(); ++i) {
      const char c = arg[i];
      if (IsIdentChar(c)) {
        if (after_name && gap) return true;
        after_name = true;
        gap = false;
      } else if (c == ' ' || c == '&' || c == '*' || c == '\n') {
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

// The reason of a "shape-safe:" comment, or "" when the comment is not one.
absl::string_view ReasonOf(absl::string_view comment) {
  comment = absl::StripLeadingAsciiWhitespace(comment);
  while (absl::ConsumePrefix(&comment, "*")) comment = absl::StripLeadingAsciiWhitespace(comment);
  if (!absl::ConsumePrefix(&comment, kMarker)) return "";
  return absl::StripAsciiWhitespace(comment);
}

bool IsMarkerLine(const SplitText& split, int line) {
  for (const std::string& comment : split.comments[line - 1]) {
    if (!ReasonOf(comment).empty()) return true;
  }
  return false;
}

bool IsCommentOnlyLine(const SplitText& split, int line) {
  if (split.comments[line - 1].empty()) return false;
  const size_t begin = split.line_starts[line - 1];
  const size_t end = line < static_cast<int>(split.line_starts.size()) ? split.line_starts[line]
                                                                       : split.code.size();
  return absl::StripAsciiWhitespace(absl::string_view(split.code).substr(begin, end - begin))
      .empty();
}

// The offset where the statement holding `pos` begins: just after the last ';', '{' or '}'
// before it, where a braced list inside the statement (a '}' followed by ')', ',', '.' or ']',
// as in `c ? TensorShape({}) : TensorShape(x)`) is passed over whole.
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

// The marker lines that justify a site at `pos`: on the statement's lines up to the site's, or
// in the comment block directly above the statement.
std::vector<int> JustifyingLines(const SplitText& split, size_t pos) {
  std::vector<int> lines;
  const int site_line = split.LineOf(pos);
  const int first = split.LineOf(std::min(StatementStart(split.code, pos), pos));
  for (int line = first; line <= site_line; ++line) {
    if (IsMarkerLine(split, line)) lines.push_back(line);
  }
  for (int line = first - 1; line >= 1 && IsCommentOnlyLine(split, line); --line) {
    if (IsMarkerLine(split, line)) lines.push_back(line);
  }
  return lines;
}

struct Scan {
  std::vector<Site> sites;
  std::set<int> used_markers;
  std::vector<int> markers;
};

Scan ScanText(absl::string_view text) {
  const SplitText split = Split(text);
  const absl::string_view code = split.code;
  Scan scan;
  auto add = [&](size_t pos, size_t end) {
    Site site;
    site.line = split.LineOf(pos);
    site.what = Excerpt(code, pos, end);
    const std::vector<int> lines = JustifyingLines(split, pos);
    site.justified = !lines.empty();
    scan.used_markers.insert(lines.begin(), lines.end());
    scan.sites.push_back(site);
  };
  for (size_t i = 0; i < code.size(); ++i) {
    if (!IsIdentChar(code[i]) || std::isdigit(static_cast<unsigned char>(code[i])) ||
        (i > 0 && IsIdentChar(code[i - 1]))) {
      continue;
    }
    size_t end = i;
    while (end < code.size() && IsIdentChar(code[end])) ++end;
    const std::string name(code.substr(i, end - i));
    const size_t next = SkipSpace(code, end);
    const char after = next < code.size() ? code[next] : '\0';
    // The last non-space character before the name.
    size_t back = i;
    while (back > 0 && absl::ascii_isspace(code[back - 1])) --back;
    const char before = back > 0 ? code[back - 1] : '\0';
    const bool member = before == '.' || (before == '>' && back > 1 && code[back - 2] == '-');

    if (ShapeTypes().count(name) && !member) {
      if (after == '(' || after == '{') {
        // A temporary: TensorShape(dims), TensorShape{a, b}.
        const size_t close = CloseOf(code, next);
        if (close == kNone) continue;
        const absl::string_view inner = code.substr(next + 1, close - next - 2);
        const bool literal =
            after == '(' ? (absl::StripAsciiWhitespace(inner).empty() || IsLiteralList(inner))
                         : AreLiteralDims(inner);
        if (!literal) add(i, close);
      } else if (IsIdentChar(after) && !std::isdigit(static_cast<unsigned char>(after))) {
        // A declaration: TensorShape name(dims), name{dims}, name = {dims}.
        size_t name_end = next;
        while (name_end < code.size() && IsIdentChar(code[name_end])) ++name_end;
        size_t open = SkipSpace(code, name_end);
        if (open >= code.size()) continue;
        if (code[open] == '=' && open + 1 < code.size() && code[open + 1] != '=') {
          open = SkipSpace(code, open + 1);
          if (open >= code.size() || code[open] != '{') continue;
        } else if (code[open] != '(' && code[open] != '{') {
          continue;
        }
        const size_t close = CloseOf(code, open);
        if (close == kNone) continue;
        const absl::string_view inner = code.substr(open + 1, close - open - 2);
        if (code[open] == '(') {
          if (LooksLikeParameters(inner) || IsLiteralList(inner)) continue;
        } else if (AreLiteralDims(inner)) {
          continue;
        }
        add(i, close);
      }
    } else if (CheckingMutators().count(name) && member && after == '(') {
      const size_t close = CloseOf(code, next);
      if (close == kNone) continue;
      // InferenceContext::Concatenate(a, b, &out) returns a Status; only the one-argument
      // PartialTensorShape::Concatenate CHECKs.
      if (name == "Concatenate" &&
          TopLevelArgs(code.substr(next + 1, close - next - 2)).size() != 1) {
        continue;
      }
      add(i, close);
    } else if (ShapeTakingCalls().count(name)) {
      size_t open = next;
      if (name == "Tensor" && IsIdentChar(after)) {  // Tensor t(DT_FLOAT, {n})
        while (open < code.size() && IsIdentChar(code[open])) ++open;
        open = SkipSpace(code, open);
      }
      if (open >= code.size() || (code[open] != '(' && code[open] != '{')) continue;
      const size_t close = CloseOf(code, open);
      if (close == kNone) continue;
      const std::vector<absl::string_view> args =
          TopLevelArgs(code.substr(open + 1, close - open - 2));
      const size_t first = absl::StartsWith(name, "forward_input_or_allocate_") ? 1 : 0;
      for (size_t a = first; a < args.size(); ++a) {
        if (IsBracedList(args[a]) && !IsLiteralList(args[a])) {
          add(i, close);
          break;
        }
      }
    }
  }
  for (int line = 1; line <= static_cast<int>(split.comments.size()); ++line) {
    if (IsMarkerLine(split, line)) scan.markers.push_back(line);
  }
  return scan;
}

}  // namespace

std::string CodeOnly(absl::string_view text) { return Split(text).code; }

std::vector<Site> FindSites(absl::string_view text) { return ScanText(text).sites; }

std::vector<int> UnusedJustifications(absl::string_view text) {
  const Scan scan = ScanText(text);
  std::vector<int> unused;
  for (int line : scan.markers) {
    if (scan.used_markers.count(line) == 0) unused.push_back(line);
  }
  return unused;
}

bool IsScanned(absl::string_view path) {
  if (!absl::EndsWith(path, ".cc") && !absl::EndsWith(path, ".h")) return false;
  if (layering::IsTestSource(path)) return false;
  return absl::StartsWith(path, "kernels/") || absl::StartsWith(path, "graph/ops/") ||
         absl::StartsWith(path, "graph/shape/");
}

std::vector<std::string> FindViolations(const std::vector<layering::SourceFile>& files) {
  std::vector<std::string> violations;
  for (const layering::SourceFile& file : files) {
    if (!IsScanned(file.path)) continue;
    const Scan scan = ScanText(file.text);
    for (const Site& site : scan.sites) {
      if (site.justified) continue;
      violations.push_back(
          absl::StrCat(file.path, ":", site.line, ": ", site.what,
                       " can CHECK-fail on bad dims: build the shape with a Status-returning form "
                       "(BuildTensorShape, AddDimWithStatus, ...) or say why it cannot fail in a "
                       "`// shape-safe: <reason>` comment"));
    }
    for (int line : scan.markers) {
      if (scan.used_markers.count(line) == 0) {
        violations.push_back(absl::StrCat(file.path, ":", line,
                                          ": this shape-safe comment justifies no shape "
                                          "construction or mutator; remove it"));
      }
    }
  }
  return violations;
}

}  // namespace shape_lint
}  // namespace sluice
