// The backward walk from fetches and the registry scan (see the header).
#include "tools/cli/graph_needs.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/tensor_id.h"

namespace sluice {
namespace cli {
namespace {

bool IsPlaceholderOp(const std::string& op) {
  return op == "Placeholder" || op == "PlaceholderV2" || op == "PlaceholderWithDefault";
}

// The ops whose control consumers pruning moves onto their feed (Graph's kPlaceholder class).
// A fed PlaceholderWithDefault still runs for its control consumers, reading its default.
bool ControlEdgesMoveToFeed(const std::string& op) {
  return op == "Placeholder" || op == "PlaceholderV2";
}

std::string Key(absl::string_view node, int index) { return absl::StrCat(node, ":", index); }

}  // namespace

std::string FedTensorKey(const std::string& tensor_name) {
  const TensorId id = ParseTensorName(tensor_name);
  return Key(id.node, id.index);
}

FetchNeeds FindFetchNeeds(const GraphDef& graph_def, const std::vector<std::string>& fetches,
                          const std::vector<std::string>& feeds) {
  absl::flat_hash_map<absl::string_view, const NodeDef*> by_name;
  by_name.reserve(graph_def.node_size());
  for (const NodeDef& node : graph_def.node()) by_name.emplace(node.name(), &node);
  absl::flat_hash_set<std::string> fed;
  // The fed tensors' nodes: a key is built only for an input from one of them (a big graph
  // has millions of inputs and a handful of feeds).
  absl::flat_hash_set<std::string> fed_nodes;
  for (const std::string& feed : feeds) {
    const TensorId id = ParseTensorName(feed);
    if (id.index >= 0) {
      fed.insert(Key(id.node, id.index));
      fed_nodes.insert(std::string(id.node));
    }
  }

  FetchNeeds needs;
  std::vector<const NodeDef*> stack;
  auto visit = [&](absl::string_view name) {
    auto it = by_name.find(name);
    if (it != by_name.end() && needs.nodes.insert(it->first).second) {
      stack.push_back(it->second);
    }
  };
  for (const std::string& fetch : fetches) {
    const TensorId id = ParseTensorName(fetch);
    std::string key = Key(id.node, id.index);
    if (id.index >= 0 && fed.contains(key)) {
      needs.fed_tensors.insert(std::move(key));  // fetching a fed tensor returns the feed
    } else {
      visit(id.node);
    }
  }
  while (!stack.empty()) {
    const NodeDef* node = stack.back();
    stack.pop_back();
    for (const std::string& input : node->input()) {
      const TensorId id = ParseTensorName(input);
      if (!fed_nodes.contains(id.node)) {
        visit(id.node);
        continue;
      }
      if (id.index == kControlSlot) {
        auto it = by_name.find(id.node);
        const std::string output0 = Key(id.node, 0);
        if (it != by_name.end() && ControlEdgesMoveToFeed(it->second->op()) &&
            fed.contains(output0)) {
          needs.fed_tensors.insert(output0);
          continue;
        }
      } else {
        std::string key = Key(id.node, id.index);
        if (fed.contains(key)) {
          needs.fed_tensors.insert(std::move(key));
          continue;
        }
      }
      visit(id.node);
    }
  }
  for (const NodeDef& node : graph_def.node()) {
    // by_name holds the first node of a name; a duplicate is the importer's error to report.
    if (IsPlaceholderOp(node.op()) && needs.nodes.count(node.name()) > 0 &&
        by_name[node.name()] == &node) {
      needs.placeholders.push_back(node.name());
    }
  }
  return needs;
}

std::vector<UnregisteredOp> FindUnregisteredOps(const GraphDef& graph_def,
                                                const OpRegistryInterface& registry) {
  absl::flat_hash_set<std::string> functions;
  for (const FunctionDef& function : graph_def.library().function()) {
    functions.insert(function.signature().name());
  }
  absl::flat_hash_map<std::string, bool> registered;  // by op, looked up once each
  std::map<std::string, UnregisteredOp> missing;      // sorted by op
  // Records `node` (named `name`) when its op is unknown. A call of a library function (a
  // node whose op is the function's name), in the graph or in a body, is no missing op: the
  // session inlines it.
  auto check = [&](const NodeDef& node, std::string name) {
    auto [known, added] = registered.try_emplace(node.op(), false);
    if (added) {
      const OpRegistrationData* data = nullptr;
      known->second = registry.LookUp(node.op(), &data).ok() || functions.contains(node.op());
    }
    if (known->second) return;
    UnregisteredOp& op = missing[node.op()];
    if (op.nodes.empty()) op.op = node.op();
    op.nodes.push_back(std::move(name));
  };
  for (const NodeDef& node : graph_def.node()) check(node, node.name());
  for (const FunctionDef& function : graph_def.library().function()) {
    for (const NodeDef& node : function.node_def()) {
      check(node, absl::StrCat(function.signature().name(), "/", node.name()));
    }
  }
  std::vector<UnregisteredOp> result;
  result.reserve(missing.size());
  for (auto& entry : missing) result.push_back(std::move(entry.second));
  return result;
}

std::string FirstNames(const std::vector<std::string>& names, size_t max_names) {
  const size_t shown = std::min(names.size(), std::max<size_t>(max_names, 1));
  std::string text = absl::StrJoin(names.begin(), names.begin() + shown, ", ");
  if (shown < names.size()) absl::StrAppend(&text, " and ", names.size() - shown, " more");
  return text;
}

}  // namespace cli
}  // namespace sluice
