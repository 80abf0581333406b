// Builds the executors of one Run signature: full graph -> pass pipeline -> one executor per
// device partition (see direct_session_executors.h).
#include "runtime/session/direct_session_executors.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/op/op_registry.h"
#include "graph/tensor_id.h"
#include "passes/pipeline.h"
#include "runtime/device/device.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/device_mgr.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/session/host_constant_evaluator.h"
#include "runtime/session/runtime_device_support.h"

namespace sluice {
namespace {

PipelineOptions MakePipelineOptions(const ExecutorBuildContext& context,
                                    const SessionExecutors& sig) {
  const ConfigProto& config = context.options->config;
  PipelineOptions opts;
  opts.optimizer_options = config.graph_options().optimizer_options();
  // Automatic mixed precision (TensorFlow's RewriterConfig toggles; the pipeline also reads
  // TF_ENABLE_AUTO_MIXED_PRECISION).
  opts.rewrite_options = config.graph_options().rewrite_options();
  const char* cuda_graphs = std::getenv("SLUICE_CUDA_GRAPHS");
  opts.cuda_graphs =
      context.options->cuda_graphs || (cuda_graphs != nullptr && std::string(cuda_graphs) == "1");
  opts.prune.feeds = sig.feeds;
  opts.prune.fetches = sig.fetches;
  opts.prune.targets = sig.targets;
  // The caller's tensors are where it keeps them: on the host CPU unless the callable named
  // another device (TensorFlow's session assigns its _Arg and _Retval nodes the same way).
  if (const Device* host = context.device_mgr->HostCPU(); host != nullptr) {
    opts.prune.call_frame_device = host->name();
  }
  opts.prune.feed_devices = context.call_frame_devices.feeds;
  opts.prune.fetch_devices = context.call_frame_devices.fetches;
  opts.watched_nodes = context.watched_nodes;
  for (Device* device : context.device_mgr->ListDevices()) {
    opts.placer.devices.push_back({device->name(), device->device_type().type_string()});
  }
  std::vector<DeviceType> types;
  for (const std::string& type : DeviceFactory::DeviceTypes()) types.emplace_back(type);
  opts.placer.device_support = MakeDeviceSupport(std::move(types));
  opts.kernel_exists = MakeKernelExists();
  opts.placer.allow_soft_placement = config.allow_soft_placement();
  opts.placer.log_device_placement = config.log_device_placement();
  // Among CPU devices, nodes that could go anywhere prefer the host CPU. With a GPU, a node
  // goes to the most preferred type that has its kernel (GPU before CPU), as TensorFlow's
  // session places it: no default device then.
  bool only_cpus = true;
  for (Device* device : context.device_mgr->ListDevices()) {
    only_cpus = only_cpus && device->device_type() == DeviceType(DEVICE_CPU);
  }
  if (Device* host = context.device_mgr->HostCPU(); host != nullptr && only_cpus) {
    opts.placer.default_device = host->name();
  }
  opts.constant_evaluator = context.constant_evaluator;
  const DeviceMgr* device_mgr = context.device_mgr;
  opts.partition.get_incarnation = [device_mgr](const std::string& name) -> uint64_t {
    Device* device = nullptr;
    return device_mgr->LookupDevice(name, &device).ok() ? device->incarnation() : 1;
  };
  SetMemoryTypeCallbacks(&opts.partition);
  return opts;
}

// Records the canonical signature, each feed's spec and the frame's dtypes from the full
// graph. Names the graph lacks get DT_INVALID; the pipeline then rejects them.
void DescribeSignature(const Graph& graph, SessionExecutors* sig) {
  for (int i = 0; i < static_cast<int>(sig->feeds.size()); ++i) {
    sig->feed_index[sig->feeds[i]] = i;
    sig->feed_specs.push_back(MakeFeedSpec(graph, sig->feeds[i]));
    sig->arg_types.push_back(sig->feed_specs.back().dtype);
  }
  for (int i = 0; i < static_cast<int>(sig->fetches.size()); ++i) {
    sig->fetch_index[sig->fetches[i]] = i;
    sig->ret_types.push_back(MakeFeedSpec(graph, sig->fetches[i]).dtype);
  }
}

// The rendezvous key through which the host CPU's client sends feed (or receives fetch)
// `name`, as the _Recv/_Send that pruning adds for it builds it.
absl::Status ClientKey(const Device& host, const std::string& name, Rendezvous::ParsedKey* key) {
  return Rendezvous::ParseKey(
      Rendezvous::CreateKey(host.name(), host.incarnation(), host.name(), name, "0:0"), key);
}

// Fills fetch_needs: for each fetch, the feeds reached walking back from its node over data
// and control edges, never past a fed tensor (nor a control edge out of a fed Placeholder,
// whose control consumers pruning hands to the feed's _Recv). Names that do not resolve are
// skipped; the pipeline reports them.
void DescribeFetchNeeds(const Graph& graph, SessionExecutors* sig) {
  absl::flat_hash_map<std::string, int> fed_tensors;  // "x:k" -> feed index
  absl::flat_hash_map<const Node*, std::vector<int>> fed_placeholders;
  for (int i = 0; i < static_cast<int>(sig->feeds.size()); ++i) {
    TensorId id;
    if (!ParseTensorNameStrict(sig->feeds[i], &id).ok()) continue;
    const Node* node = graph.FindNodeByName(id.node);
    if (node == nullptr) continue;
    fed_tensors[absl::StrCat(id.node, ":", id.index)] = i;
    if (node->IsPlaceholder()) fed_placeholders[node].push_back(i);
  }
  sig->fetch_needs.resize(sig->fetches.size());
  std::vector<int> visited(graph.num_node_ids(), -1);  // the last fetch that reached a node
  for (int f = 0; f < static_cast<int>(sig->fetches.size()); ++f) {
    TensorId id;
    if (!ParseTensorNameStrict(sig->fetches[f], &id).ok()) continue;
    const Node* start = graph.FindNodeByName(id.node);
    if (start == nullptr) continue;
    absl::flat_hash_set<int> needs;
    std::vector<const Node*> stack = {start};
    visited[start->id()] = f;
    while (!stack.empty()) {
      const Node* n = stack.back();
      stack.pop_back();
      for (const Edge* e : n->in_edges()) {
        const Node* src = e->src();
        if (!src->IsOp()) continue;
        if (e->IsControlEdge()) {
          auto it = fed_placeholders.find(src);
          if (it != fed_placeholders.end()) {
            needs.insert(it->second.begin(), it->second.end());
            continue;
          }
        } else {
          auto it = fed_tensors.find(absl::StrCat(src->name(), ":", e->src_output()));
          if (it != fed_tensors.end()) {
            needs.insert(it->second);
            continue;
          }
        }
        if (visited[src->id()] != f) {
          visited[src->id()] = f;
          stack.push_back(src);
        }
      }
    }
    sig->fetch_needs[f].assign(needs.begin(), needs.end());
    std::sort(sig->fetch_needs[f].begin(), sig->fetch_needs[f].end());
  }
}

// `graph_def` lives on `arena`, which the executor's graph shares so that it takes the
// partition's NodeDefs over instead of copying them.
// The watched nodes it has are recorded in `watched`.
absl::Status MakePartitionExecutor(Device* device, std::shared_ptr<google::protobuf::Arena> arena,
                                   GraphDef* graph_def, bool may_receive_dead,
                                   const std::vector<std::string>& watched_nodes,
                                   WatchableNodes* watched,
                                   SessionExecutors::Partition* partition) {
  auto graph = std::make_unique<Graph>(OpRegistry::Global(), std::move(arena));
  GraphConstructorOptions opts;
  opts.allow_internal_ops = true;
  opts.expect_device_spec = true;
  RETURN_IF_ERROR(ConvertGraphDefToGraph(opts, std::move(*graph_def), graph.get()));
  for (const std::string& name : watched_nodes) {
    const Node* node = graph->FindNodeByName(name);
    if (node != nullptr) (*watched)[name] = WatchableNode{device->name(), node->output_types()};
  }
  LocalExecutorParams params;
  params.device = device;
  params.may_receive_dead = may_receive_dead;
  params.create_kernel = [device](const Node& node, std::unique_ptr<OpKernel>* kernel) {
    return CreateOpKernel(device->device_type(), device, device->GetAllocator(), node.def(),
                          kernel);
  };
  partition->device = device;
  return NewLocalExecutor(std::move(params), std::move(graph), &partition->executor);
}

// Whether a tensor sent between these partitions may be dead: some partition has a Switch
// (the only op that makes dead tensors) and there is more than one partition.
bool PartitionsMaySendDead(const GraphPartitions& partitions) {
  if (partitions.graphs().size() < 2) return false;
  for (const auto& [device, gdef] : partitions.graphs()) {
    for (const NodeDef& node : gdef->node()) {
      if (node.op() == "Switch" || node.op() == "RefSwitch" || node.op() == "_SwitchN") {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

std::string CallFrameDevices::Key() const {
  if (empty()) return "";
  std::vector<std::string> entries;
  for (const auto& [tensor, device] : feeds)
    entries.push_back(absl::StrCat("<", tensor, "@", device));
  for (const auto& [tensor, device] : fetches) {
    entries.push_back(absl::StrCat(">", tensor, "@", device));
  }
  std::sort(entries.begin(), entries.end());
  return absl::StrCat("|devices:", absl::StrJoin(entries, ","));
}

GraphConstructorOptions SessionGraphOptions() {
  GraphConstructorOptions opts;
  // As TensorFlow's session: client graphs may hold internal names and ops (from tools
  // that export partially rewritten graphs).
  opts.allow_internal_ops = true;
  return opts;
}

std::string SignatureKey(const std::vector<std::string>& feeds,
                         const std::vector<std::string>& fetches,
                         const std::vector<std::string>& targets,
                         const std::vector<std::string>& watched_nodes) {
  // Tensor and node names cannot contain ',' or '|' (graph/op/graph_def_util.h's name rules;
  // watched names with them are left out, DebugWatchObserver::WatchedNodes).
  std::string key = absl::StrCat(absl::StrJoin(feeds, ","), "|", absl::StrJoin(fetches, ","), "|",
                                 absl::StrJoin(targets, ","));
  if (!watched_nodes.empty()) absl::StrAppend(&key, "|", absl::StrJoin(watched_nodes, ","));
  return key;
}

absl::Status BuildSessionExecutors(const ExecutorBuildContext& context,
                                   std::unique_ptr<Graph> graph, std::vector<std::string> feeds,
                                   std::vector<std::string> fetches,
                                   std::vector<std::string> targets,
                                   std::unique_ptr<SessionExecutors>* executors) {
  auto sig = std::make_unique<SessionExecutors>();
  sig->feeds = std::move(feeds);
  sig->fetches = std::move(fetches);
  sig->targets = std::move(targets);

  DescribeSignature(*graph, sig.get());

  PipelineOptions pipeline_options = MakePipelineOptions(context, *sig);
  if (context.partial_run) {
    // The client feeds and fetches on the host CPU, as TensorFlow's does on its first device.
    const Device* host = context.device_mgr->HostCPU();
    if (host == nullptr) return errors::Internal("Partial runs need a host CPU device");
    pipeline_options.prune.client_rendezvous =
        PruneOptions::ClientRendezvous{host->name(), host->incarnation()};
    for (const std::string& feed : sig->feeds) {
      RETURN_IF_ERROR(ClientKey(*host, feed, &sig->feed_keys.emplace_back()));
    }
    for (const std::string& fetch : sig->fetches) {
      RETURN_IF_ERROR(ClientKey(*host, fetch, &sig->fetch_keys.emplace_back()));
    }
    DescribeFetchNeeds(*graph, sig.get());
  }

  PipelineResult result;
  RETURN_IF_ERROR(RunPipeline(pipeline_options, std::move(graph), &result));

  const bool may_receive_dead = PartitionsMaySendDead(result.partitions);
  // Partitions in device order, so that steps and partition_graphs are deterministic.
  for (Device* device : context.device_mgr->ListDevices()) {
    GraphDef* gdef = result.partitions.Find(device->name());
    if (gdef == nullptr) continue;
    sig->partition_graphs.push_back(*gdef);
    SessionExecutors::Partition partition;
    RETURN_IF_ERROR(MakePartitionExecutor(device, result.partitions.shared_arena(), gdef,
                                          may_receive_dead, context.watched_nodes,
                                          &sig->watched_nodes, &partition));
    sig->partitions.push_back(std::move(partition));
    result.partitions.Erase(device->name());
  }
  if (!result.partitions.empty()) {
    return errors::Internal("Placement chose device ", result.partitions.graphs().begin()->first,
                            ", which the session does not have");
  }
  *executors = std::move(sig);
  return absl::OkStatus();
}

}  // namespace sluice
