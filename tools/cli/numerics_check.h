// NumericsChecker: `sluice run --check-numerics`. Watches every node output of a step
// (Session::RunWithObserver) and ends the step at the first one that holds a NaN or an
// infinity, with INVALID_ARGUMENT naming the node, its op, the output's and each input's
// statistics, and the step.
//
// Run the step's nodes on the calling thread (RunOptions.inter_op_thread_pool = -1) for
// "first" to mean first in execution order; with a pool it is the first to finish.
// Statistics of every real-valued output of the step are kept (a few dozen bytes each, not
// the values) so that the culprit's inputs can be described. Thread-safe.
#ifndef SLUICE_TOOLS_CLI_NUMERICS_CHECK_H_
#define SLUICE_TOOLS_CLI_NUMERICS_CHECK_H_

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "graph/graph.h"
#include "runtime/framework/node_output_observer.h"
#include "tools/cli/tensor_statistics.h"

namespace sluice {
namespace cli {

class NumericsChecker : public NodeOutputObserver {
 public:
  // Starts step `step`: forgets the statistics of the previous one.
  void BeginStep(int64_t step);

  absl::Status OnOutput(const Node& node, int output, const Tensor& value) override;

 private:
  absl::Mutex mu_;
  int64_t step_ ABSL_GUARDED_BY(mu_) = 0;
  // "node:output" -> the statistics of that output in this step.
  absl::flat_hash_map<std::string, TensorStatistics> seen_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_NUMERICS_CHECK_H_
