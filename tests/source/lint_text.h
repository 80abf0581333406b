// Text machinery shared by the source lints (shape_lint, heap_lint): they read C++ without a
// parser, so they need the code with comments and literals blanked, the comments of each line,
// bracket matching, statement boundaries, and the rule by which a comment of the form
// "<marker> <reason>" justifies a site.
//
// The justification rule, the same for every lint: a site is justified by a comment whose text
// starts with the lint's marker (e.g. "shape-safe:") followed by a non-empty reason, either on
// a line of the statement up to the site's line, or in the comment lines directly above the
// statement. A marker comment that justifies no site is reported by the lints, so that reasons
// do not outlive the code they were written for; Findings keeps that account.
#ifndef SLUICE_TESTS_SOURCE_LINT_TEXT_H_
#define SLUICE_TESTS_SOURCE_LINT_TEXT_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace sluice {
namespace lint_text {

constexpr size_t kNone = std::string::npos;

bool IsIdentChar(char c);

// The code of a file with comments and literals blanked, and the comments of each line.
struct SplitText {
  // The file's text with every comment, string literal and character literal replaced by
  // spaces, newlines kept, so offsets and line numbers stay those of the text.
  std::string code;
  std::vector<std::vector<std::string>> comments;  // per 0-based line, each comment's text
  std::vector<size_t> line_starts;                 // offset of each line's first character

  // The 1-based line holding `offset`.
  int LineOf(size_t offset) const;
};

SplitText Split(absl::string_view text);

// The first offset at or after `pos` that is not whitespace (code.size() if none).
size_t SkipSpace(absl::string_view code, size_t pos);

// The offset just past the bracket ((, { or [) that closes the one at `open`, or kNone.
size_t CloseOf(absl::string_view code, size_t open);

// The comma-separated parts of `inner` at bracket depth 0, trimmed; none for blank `inner`.
std::vector<absl::string_view> TopLevelArgs(absl::string_view inner);

// An integer literal, possibly signed and suffixed: 3, -1, 0x10, 2LL, 1'000.
bool IsIntegerLiteral(absl::string_view s);

// Whether the name starting at `begin` is reached through `.` or `->`.
bool IsMemberName(absl::string_view code, size_t begin);

// Whether a parenthesised list after `Type name` declares parameters (a function) rather than
// passing arguments: it is empty, or some part names a type and then a parameter
// (`const Tensor& t`, `int64_t n`). A `*` or `&` with whitespace on both sides is taken for a
// binary operator (`n * m` is an argument), as the tree's format writes it.
bool LooksLikeParameters(absl::string_view inner);

// The offset where the statement holding `pos` begins: just after the last ';', '{' or '}'
// before it, where a braced list inside the statement (a '}' followed by ')', ',', '.' or ']',
// as in `c ? TensorShape({}) : TensorShape(x)`) is passed over whole.
size_t StatementStart(absl::string_view code, size_t pos);

// code[begin, end) on one line, runs of whitespace as one space, at most 100 characters.
std::string Excerpt(absl::string_view code, size_t begin, size_t end);

// The reason of a `marker` comment (text after the marker, trimmed), or "" when the comment is
// not one or gives no reason.
absl::string_view ReasonOf(absl::string_view comment, absl::string_view marker);

// Whether a comment on the 1-based `line` is a `marker` comment with a reason.
bool IsMarkerLine(const SplitText& split, int line, absl::string_view marker);

// The `marker` lines that justify a site at `pos` under the rule above.
std::vector<int> JustifyingLines(const SplitText& split, size_t pos, absl::string_view marker);

struct Site {
  int line = 0;      // 1-based
  std::string what;  // the construction or call, e.g. "TensorShape(dims)"
  bool justified = false;
};

// The sites one lint finds in one file, and which of the file's marker comments justified them.
class Findings {
 public:
  Findings(absl::string_view text, absl::string_view marker);

  const SplitText& split() const { return split_; }
  absl::string_view code() const { return split_.code; }

  // Records the site spanning code()[begin, end), justified or not.
  void Add(size_t begin, size_t end);

  // Every site added, in the order added.
  const std::vector<Site>& sites() const { return sites_; }

  // The lines of marker comments that justify none of the sites added, in order.
  std::vector<int> UnusedMarkers() const;

 private:
  SplitText split_;
  std::string marker_;
  std::vector<Site> sites_;
  std::set<int> used_markers_;
};

}  // namespace lint_text
}  // namespace sluice

#endif  // SLUICE_TESTS_SOURCE_LINT_TEXT_H_
