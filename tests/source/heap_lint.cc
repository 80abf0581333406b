#include "tests/source/heap_lint.h"

#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace sluice {
namespace heap_lint {
namespace {

using lint_text::CloseOf;
using lint_text::Findings;
using lint_text::IsIdentChar;
using lint_text::IsIntegerLiteral;
using lint_text::kNone;
using lint_text::LooksLikeParameters;
using lint_text::SkipSpace;
using lint_text::TopLevelArgs;

// Containers whose sized constructions take their elements from the heap at once.
const std::set<std::string>& Containers() {
  static const auto* names = new std::set<std::string>{"std::vector", "std::deque",
                                                       "absl::InlinedVector", "absl::FixedArray"};
  return *names;
}

// Aliases of containers that kernels take from the layers below them (graph/core/types.h,
// graph/core/integer_tensor.h, runtime/framework/device_type.h).
const std::set<std::string>& LowerLayerAliases() {
  static const auto* names =
      new std::set<std::string>{"IntegerValues", "DataTypeVector", "MemoryTypeVector"};
  return *names;
}

// Members that take a count or a range of elements at once (insert only with three arguments).
const std::set<std::string>& SizingMembers() {
  static const auto* names = new std::set<std::string>{"resize", "reserve", "assign"};
  return *names;
}

const std::set<std::string>& AllocationFunctions() {
  static const auto* names = new std::set<std::string>{
      "malloc",      "calloc",      "realloc",      "aligned_alloc",     "posix_memalign",
      "std::malloc", "std::calloc", "std::realloc", "std::aligned_alloc"};
  return *names;
}

// Factories that allocate an array when their template argument is `T[]`.
const std::set<std::string>& ArrayFactories() {
  static const auto* names =
      new std::set<std::string>{"make_unique", "make_unique_for_overwrite", "make_shared"};
  return *names;
}

bool StartsName(char c) { return IsIdentChar(c) && !std::isdigit(static_cast<unsigned char>(c)); }

// The offset where the qualified name ending with the name at `begin` starts: the `s` of
// `std::vector`, or the `:` of a leading `::`.
size_t QualifiedStart(absl::string_view code, size_t begin) {
  size_t start = begin;
  while (true) {
    size_t back = start;
    while (back > 0 && absl::ascii_isspace(code[back - 1])) --back;
    if (back < 2 || code[back - 1] != ':' || code[back - 2] != ':') return start;
    back -= 2;
    size_t name = back;
    while (name > 0 && absl::ascii_isspace(code[name - 1])) --name;
    if (name == 0 || !IsIdentChar(code[name - 1])) return back;  // a leading `::`
    while (name > 0 && IsIdentChar(code[name - 1])) --name;
    start = name;
  }
}

// code[begin, end) without whitespace, a leading `::` or `sluice::`: "std::vector".
std::string Qualified(absl::string_view code, size_t begin, size_t end) {
  std::string name;
  for (size_t i = begin; i < end; ++i) {
    if (!absl::ascii_isspace(code[i])) name += code[i];
  }
  absl::string_view view = name;
  absl::ConsumePrefix(&view, "::");
  absl::ConsumePrefix(&view, "sluice::");
  return std::string(view);
}

// The offset just past the `>` that closes the template argument list opened at `open`, or
// kNone when a ';', '{' or '}' comes first (then `<` was a comparison).
size_t TemplateClose(absl::string_view code, size_t open) {
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    const char c = code[i];
    if (c == ';' || c == '{' || c == '}') return kNone;
    if (c == '(' || c == '[') {
      i = CloseOf(code, i);
      if (i == kNone) return kNone;
      --i;
      continue;
    }
    if (c == '<') ++depth;
    if (c == '>' && --depth == 0) return i + 1;
  }
  return kNone;
}

// For a declaration `name(` or `name{` at `pos`, the offset of the bracket; else kNone.
size_t DeclaredOpen(absl::string_view code, size_t pos) {
  if (pos >= code.size() || !StartsName(code[pos])) return kNone;
  while (pos < code.size() && IsIdentChar(code[pos])) ++pos;
  pos = SkipSpace(code, pos);
  if (pos >= code.size() || (code[pos] != '(' && code[pos] != '{')) return kNone;
  return pos;
}

// The arguments between the bracket at `open` and `close`.
std::vector<absl::string_view> ArgsOf(absl::string_view code, size_t open, size_t close) {
  return TopLevelArgs(code.substr(open + 1, close - open - 2));
}

bool AllIntegerLiterals(const std::vector<absl::string_view>& args) {
  for (absl::string_view arg : args) {
    if (!IsIntegerLiteral(arg)) return false;
  }
  return true;
}

// Where the receiver of the member name at `begin` starts: `plan->strides[k]` in
// `plan->strides[k].assign(n, 0)`. Only names, `.`, `->` and bracketed suffixes are taken in.
size_t ReceiverStart(absl::string_view code, size_t begin) {
  size_t start = begin;
  while (start > 0 && absl::ascii_isspace(code[start - 1])) --start;
  while (start > 0) {
    const char c = code[start - 1];
    if (c == '.') {
      --start;
    } else if (c == '>' && start > 1 && code[start - 2] == '-') {
      start -= 2;
    } else if (IsIdentChar(c)) {
      while (start > 0 && IsIdentChar(code[start - 1])) --start;
    } else if (c == ')' || c == ']') {
      int depth = 0;
      size_t open = start;
      while (open > 0) {
        const char b = code[--open];
        if (b == ')' || b == ']') ++depth;
        if ((b == '(' || b == '[') && --depth == 0) break;
      }
      if (depth != 0) break;
      start = open;
    } else {
      break;
    }
  }
  return start;
}

// The qualified name that starts at `pos` ("std::vector" of `std::vector<T>`), and where it
// ends.
std::string NameAt(absl::string_view code, size_t pos, size_t* end) {
  *end = pos;
  while (*end < code.size() && (IsIdentChar(code[*end]) || code[*end] == ':')) ++*end;
  return Qualified(code, pos, *end);
}

// The names this file gives to containers: `using Dims = absl::InlinedVector<int64_t, 8>;`,
// `typedef std::vector<int> Ids;` and `using std::vector;`, besides the containers themselves and
// the aliases of the layers below.
std::set<std::string> ContainerNames(absl::string_view code) {
  std::set<std::string> names = Containers();
  names.insert(LowerLayerAliases().begin(), LowerLayerAliases().end());
  for (size_t i = 0; i < code.size(); ++i) {
    if (!StartsName(code[i]) || (i > 0 && IsIdentChar(code[i - 1]))) continue;
    size_t end = i;
    const std::string keyword = NameAt(code, i, &end);
    if (keyword == "using") {
      size_t alias_end = 0;
      const std::string alias = NameAt(code, SkipSpace(code, end), &alias_end);
      const size_t equals = SkipSpace(code, alias_end);
      if (equals >= code.size()) continue;
      if (code[equals] == ';' && names.count(alias)) {  // using std::vector;
        names.insert(alias.substr(alias.rfind(':') + 1));
        continue;
      }
      if (code[equals] != '=') continue;
      size_t type_end = 0;
      if (names.count(NameAt(code, SkipSpace(code, equals + 1), &type_end))) names.insert(alias);
    } else if (keyword == "typedef") {
      size_t type_end = 0;
      if (!names.count(NameAt(code, SkipSpace(code, end), &type_end))) continue;
      size_t pos = SkipSpace(code, type_end);
      if (pos < code.size() && code[pos] == '<') pos = TemplateClose(code, pos);
      if (pos == kNone) continue;
      size_t alias_end = 0;
      const std::string alias = NameAt(code, SkipSpace(code, pos), &alias_end);
      if (!alias.empty()) names.insert(alias);
    }
  }
  return names;
}

// A sized construction of a container whose name ends at `end`: `std::vector<T> v(n)` or
// `std::vector<T>(n)`. Returns the end of the site, or kNone when it is not one.
size_t ContainerSite(absl::string_view code, size_t end) {
  size_t pos = SkipSpace(code, end);
  if (pos < code.size() && code[pos] == '<') {
    pos = TemplateClose(code, pos);
    if (pos == kNone) return kNone;
    pos = SkipSpace(code, pos);
  }
  if (pos >= code.size()) return kNone;
  const bool declared = code[pos] != '(';
  const size_t open = declared ? DeclaredOpen(code, pos) : pos;
  // A braced list holds its elements, not a count.
  if (open == kNone || code[open] != '(') return kNone;
  const size_t close = CloseOf(code, open);
  if (close == kNone) return kNone;
  if (declared && LooksLikeParameters(code.substr(open + 1, close - open - 2))) return kNone;
  const std::vector<absl::string_view> args = ArgsOf(code, open, close);
  if (args.empty() || AllIntegerLiterals(args)) return kNone;
  return close;
}

// A Tensor built by an allocating constructor (two or more arguments), the name ending at
// `end`: `Tensor(dtype, shape)`, `Tensor t(dtype, shape)`, `Tensor t{...}`. Returns the end of
// the site, or kNone when it is not one.
size_t TensorSite(absl::string_view code, size_t end) {
  const size_t pos = SkipSpace(code, end);
  if (pos >= code.size()) return kNone;
  const bool declared = code[pos] != '(' && code[pos] != '{';
  const size_t open = declared ? DeclaredOpen(code, pos) : pos;
  if (open == kNone) return kNone;
  const size_t close = CloseOf(code, open);
  if (close == kNone) return kNone;
  if (declared && code[open] == '(' &&
      LooksLikeParameters(code.substr(open + 1, close - open - 2))) {
    return kNone;
  }
  return ArgsOf(code, open, close).size() >= 2 ? close : kNone;
}

// `new T[n]`, the `new` ending at `end`. Returns the end of the site, or kNone when it is not
// one (`new T(...)`, `operator new[]`).
size_t NewArraySite(absl::string_view code, size_t end) {
  size_t pos = SkipSpace(code, end);
  if (pos < code.size() && code[pos] == '(') {  // placement arguments
    pos = CloseOf(code, pos);
    if (pos == kNone) return kNone;
  }
  bool typed = false;
  while (pos < code.size()) {
    const char c = code[pos];
    if (IsIdentChar(c)) {
      typed = true;
      ++pos;
    } else if (c == ':' || c == '*' || absl::ascii_isspace(c)) {
      ++pos;
    } else if (c == '<') {
      pos = TemplateClose(code, pos);
      if (pos == kNone) return kNone;
    } else {
      break;
    }
  }
  if (!typed || pos >= code.size() || code[pos] != '[') return kNone;
  return CloseOf(code, pos);
}

// `std::make_unique<T[]>(n)` and the like, the name ending at `end`.
size_t ArrayFactorySite(absl::string_view code, size_t end) {
  const size_t open = SkipSpace(code, end);
  if (open >= code.size() || code[open] != '<') return kNone;
  const size_t close = TemplateClose(code, open);
  if (close == kNone) return kNone;
  const absl::string_view type =
      absl::StripAsciiWhitespace(code.substr(open + 1, close - open - 2));
  if (!absl::EndsWith(type, "]")) return kNone;
  const size_t call = SkipSpace(code, close);
  if (call >= code.size() || code[call] != '(') return kNone;
  return CloseOf(code, call);
}

Findings ScanText(absl::string_view text) {
  Findings scan(text, kMarker);
  const absl::string_view code = scan.code();
  const std::set<std::string> containers = ContainerNames(code);
  for (size_t i = 0; i < code.size(); ++i) {
    if (!StartsName(code[i]) || (i > 0 && IsIdentChar(code[i - 1]))) continue;
    size_t end = i;
    while (end < code.size() && IsIdentChar(code[end])) ++end;
    const std::string name(code.substr(i, end - i));
    const size_t next = SkipSpace(code, end);
    const char after = next < code.size() ? code[next] : '\0';

    if (lint_text::IsMemberName(code, i)) {
      if (after != '(') continue;
      const size_t close = CloseOf(code, next);
      if (close == kNone) continue;
      const std::vector<absl::string_view> args = ArgsOf(code, next, close);
      if ((SizingMembers().count(name) && !AllIntegerLiterals(args)) ||
          (name == "insert" && args.size() == 3) || name == "DeepCopy") {
        scan.Add(ReceiverStart(code, i), close);
      }
      continue;
    }
    const size_t begin = QualifiedStart(code, i);
    const std::string qualified = Qualified(code, begin, end);
    size_t site_end = kNone;
    if (containers.count(qualified)) {
      site_end = ContainerSite(code, end);
    } else if (qualified == "Tensor" || qualified == "sluice::Tensor") {
      site_end = TensorSite(code, end);
    } else if (name == "new" && qualified == "new") {
      site_end = NewArraySite(code, end);
    } else if (ArrayFactories().count(name) && (qualified == name || qualified == "std::" + name)) {
      site_end = ArrayFactorySite(code, end);
    } else if ((AllocationFunctions().count(qualified) || name == "DefaultCpuAllocator") &&
               after == '(') {
      site_end = CloseOf(code, next);
    }
    if (site_end != kNone) scan.Add(begin, site_end);
  }
  return scan;
}

}  // namespace

std::vector<Site> FindSites(absl::string_view text) { return ScanText(text).sites(); }

std::vector<int> UnusedJustifications(absl::string_view text) {
  return ScanText(text).UnusedMarkers();
}

bool IsScanned(absl::string_view path) {
  if (!absl::EndsWith(path, ".cc") && !absl::EndsWith(path, ".h")) return false;
  if (layering::IsTestSource(path)) return false;
  if (path == "kernels/cpu/scratch.h" || path == "kernels/cpu/scratch.cc") return false;
  return absl::StartsWith(path, "kernels/");
}

std::vector<std::string> FindViolations(const std::vector<layering::SourceFile>& files) {
  std::vector<std::string> violations;
  for (const layering::SourceFile& file : files) {
    if (!IsScanned(file.path)) continue;
    const Findings scan = ScanText(file.text);
    for (const Site& site : scan.sites()) {
      if (site.justified) continue;
      violations.push_back(absl::StrCat(
          file.path, ":", site.line, ": ", site.what,
          " allocates outside the device's allocator: use ScratchArray / ParallelForWithScratch "
          "/ ctx->allocate_temp, or say why the size is bounded by the graph in a "
          "`// heap-ok: <reason>` comment"));
    }
    for (int line : scan.UnusedMarkers()) {
      violations.push_back(absl::StrCat(file.path, ":", line,
                                        ": this heap-ok comment justifies no allocation; "
                                        "remove it"));
    }
  }
  return violations;
}

}  // namespace heap_lint
}  // namespace sluice
