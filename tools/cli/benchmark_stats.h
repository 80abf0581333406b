// Statistics for `sluice benchmark`: latency percentiles over timed steps, and a profile of
// where time goes per op type and per node, from the StepStats of traced steps (RunMetadata
// with trace_level FULL_TRACE), as TensorFlow's benchmark_model prints them.
//
// Pure functions over their inputs; thread-compatible.
#ifndef SLUICE_TOOLS_CLI_BENCHMARK_STATS_H_
#define SLUICE_TOOLS_CLI_BENCHMARK_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "proto/step_stats.pb.h"

namespace sluice {
namespace cli {

struct LatencyStats {
  int64_t count = 0;
  double min_ms = 0, max_ms = 0, mean_ms = 0, stddev_ms = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, p999_ms = 0;  // p999: the 99.9th
};

// Percentiles by the nearest-rank method. All zero when `millis` is empty.
LatencyStats ComputeLatencyStats(std::vector<double> millis);

struct ProfileRow {
  std::string name;   // node name, or op type
  std::string op;     // the node's op (per-node rows)
  int64_t count = 0;  // per-op-type rows: distinct nodes of that type
  double avg_ms = 0;  // per traced step
  double share = 0;   // of the total, in [0, 1]
};

struct Profile {
  int64_t steps = 0;
  double total_ms = 0;                 // summed op time per step, averaged over steps
  std::vector<ProfileRow> by_op_type;  // most time first
  std::vector<ProfileRow> by_node;     // most time first
};

// Op time is op_end_rel - op_start_rel (nanoseconds when recorded); a node's op type comes
// from its timeline label ("name = Op(...)").
Profile BuildProfile(const std::vector<StepStats>& steps);

// Fixed-width tables with a cumulative share column; `max_nodes` rows of the node table.
std::string FormatProfile(const Profile& profile, int max_nodes);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_BENCHMARK_STATS_H_
