// SessionExecutors: everything DirectSession builds once per Run signature, and the build.
//
// A signature is (feeds, fetches, targets) in canonical order: feeds and targets sorted,
// fetches sorted with duplicates removed; a Run with debug watches adds the watched node names
// (sorted, unique), which the optimisation passes keep (PipelineOptions::watched_nodes). Feed i is
// `_Arg` index i and fetch i `_Retval` index i of the pruned graph (passes/prune.h); callers that
// list names in another order are mapped through feed_index / fetch_index.
//
// A partial run's executors (ExecutorBuildContext::partial_run) take feeds and fetches
// through the step's rendezvous instead, since its feeds arrive after the step started:
// feed i is a client-terminated `_Recv` and fetch i a `_Send` on the host CPU, whose keys are
// feed_keys[i] / fetch_keys[i]; fetch_needs[i] lists the feeds fetch i cannot be computed
// without.
//
// BuildSessionExecutors runs the pass pipeline over the session's graph (prune, place,
// optimise, partition) with the runtime's kernel registry and devices, then makes one
// executor per partition on its device, whose kernels are created there and then once.
//
// Errors: GraphDef conversion, pipeline (unknown feed/fetch/target names with TensorFlow's
// texts, placement), partition conversion and kernel creation errors, each naming the node;
// nothing is built on error.
// Ownership and thread safety: a SessionExecutors is immutable once built and shared by
// every step of its signature (executors may run many steps at once). Its executors refer
// to devices owned by the session's DeviceMgr, which must outlive it.
#ifndef SLUICE_RUNTIME_SESSION_DIRECT_SESSION_EXECUTORS_H_
#define SLUICE_RUNTIME_SESSION_DIRECT_SESSION_EXECUTORS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "graph/core/types.h"
#include "graph/import/graph_constructor.h"
#include "proto/graph.pb.h"
#include "runtime/debug/debug_watch_observer.h"
#include "runtime/device/session_options.h"
#include "runtime/executor/executor.h"
#include "runtime/framework/rendezvous.h"
#include "runtime/session/feed_validation.h"

namespace sluice {

class Device;
class DeviceMgr;
class HostConstantEvaluator;

struct SessionExecutors {
  struct Partition {
    Device* device = nullptr;  // Not owned.
    std::unique_ptr<Executor> executor;
  };

  // Canonical signature; position = _Arg / _Retval index.
  std::vector<std::string> feeds;
  std::vector<std::string> fetches;
  std::vector<std::string> targets;
  // Name as the caller spelled it -> index in feeds / fetches.
  absl::flat_hash_map<std::string, int> feed_index;
  absl::flat_hash_map<std::string, int> fetch_index;
  // Per feed, what its value must look like.
  std::vector<FeedSpec> feed_specs;
  DataTypeVector arg_types;
  DataTypeVector ret_types;

  std::vector<Partition> partitions;
  // The partitions' GraphDefs, for RunMetadata.partition_graphs and debug dumps.
  std::vector<GraphDef> partition_graphs;

  // Debug watches only (empty otherwise). The watched nodes the partitions have.
  WatchableNodes watched_nodes;
  // Debugged Runs of these executors so far: TensorFlow's executor_step_index. The one thing
  // that changes after the build.
  mutable std::atomic<int64_t> debug_steps{0};

  // Partial runs only (empty otherwise). The rendezvous key of each feed and fetch.
  std::vector<Rendezvous::ParsedKey> feed_keys;
  std::vector<Rendezvous::ParsedKey> fetch_keys;
  // Per fetch, the indices of the feeds it depends on in the full graph: walking back from
  // the fetch over data and control edges, a fed tensor (or a control edge out of a fed
  // Placeholder) ends the walk, as pruning cuts there.
  std::vector<std::vector<int>> fetch_needs;
};

// Where a callable's feeds and fetches live (CallableOptions.feed_devices/fetch_devices): full
// device names by tensor name as the caller spells it. A tensor not named lives on the host
// CPU, as every feed and fetch of Run does.
struct CallFrameDevices {
  absl::flat_hash_map<std::string, std::string> feeds;
  absl::flat_hash_map<std::string, std::string> fetches;

  bool empty() const { return feeds.empty() && fetches.empty(); }
  // What signature keys append for these devices: "" when empty, else the sorted entries.
  std::string Key() const;
};

// What a build reads from the session; nothing is owned.
struct ExecutorBuildContext {
  const SessionOptions* options = nullptr;
  const DeviceMgr* device_mgr = nullptr;
  // Constant folding's evaluator; null disables folding.
  HostConstantEvaluator* constant_evaluator = nullptr;
  // Build for a partial run: feeds and fetches through the rendezvous (see above).
  bool partial_run = false;
  // The nodes a debugged Run watches (sorted, unique), kept through optimisation.
  std::vector<std::string> watched_nodes;
  // Feeds and fetches that live off the host CPU (not with partial_run).
  CallFrameDevices call_frame_devices;
};

// How the session converts its GraphDef, at Create/Extend and at each build.
GraphConstructorOptions SessionGraphOptions();

// The canonical key of a signature (feeds, fetches, targets and watched nodes already
// canonical).
std::string SignatureKey(const std::vector<std::string>& feeds,
                         const std::vector<std::string>& fetches,
                         const std::vector<std::string>& targets,
                         const std::vector<std::string>& watched_nodes = {});

// Builds the executors of the canonical signature over `graph` (the session's graph converted
// with SessionGraphOptions(), not null), which the build consumes.
absl::Status BuildSessionExecutors(const ExecutorBuildContext& context,
                                   std::unique_ptr<Graph> graph, std::vector<std::string> feeds,
                                   std::vector<std::string> fetches,
                                   std::vector<std::string> targets,
                                   std::unique_ptr<SessionExecutors>* executors);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_DIRECT_SESSION_EXECUTORS_H_
