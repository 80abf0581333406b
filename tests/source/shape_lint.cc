#include "tests/source/shape_lint.h"

#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace sluice {
namespace shape_lint {
namespace {

using lint_text::CloseOf;
using lint_text::Findings;
using lint_text::IsIdentChar;
using lint_text::IsIntegerLiteral;
using lint_text::kNone;
using lint_text::LooksLikeParameters;
using lint_text::SkipSpace;
using lint_text::TopLevelArgs;

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

Findings ScanText(absl::string_view text) {
  Findings scan(text, kMarker);
  const absl::string_view code = scan.code();
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
    const bool member = lint_text::IsMemberName(code, i);

    if (ShapeTypes().count(name) && !member) {
      if (after == '(' || after == '{') {
        // A temporary: TensorShape(dims), TensorShape{a, b}.
        const size_t close = CloseOf(code, next);
        if (close == kNone) continue;
        const absl::string_view inner = code.substr(next + 1, close - next - 2);
        const bool literal =
            after == '(' ? (absl::StripAsciiWhitespace(inner).empty() || IsLiteralList(inner))
                         : AreLiteralDims(inner);
        if (!literal) scan.Add(i, close);
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
        scan.Add(i, close);
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
      scan.Add(i, close);
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
          scan.Add(i, close);
          break;
        }
      }
    }
  }
  return scan;
}

}  // namespace

std::string CodeOnly(absl::string_view text) { return lint_text::Split(text).code; }

std::vector<Site> FindSites(absl::string_view text) { return ScanText(text).sites(); }

std::vector<int> UnusedJustifications(absl::string_view text) {
  return ScanText(text).UnusedMarkers();
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
    const Findings scan = ScanText(file.text);
    for (const Site& site : scan.sites()) {
      if (site.justified) continue;
      violations.push_back(
          absl::StrCat(file.path, ":", site.line, ": ", site.what,
                       " can CHECK-fail on bad dims: build the shape with a Status-returning form "
                       "(BuildTensorShape, AddDimWithStatus, ...) or say why it cannot fail in a "
                       "`// shape-safe: <reason>` comment"));
    }
    for (int line : scan.UnusedMarkers()) {
      violations.push_back(absl::StrCat(file.path, ":", line,
                                        ": this shape-safe comment justifies no shape "
                                        "construction or mutator; remove it"));
    }
  }
  return violations;
}

}  // namespace shape_lint
}  // namespace sluice
