// DebugWatchObserver: RunOptions.debug_options (proto/debug.proto) carried out for one Run,
// as TensorFlow's DirectSession does for tfdbg (v1): the watched node outputs go through
// their debug ops (debug_op.h) into file dumps that TensorFlow's DebugDumpDir reads
// (dump_files.h). It is the Run's NodeOutputObserver (runtime/framework/node_output_observer.h),
// so the graph that runs is not changed to watch it; DirectSession makes one per Run that has
// watches.
//
// Which watches count, as in TensorFlow:
//  - A watch without debug ops or without URLs is ignored (its URLs still get the Run's
//    metadata and graphs). Of several watches of one tensor ("node:slot"), the last counts.
//  - A watch dumps only if its node runs in the Run, under that name, and has that output:
//    a node the graph lacks, that the fetches and targets do not need, or that is fed (fed
//    tensors enter as `_arg_...` nodes), an output slot out of range, and a dead output (an
//    untaken Switch branch) dump nothing and are no error. A node inside a loop dumps once per
//    iteration.
//  - The session keeps every watched node through optimisation (WatchedNodes is given to the
//    pipeline as names to protect): a watched node is not folded away (a constant one
//    becomes a Const of its name), merged, fused or removed. TensorFlow loses watches on nodes
//    Grappler folds or fuses; Sluice dumps them.
//
// Start checks everything before the Run's first node runs:
//  - every URL of every watch: file:// only. grpc:// is UNIMPLEMENTED; any other scheme is
//    INVALID_ARGUMENT ("Invalid debug target URL: ...");
//  - every debug op of every watch that will dump, in TensorFlow's two steps and with its
//    FAILED_PRECONDITION texts (debug_op.h): tolerate_debug_op_creation_failures skips an op
//    that cannot be made for its tensor (unknown, or no kernel for the dtype) but not a
//    malformed spec;
//  - a watched node whose name would leave the dump root ("../x") is INVALID_ARGUMENT;
// and writes, to every file:// root, each device's partition graph and then the Run's core
// metadata; a folder that cannot be made is FAILED_PRECONDITION, a file the errno's code.
// During the step, a dump that cannot be written ends the step with the errno's code,
// attributed to the node.
//
// TensorFlow's disk-usage cap on dumps (TFDBG_DISK_BYTES_LIMIT, reset_disk_byte_usage) is not
// kept. Thread safety: OnOutput may be called concurrently; nothing changes after Start.
#ifndef SLUICE_RUNTIME_DEBUG_DEBUG_WATCH_OBSERVER_H_
#define SLUICE_RUNTIME_DEBUG_DEBUG_WATCH_OBSERVER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/types.h"
#include "proto/debug.pb.h"
#include "proto/graph.pb.h"
#include "runtime/debug/debug_op.h"
#include "runtime/debug/dump_files.h"
#include "runtime/framework/node_output_observer.h"

namespace sluice {

// A node of the graph that runs, as the watches need to know it.
struct WatchableNode {
  std::string device;  // full name of the device it runs on
  DataTypeVector output_types;
};
// By node name: the watched nodes the Run's graph has.
using WatchableNodes = absl::flat_hash_map<std::string, WatchableNode>;

// One device's partition graph, written to the dumps.
struct DebugPartition {
  std::string device;
  const GraphDef* graph = nullptr;  // not owned
};

class DebugWatchObserver : public NodeOutputObserver {
 public:
  // Whether `options` has watches at all (a Run with any is a debugged Run).
  static bool HasWatches(const DebugOptions& options);

  // The names of the nodes that effective watches watch, sorted and unique; names that cannot
  // be node names (with ',' or '|') are left out.
  static std::vector<std::string> WatchedNodes(const DebugOptions& options);

  // The URL checks of Start alone, which need no graph: callers make them before building
  // anything.
  static absl::Status CheckUrls(const DebugOptions& options);

  // Makes the Run's observer: checks, then writes the graphs and the core metadata (see
  // above). `nodes` holds at least the watched nodes the graph that runs has.
  static absl::Status Start(const DebugOptions& options, const WatchableNodes& nodes,
                            absl::Span<const DebugPartition> partitions,
                            const RunCoreMetadata& metadata,
                            std::unique_ptr<DebugWatchObserver>* observer);

  absl::Status OnOutput(const Node& node, int output, const Tensor& value) override;

  // How many tensors (node outputs) have a debug op to dump them (for tests).
  int num_watched_tensors() const;

 private:
  // What is done with one output.
  struct TensorWatch {
    int slot = 0;
    std::vector<DebugOp> ops;
    std::vector<std::string> roots;  // dump roots, in the watch's order
  };
  struct NodeWatches {
    std::string device;
    std::vector<TensorWatch> outputs;
  };

  DebugWatchObserver() = default;

  absl::flat_hash_map<std::string, NodeWatches> nodes_;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEBUG_DEBUG_WATCH_OBSERVER_H_
