#include "runtime/debug/debug_watch_observer.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

constexpr absl::string_view kFileScheme = "file://";
constexpr absl::string_view kGrpcScheme = "grpc://";

// The folder a file:// URL names; an empty path is the working directory, as TensorFlow
// joins it.
std::string DumpRoot(const std::string& url) {
  std::string root = url.substr(kFileScheme.size());
  return root.empty() ? "." : root;
}

// TensorFlow skips watches that would dump nowhere.
bool IsEffective(const DebugTensorWatch& watch) {
  return watch.debug_ops_size() > 0 && watch.debug_urls_size() > 0;
}

// A node's name becomes a path under the device's folder; ".." would climb out of it (node
// names may hold '.' and '/').
bool LeavesDumpRoot(const std::string& node) {
  for (absl::string_view part : absl::StrSplit(node, '/')) {
    if (part == "..") return true;
  }
  return false;
}

// Makes the ops of `watch` for output `slot` of a node whose outputs have `types`; tolerated
// failures leave ops out.
absl::Status MakeOps(const DebugTensorWatch& watch, const std::string& tensor_name, DataType dtype,
                     std::vector<DebugOp>* ops) {
  std::vector<DebugOpSpec> specs(watch.debug_ops_size());
  for (int i = 0; i < watch.debug_ops_size(); ++i) {
    RETURN_IF_ERROR(ParseDebugOpSpec(watch.debug_ops(i), tensor_name, &specs[i]));
  }
  for (int i = 0; i < watch.debug_ops_size(); ++i) {
    DebugOp op;
    const absl::Status made = MakeDebugOp(specs[i], tensor_name, i, dtype, &op);
    if (made.ok()) {
      ops->push_back(std::move(op));
    } else if (!watch.tolerate_debug_op_creation_failures()) {
      return made;
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool DebugWatchObserver::HasWatches(const DebugOptions& options) {
  return options.debug_tensor_watch_opts_size() > 0;
}

std::vector<std::string> DebugWatchObserver::WatchedNodes(const DebugOptions& options) {
  std::set<std::string> names;
  for (const DebugTensorWatch& watch : options.debug_tensor_watch_opts()) {
    if (!IsEffective(watch)) continue;
    const std::string& name = watch.node_name();
    if (name.find_first_of(",|") != std::string::npos) continue;
    names.insert(name);
  }
  return std::vector<std::string>(names.begin(), names.end());
}

absl::Status DebugWatchObserver::CheckUrls(const DebugOptions& options) {
  for (const DebugTensorWatch& watch : options.debug_tensor_watch_opts()) {
    for (const std::string& url : watch.debug_urls()) {
      if (absl::StartsWith(url, kFileScheme)) continue;
      if (absl::StartsWith(url, kGrpcScheme)) {
        return errors::Unimplemented("Debug URL ", url,
                                     ": gRPC debug URLs are not supported; use file://");
      }
      return errors::InvalidArgument("Invalid debug target URL: ", url);
    }
  }
  return absl::OkStatus();
}

absl::Status DebugWatchObserver::Start(const DebugOptions& options, const WatchableNodes& nodes,
                                       absl::Span<const DebugPartition> partitions,
                                       const RunCoreMetadata& metadata,
                                       std::unique_ptr<DebugWatchObserver>* observer) {
  observer->reset();
  RETURN_IF_ERROR(CheckUrls(options));

  // The last effective watch of each tensor counts.
  std::map<std::pair<std::string, int>, const DebugTensorWatch*> tensors;
  for (const DebugTensorWatch& watch : options.debug_tensor_watch_opts()) {
    if (IsEffective(watch)) tensors[{watch.node_name(), watch.output_slot()}] = &watch;
  }

  std::unique_ptr<DebugWatchObserver> made(new DebugWatchObserver());
  for (const auto& [tensor, watch] : tensors) {
    const auto& [name, slot] = tensor;
    auto node = nodes.find(name);
    if (node == nodes.end()) continue;
    const DataTypeVector& types = node->second.output_types;
    if (slot < 0 || slot >= static_cast<int>(types.size())) continue;
    if (LeavesDumpRoot(name)) {
      return errors::InvalidArgument("Cannot watch node '", name,
                                     "': its debug dumps would be written outside the dump root");
    }
    TensorWatch output;
    output.slot = slot;
    RETURN_IF_ERROR(
        MakeOps(*watch, absl::StrCat(name, ":", slot), BaseType(types[slot]), &output.ops));
    if (output.ops.empty()) continue;
    for (const std::string& url : watch->debug_urls()) output.roots.push_back(DumpRoot(url));
    NodeWatches& watches = made->nodes_[name];
    watches.device = node->second.device;
    watches.outputs.push_back(std::move(output));
  }

  // Graphs and metadata go to every root any watch names, once each.
  std::vector<std::string> roots;
  for (const DebugTensorWatch& watch : options.debug_tensor_watch_opts()) {
    for (const std::string& url : watch.debug_urls()) {
      const std::string root = DumpRoot(url);
      if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(root);
    }
  }
  for (const std::string& root : roots) {
    for (const DebugPartition& partition : partitions) {
      RETURN_IF_ERROR(WriteGraph(root, partition.device, *partition.graph));
    }
    RETURN_IF_ERROR(WriteCoreMetadata(root, metadata));
  }
  *observer = std::move(made);
  return absl::OkStatus();
}

absl::Status DebugWatchObserver::OnOutput(const Node& node, int output, const Tensor& value) {
  auto it = nodes_.find(node.name());
  if (it == nodes_.end()) return absl::OkStatus();
  const NodeWatches& watches = it->second;
  for (const TensorWatch& watch : watches.outputs) {
    if (watch.slot != output) continue;
    for (const DebugOp& op : watch.ops) {
      Tensor dumped;
      if (!ApplyDebugOp(op, value, &dumped)) continue;
      for (const std::string& root : watch.roots) {
        RETURN_IF_ERROR(
            WriteTensorDump(root, watches.device, node.name(), output, op.name, dumped));
      }
    }
  }
  return absl::OkStatus();
}

int DebugWatchObserver::num_watched_tensors() const {
  int count = 0;
  for (const auto& [name, watches] : nodes_) count += static_cast<int>(watches.outputs.size());
  return count;
}

}  // namespace sluice
