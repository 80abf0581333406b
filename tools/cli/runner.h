// ModelRunner: a session over a loaded model with fixed feeds and fetches, for `sluice run`
// and `sluice benchmark`.
//
// Create checks the request before any step runs, so users see the real cause rather than a
// runtime failure deep in a step: the device exists in this build, and every node the fetches
// need has a kernel on it (kernel_info.h's CheckKernels names the op and the devices that have
// one). `--device gpu` pins every node without a device to GPU:0 with soft placement on, so
// ops without a GPU kernel fall back to the CPU as in TensorFlow; `--device cpu` hides GPUs.
// `threads` > 0 sets the intra-op pool size, `inter_op_threads` > 0 the inter-op pool size
// (0: one per core, for each); each is at most kMaxThreads. `memory_limit_mb` > 0 caps the
// bytes the model's tensors hold at once (SessionOptions::memory_limit_bytes).
//
// Errors: INVALID_ARGUMENT for an unknown device name or a device this build lacks, or a
// thread count or memory limit out of range; the kernel check's NOT_FOUND; the session's own
// errors otherwise, among them RESOURCE_EXHAUSTED when the system refuses the pools' threads
// (the flags are appended to that message). Run's errors come from the session unchanged. Not
// thread-safe (one command drives it).
#ifndef SLUICE_TOOLS_CLI_RUNNER_H_
#define SLUICE_TOOLS_CLI_RUNNER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "runtime/framework/node_output_observer.h"
#include "runtime/session/session.h"
#include "tools/cli/model.h"

namespace sluice {
namespace cli {

// The most threads --threads and --inter-op-threads accept: far more than any machine's
// cores (so never the limit that matters), and well below the 16384 threads an Eigen thread
// pool can hold (more abort the process).
inline constexpr int64_t kMaxThreads = 4096;

struct RunnerOptions {
  std::string device = "cpu";
  int64_t threads = 0;
  int64_t inter_op_threads = 0;
  // ConfigProto.experimental.disable_thread_spinning.
  bool no_thread_spinning = false;
  // SessionOptions::memory_limit_bytes in MiB (0: no limit).
  int64_t memory_limit_mb = 0;
  // Run the graph as written: no constant folding, CSE, simplification or fusion
  // (OptimizerOptions L0), so that every node of the model runs under its own name for an
  // observer (--capture, --check-numerics). Results are the unoptimised graph's: the same
  // kernels, except where L1 would turn a division by a constant into a multiplication.
  bool keep_every_node = false;
};

// The most --memory-limit-mb accepts (1 PiB), so that the byte count cannot overflow.
inline constexpr int64_t kMaxMemoryLimitMb = int64_t{1} << 30;

// INVALID_ARGUMENT naming the flag unless both thread counts are in [0, kMaxThreads].
absl::Status ValidateRunnerOptions(const RunnerOptions& options);

class ModelRunner {
 public:
  // The session takes `graph_def` over (callers move their copy in: a big graph's nodes
  // are then held once). For a graph read from a SavedModel, `saved_model` says what to
  // restore and initialise before the first step (errors of that are returned as they are).
  static absl::Status Create(GraphDef graph_def, const RunnerOptions& options,
                             std::vector<std::pair<std::string, Tensor>> feeds,
                             std::vector<std::string> fetches, std::unique_ptr<ModelRunner>* runner,
                             const SavedModelSource* saved_model = nullptr);
  ~ModelRunner();

  // One step; `run_metadata` may be null. With an `observer`, it sees every node output of
  // the step (Session::RunWithObserver).
  absl::Status Run(const RunOptions& run_options, std::vector<Tensor>* outputs,
                   RunMetadata* run_metadata, NodeOutputObserver* observer = nullptr);

  // Replaces the value of feed `index` (in the order Create was given) for later steps.
  // REQUIRES: index < the number of feeds.
  void SetFeedValue(size_t index, Tensor value) { feeds_[index].second = std::move(value); }

  // The upper-case device type ("CPU").
  const std::string& device_type() const { return device_type_; }

 private:
  ModelRunner() = default;

  std::unique_ptr<Session> session_;
  std::string device_type_;
  std::vector<std::pair<std::string, Tensor>> feeds_;
  std::vector<std::string> fetches_;
};

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_RUNNER_H_
