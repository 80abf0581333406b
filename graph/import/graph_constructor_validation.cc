// Per-NodeDef checks of the importer: name grammar, op lookup with suggestions, op
// deprecation, defaults and OpDef validation; small name helpers.
#include <algorithm>
#include <cctype>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/import/graph_constructor_internal.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_def_util.h"
#include "graph/tensor_id.h"

namespace sluice {
namespace import_internal {
namespace {

// Levenshtein distance, ignoring case.
int EditDistance(absl::string_view a, absl::string_view b) {
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int substitute =
          diagonal + (absl::ascii_tolower(a[i - 1]) == absl::ascii_tolower(b[j - 1]) ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
    }
  }
  return row[b.size()];
}

std::string DidYouMean(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  for (const std::string& n : names) quoted.push_back(absl::StrCat("'", n, "'"));
  if (quoted.size() == 1) return absl::StrCat(" Did you mean ", quoted[0], "?");
  return absl::StrCat(" Did you mean one of ", absl::StrJoin(quoted, ", "), "?");
}

}  // namespace

bool IsMergeOp(const NodeDef& n) {
  return n.op() == "Merge" || n.op() == "RefMerge" || n.op() == "_XlaMerge";
}

bool IsNextIterationOp(const NodeDef& n) {
  return n.op() == "NextIteration" || n.op() == "RefNextIteration";
}

std::string TensorIndexString(const TensorIndex& t) {
  if (t.second == kControlSlot) return absl::StrCat("^", t.first);
  return absl::StrCat(t.first, ":", t.second);
}

// Adds every proper '/'-prefix of `name` ("a/b/c" -> "a", "a/b").
void AddPrefixes(absl::string_view name, absl::flat_hash_set<std::string>* prefixes) {
  for (size_t pos = name.find('/'); pos != absl::string_view::npos; pos = name.find('/', pos + 1)) {
    prefixes->insert(std::string(name.substr(0, pos)));
  }
}

std::vector<std::string> SimilarOpNames(const OpRegistryInterface& registry, absl::string_view op) {
  // A Graph's registry (its library's functions over a base registry) lists its base's ops.
  const OpRegistryInterface* base = &registry;
  while (const auto* library = dynamic_cast<const LibraryOpRegistry*>(base)) {
    base = library->base();
  }
  const auto* listing = dynamic_cast<const OpRegistry*>(base);
  if (listing == nullptr || op.empty()) return {};
  // Allow about one edit per three characters, so short names only match near-misses.
  const int budget = std::max<int>(1, std::min<int>(3, static_cast<int>(op.size()) / 3));
  std::vector<std::pair<int, std::string>> scored;
  for (std::string& name : listing->ListOpNames()) {
    const int d = EditDistance(op, name);
    if (d <= budget) scored.emplace_back(d, std::move(name));
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) out.push_back(std::move(scored[i].second));
  return out;
}

absl::Status LookUpOpForNode(const OpRegistryInterface& registry, const NodeDef& node_def,
                             const OpDef** op_def) {
  absl::Status s = registry.LookUpOpDef(node_def.op(), op_def);
  if (s.ok()) return s;
  if (errors::IsNotFound(s)) {
    const std::vector<std::string> similar = SimilarOpNames(registry, node_def.op());
    if (!similar.empty()) s = errors::AppendToMessage(s, DidYouMean(similar));
  }
  return AttachDef(s, node_def);
}

absl::Status CheckOpDeprecation(const OpDef& op_def, int producer) {
  if (!op_def.has_deprecation()) return absl::OkStatus();
  const OpDeprecation& dep = op_def.deprecation();
  if (producer >= dep.version()) {
    return errors::Unimplemented("Op ", op_def.name(), " is not available in GraphDef version ",
                                 producer, ". It has been removed in version ", dep.version(), ". ",
                                 dep.explanation(), ".");
  }
  return absl::OkStatus();
}

absl::Status PrepareNodeDef(const OpDef& op_def, bool add_defaults, bool validate,
                            NodeDef* node_def, bool* typed, DataTypeVector* inputs,
                            DataTypeVector* outputs) {
  *typed = false;
  if (add_defaults) AddDefaultsToNodeDef(op_def, node_def);
  if (!validate) return absl::OkStatus();
  std::vector<std::string> unknown;
  for (const auto& entry : node_def->attr()) {
    if (entry.first[0] != '_' && FindAttr(entry.first, op_def) == nullptr) {
      unknown.push_back(entry.first);
    }
  }
  for (const std::string& name : unknown) {
    LOG(WARNING) << "NodeDef mentions attribute " << name << " which is not in the op "
                 << "definition: " << SummarizeOpDef(op_def) << " This may be expected if your "
                 << "graph generating binary is newer than this binary. Unknown attributes "
                 << "will be ignored. NodeDef: " << FormatNodeDefForError(*node_def);
    node_def->mutable_attr()->erase(name);
  }
  RETURN_IF_ERROR(ValidateNodeDef(*node_def, op_def, inputs, outputs));
  // Without the defaults, validation typed a copy that has them, which the node lacks.
  *typed = add_defaults;
  return absl::OkStatus();
}

}  // namespace import_internal
}  // namespace sluice
