// Latency percentiles and per-op profiles.
#include "tools/cli/benchmark_stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace sluice {
namespace cli {
namespace {

double Percentile(const std::vector<double>& sorted, double p) {
  // The epsilon keeps a product that should be whole (99.9% of 2000) from rounding up a rank.
  const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * sorted.size() - 1e-9));
  return sorted[std::min(sorted.size(), std::max<size_t>(rank, 1)) - 1];
}

// "conv1 = Conv2D(a, b)" -> "Conv2D".
std::string OpFromLabel(const std::string& label) {
  const size_t eq = label.find(" = ");
  if (eq == std::string::npos) return "(unknown)";
  const size_t paren = label.find('(', eq);
  return label.substr(eq + 3, paren == std::string::npos ? std::string::npos : paren - eq - 3);
}

double OpMillis(const NodeExecStats& stats) {
  if (stats.op_end_rel_nanos() > 0 || stats.op_start_rel_nanos() > 0) {
    return (stats.op_end_rel_nanos() - stats.op_start_rel_nanos()) / 1e6;
  }
  return (stats.op_end_rel_micros() - stats.op_start_rel_micros()) / 1e3;
}

void SortAndShare(std::vector<ProfileRow>* rows, double total_ms) {
  std::stable_sort(rows->begin(), rows->end(),
                   [](const ProfileRow& a, const ProfileRow& b) { return a.avg_ms > b.avg_ms; });
  for (ProfileRow& row : *rows) row.share = total_ms > 0 ? row.avg_ms / total_ms : 0;
}

void AppendTable(const std::vector<ProfileRow>& rows, size_t max_rows, bool per_node,
                 std::string* out) {
  absl::StrAppendFormat(out, "  %-40s %-20s %10s %8s %8s\n", per_node ? "node" : "op type",
                        per_node ? "op" : "nodes", "avg ms", "share", "cumul.");
  double cumulative = 0;
  for (size_t i = 0; i < rows.size() && i < max_rows; ++i) {
    const ProfileRow& row = rows[i];
    cumulative += row.share;
    const std::string second = per_node ? row.op : absl::StrCat(row.count);
    absl::StrAppendFormat(out, "  %-40s %-20s %10.4f %7.2f%% %7.2f%%\n", row.name, second,
                          row.avg_ms, 100 * row.share, 100 * cumulative);
  }
  if (rows.size() > max_rows) absl::StrAppendFormat(out, "  ... %d more\n", rows.size() - max_rows);
}

}  // namespace

LatencyStats ComputeLatencyStats(std::vector<double> millis) {
  LatencyStats stats;
  if (millis.empty()) return stats;
  std::sort(millis.begin(), millis.end());
  stats.count = static_cast<int64_t>(millis.size());
  stats.min_ms = millis.front();
  stats.max_ms = millis.back();
  double sum = 0;
  for (double ms : millis) sum += ms;
  stats.mean_ms = sum / millis.size();
  double squares = 0;
  for (double ms : millis) squares += (ms - stats.mean_ms) * (ms - stats.mean_ms);
  stats.stddev_ms = std::sqrt(squares / millis.size());
  stats.p50_ms = Percentile(millis, 50);
  stats.p90_ms = Percentile(millis, 90);
  stats.p99_ms = Percentile(millis, 99);
  stats.p999_ms = Percentile(millis, 99.9);
  return stats;
}

Profile BuildProfile(const std::vector<StepStats>& steps) {
  Profile profile;
  profile.steps = static_cast<int64_t>(steps.size());
  if (steps.empty()) return profile;
  std::map<std::string, std::pair<std::string, double>> nodes;  // name -> (op, total ms)
  for (const StepStats& step : steps) {
    for (const DeviceStepStats& device : step.dev_stats()) {
      for (const NodeExecStats& stats : device.node_stats()) {
        auto& entry = nodes[stats.node_name()];
        entry.first = OpFromLabel(stats.timeline_label());
        entry.second += OpMillis(stats);
      }
    }
  }
  std::map<std::string, ProfileRow> types;
  for (const auto& [name, entry] : nodes) {
    const double avg = entry.second / profile.steps;
    profile.total_ms += avg;
    profile.by_node.push_back({name, entry.first, 1, avg, 0});
    ProfileRow& type = types[entry.first];
    type.name = entry.first;
    ++type.count;
    type.avg_ms += avg;
  }
  for (auto& [op, row] : types) profile.by_op_type.push_back(row);
  SortAndShare(&profile.by_node, profile.total_ms);
  SortAndShare(&profile.by_op_type, profile.total_ms);
  return profile;
}

std::string FormatProfile(const Profile& profile, int max_nodes) {
  std::string out =
      absl::StrFormat("Profile over %d traced step(s): %.4f ms of op time per step\nBy op type:\n",
                      profile.steps, profile.total_ms);
  AppendTable(profile.by_op_type, profile.by_op_type.size(), false, &out);
  absl::StrAppend(&out, "By node:\n");
  AppendTable(profile.by_node, static_cast<size_t>(std::max(max_nodes, 0)), true, &out);
  return out;
}

}  // namespace cli
}  // namespace sluice
