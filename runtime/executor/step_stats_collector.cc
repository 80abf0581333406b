// StepStatsCollector: buffers node statistics per device and writes them out once.
#include "runtime/executor/step_stats_collector.h"

#include <functional>
#include <thread>

#include "absl/time/clock.h"

namespace sluice {

StepStatsCollector::StepStatsCollector(StepStats* step_stats) : step_stats_(step_stats) {}

void StepStatsCollector::Save(const std::string& device, NodeExecStats node_stats) {
  absl::MutexLock lock(&mu_);
  if (finalized_) return;
  for (auto& [name, stats] : saved_) {
    if (name == device) {
      stats.push_back(std::move(node_stats));
      return;
    }
  }
  saved_.emplace_back(device, std::vector<NodeExecStats>());
  saved_.back().second.push_back(std::move(node_stats));
}

void StepStatsCollector::Finalize() {
  absl::MutexLock lock(&mu_);
  if (finalized_) return;
  finalized_ = true;
  for (auto& [name, stats] : saved_) {
    DeviceStepStats* device_stats = nullptr;
    for (DeviceStepStats& existing : *step_stats_->mutable_dev_stats()) {
      if (existing.device() == name) {
        device_stats = &existing;
        break;
      }
    }
    if (device_stats == nullptr) {
      device_stats = step_stats_->add_dev_stats();
      device_stats->set_device(name);
    }
    for (NodeExecStats& node_stats : stats) {
      *device_stats->add_node_stats() = std::move(node_stats);
    }
  }
  saved_.clear();
}

int64_t StatsNowNanos() { return absl::GetCurrentTimeNanos(); }

int64_t StatsNowMicros() { return absl::GetCurrentTimeNanos() / 1000; }

uint32_t StatsThreadId() {
  // Hashing the thread id is what TensorFlow does on Linux; computed once per thread.
  thread_local const uint32_t id =
      static_cast<uint32_t>(std::hash<std::thread::id>()(std::this_thread::get_id()));
  return id;
}

}  // namespace sluice
