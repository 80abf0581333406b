// TensorCapture: `sluice run --capture DIR`. Records the outputs of a model's nodes, as they
// run, into a TensorBoard event file in DIR, and their statistics into DIR/index.json, without
// fetching them or changing the graph.
//
// Each recorded output is one Summary value of an Event whose step is the run's step: tag
// "node:output", the value as a TensorProto (tensor_content), and metadata whose plugin_data
// is {plugin_name: "sluice.capture", content: {"node", "op", "output"} as JSON}, which
// TensorBoard shows among its tensors and `sluice board` reads. The events of a step are
// flushed when the step ends, so a viewer sees each step as soon as it is done.
//
// Which outputs: those of nodes whose name matches `nodes` (RE2 syntax, found anywhere in the
// name: anchor with ^ and $ for whole names; empty: every node), in steps 0, every, 2 *
// every, ... The step's feeds and fetches travel through call-frame nodes (_Arg, _Retval),
// which are not recorded; the nodes that read the feeds and produce the fetches are.
// Resource and variant values have no contents to record and are skipped.
//
// index.json (written by Finish):
//   {"event_file": "events.out.tfevents...", "steps": [0, 1, ...],
//    "tensors": [{"tag": "conv1/Relu:0", "node": "conv1/Relu", "op": "Relu", "output": 0,
//                 "dtype": "float",
//                 "steps": [{"step": 0, "shape": [1, 112, 112, 32], "elements": 401408,
//                            "min": 0, "max": 6.2, "mean": 0.4, "std": 0.7, "nan": 0,
//                            "pos_inf": 0, "neg_inf": 0, "zeros": 210000}, ...]}, ...]}
// in the order outputs were first recorded. Non-finite statistics are null.
//
// Thread-safe: OnOutput may be called concurrently (it serialises writes with a mutex).
// Errors: INVALID_ARGUMENT for a bad regex or every < 1; the event writer's status (errno
// codes, naming the path) for a folder or file that cannot be written, from Create, OnOutput
// (which then ends the step) or EndStep/Finish.
#ifndef SLUICE_TOOLS_CLI_CAPTURE_H_
#define SLUICE_TOOLS_CLI_CAPTURE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "graph/graph.h"
#include "io/event_writer.h"
#include "re2/re2.h"
#include "runtime/framework/node_output_observer.h"
#include "tools/cli/tensor_statistics.h"

namespace sluice {
namespace cli {

struct CaptureOptions {
  std::string dir;
  std::string nodes;  // RE2 pattern; empty: every node
  int64_t every = 1;  // record steps 0, every, 2 * every, ...
};

class TensorCapture : public NodeOutputObserver {
 public:
  static absl::StatusOr<std::unique_ptr<TensorCapture>> Create(const CaptureOptions& options);

  // Starts step `step`; whether its outputs are recorded follows options.every.
  void BeginStep(int64_t step);
  // Writes the step's events to the file.
  absl::Status EndStep();
  // Writes index.json and closes the event file.
  absl::Status Finish();

  absl::Status OnOutput(const Node& node, int output, const Tensor& value) override;

  // The event file's path.
  std::string event_file() const;
  // How many values were recorded so far.
  int64_t recorded() const;

 private:
  struct StepStatistics {
    int64_t step;
    TensorStatistics stats;
  };
  struct Recorded {
    std::string tag;
    std::string node;
    std::string op;
    int output = 0;
    DataType dtype = DT_INVALID;
    std::vector<StepStatistics> steps;
  };

  TensorCapture(const CaptureOptions& options, std::unique_ptr<EventWriter> writer,
                std::unique_ptr<RE2> nodes);
  // Whether `node`'s outputs are recorded (its op and the regex), remembered per node.
  bool Wanted(const Node& node) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string IndexJson() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const CaptureOptions options_;
  const std::unique_ptr<RE2> nodes_;  // null: every node
  mutable absl::Mutex mu_;
  std::unique_ptr<EventWriter> writer_ ABSL_GUARDED_BY(mu_);
  int64_t step_ ABSL_GUARDED_BY(mu_) = 0;
  bool recording_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<int64_t> steps_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, bool> wanted_ ABSL_GUARDED_BY(mu_);  // by node name
  std::vector<Recorded> recorded_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, size_t> by_tag_ ABSL_GUARDED_BY(mu_);
  int64_t values_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_CAPTURE_H_
