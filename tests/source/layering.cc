#include "tests/source/layering.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"

namespace sluice {
namespace layering {
namespace {

constexpr absl::string_view kForwardingMarker = "// Forwarding header";

// The quoted includes of `text`, in order.
std::vector<std::string> QuotedIncludes(absl::string_view text) {
  std::vector<std::string> includes;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripLeadingAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, "#")) continue;
    line = absl::StripLeadingAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, "include")) continue;
    line = absl::StripLeadingAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, "\"")) continue;
    const size_t end = line.find('"');
    if (end != absl::string_view::npos) includes.emplace_back(line.substr(0, end));
  }
  return includes;
}

bool IsUnderTestdata(absl::string_view path) {
  return absl::StartsWith(path, "testdata/") || absl::StrContains(path, "/testdata/");
}

absl::Status CheckAcyclic(const LayerTable& table) {
  std::map<std::string, int> state;  // 1: on the current path, 2: done
  std::function<absl::Status(const std::string&)> visit =
      [&](const std::string& layer) -> absl::Status {
    if (state[layer] == 2) return absl::OkStatus();
    if (state[layer] == 1) {
      return errors::InvalidArgument("the layers form a cycle through ", layer);
    }
    state[layer] = 1;
    for (const std::string& dep : table.uses.at(layer)) RETURN_IF_ERROR(visit(dep));
    state[layer] = 2;
    return absl::OkStatus();
  };
  for (const auto& entry : table.uses) RETURN_IF_ERROR(visit(entry.first));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LayerTable> ParseLayerTable(absl::string_view text) {
  LayerTable table;
  std::vector<std::string> named;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipWhitespace())) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) {
      return errors::InvalidArgument("layer table line '", line, "' has no ':'");
    }
    const std::string key(absl::StripAsciiWhitespace(line.substr(0, colon)));
    const std::vector<std::string> words =
        absl::StrSplit(line.substr(colon + 1), ' ', absl::SkipWhitespace());
    if (key == "tree") {
      table.trees.insert(words.begin(), words.end());
    } else if (key == "test_reach") {
      table.test_reach.insert(table.test_reach.end(), words.begin(), words.end());
    } else {
      if (!table.uses.emplace(key, words).second) {
        return errors::InvalidArgument("layer ", key, " is listed twice");
      }
    }
    named.insert(named.end(), words.begin(), words.end());
  }
  for (const std::string& layer : named) {
    if (table.uses.count(layer) == 0) {
      return errors::InvalidArgument("the layer table names ", layer, ", which is not a layer");
    }
  }
  RETURN_IF_ERROR(CheckAcyclic(table));
  return table;
}

std::string LayerOf(const LayerTable& table, absl::string_view path) {
  std::string best;
  for (const auto& entry : table.uses) {
    const std::string& layer = entry.first;
    if (!absl::StartsWith(path, absl::StrCat(layer, "/"))) continue;
    const absl::string_view rest = path.substr(layer.size() + 1);
    // A sub-folder of a layer that is not a tree is a layer of its own (or none).
    if (absl::StrContains(rest, '/') && table.trees.count(layer) == 0 && !IsUnderTestdata(rest)) {
      continue;
    }
    if (layer.size() > best.size()) best = layer;
  }
  return best;
}

std::set<std::string> Closure(const LayerTable& table, const std::string& layer) {
  std::set<std::string> seen = {layer};
  std::vector<std::string> todo = {layer};
  while (!todo.empty()) {
    const std::string current = todo.back();
    todo.pop_back();
    auto it = table.uses.find(current);
    if (it == table.uses.end()) continue;
    for (const std::string& dep : it->second) {
      if (seen.insert(dep).second) todo.push_back(dep);
    }
  }
  return seen;
}

bool IsTestSource(absl::string_view path) {
  const absl::string_view base = path.substr(path.rfind('/') + 1);
  return IsUnderTestdata(path) || absl::EndsWith(base, "_test.cc") ||
         absl::StrContains(base, "_testutil.") || absl::StrContains(base, "_test_util.") ||
         absl::StrContains(base, "_test_ops.") || absl::EndsWith(base, "_benchmark.cc");
}

std::vector<std::string> FindViolations(const LayerTable& table,
                                        const std::vector<SourceFile>& files,
                                        const std::set<std::string>& generated_headers) {
  std::map<std::string, const SourceFile*> by_path;
  for (const SourceFile& file : files) by_path[file.path] = &file;

  // Tests may also use the test reach's layers and what they use.
  std::set<std::string> reach;
  for (const std::string& layer : table.test_reach) {
    for (const std::string& below : Closure(table, layer)) reach.insert(below);
  }

  std::vector<std::string> violations;
  for (const SourceFile& file : files) {
    const std::string layer = LayerOf(table, file.path);
    if (layer.empty()) {
      violations.push_back(absl::StrCat(file.path, " lies in no layer of //:layers.bzl"));
      continue;
    }
    std::set<std::string> allowed = Closure(table, layer);
    if (IsTestSource(file.path)) allowed.insert(reach.begin(), reach.end());
    // Files under testdata/ stand in for users' code, which may include any public header.
    if (IsUnderTestdata(file.path)) {
      for (const auto& entry : table.uses) allowed.insert(entry.first);
    }
    for (const std::string& include : QuotedIncludes(file.text)) {
      const std::string included_layer = LayerOf(table, include);
      if (included_layer.empty()) continue;  // a system or third-party header
      auto it = by_path.find(include);
      if (it == by_path.end()) {
        if (!absl::EndsWith(include, ".pb.h") && generated_headers.count(include) == 0) {
          violations.push_back(absl::StrCat(file.path, " includes ", include,
                                            ", which is not among the checked sources (add its "
                                            "package's layer_sources() to tests/source/BUILD)"));
        }
      } else if (absl::StartsWith(it->second->text, kForwardingMarker) &&
                 !IsUnderTestdata(file.path)) {
        violations.push_back(absl::StrCat(file.path, " includes the forwarding header ", include,
                                          ", which is kept only for users' code"));
      }
      if (allowed.count(included_layer) == 0) {
        violations.push_back(
            absl::StrCat(file.path, " (layer ", layer, ") includes ", include, " (layer ",
                         included_layer, "), which it may not use: ", layer, " may use ",
                         absl::StrJoin(table.uses.at(layer), ", "), " and what they use"));
      }
    }
  }
  return violations;
}

}  // namespace layering
}  // namespace sluice
