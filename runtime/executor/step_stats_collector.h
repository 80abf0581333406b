// StepStatsCollector: gathers the per-node statistics of one step into a StepStats.
//
// The executor (one per device partition) calls Save for every node it ran when a step is
// traced (RunOptions.trace_level); the session calls Finalize once every executor of the
// step is done, which writes what was saved into the StepStats given at construction: one
// DeviceStepStats per device, in the order each device first saved, with its nodes in the
// order they were saved. A DeviceStepStats already present for a device (from an earlier
// Finalize into the same StepStats) is appended to.
//
// Ownership: the StepStats is not owned and must outlive Finalize.
// Thread safety: Save may be called from any number of threads at once. Saves after
// Finalize are dropped (the step is over; nobody reads them), as in TensorFlow.
#ifndef SLUICE_RUNTIME_EXECUTOR_STEP_STATS_COLLECTOR_H_
#define SLUICE_RUNTIME_EXECUTOR_STEP_STATS_COLLECTOR_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "proto/step_stats.pb.h"

namespace sluice {

class StepStatsCollector {
 public:
  explicit StepStatsCollector(StepStats* step_stats);

  StepStatsCollector(const StepStatsCollector&) = delete;
  StepStatsCollector& operator=(const StepStatsCollector&) = delete;

  // Records the statistics of one node run on `device` (its full name).
  void Save(const std::string& device, NodeExecStats node_stats);

  // Writes everything saved so far into the StepStats. Later calls do nothing.
  void Finalize();

 private:
  StepStats* const step_stats_;

  absl::Mutex mu_;
  bool finalized_ ABSL_GUARDED_BY(mu_) = false;
  // Per device, in the order of its first Save; few devices, so a vector beats a map.
  std::vector<std::pair<std::string, std::vector<NodeExecStats>>> saved_ ABSL_GUARDED_BY(mu_);
};

// Clocks for NodeExecStats, on the same epoch as TensorFlow's (microseconds and
// nanoseconds since the Unix epoch).
int64_t StatsNowMicros();
int64_t StatsNowNanos();

// An id for the calling thread, stable for its lifetime (NodeExecStats.thread_id).
uint32_t StatsThreadId();

}  // namespace sluice

#endif  // SLUICE_RUNTIME_EXECUTOR_STEP_STATS_COLLECTOR_H_
