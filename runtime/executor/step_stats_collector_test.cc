#include "runtime/executor/step_stats_collector.h"

#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

NodeExecStats Named(const std::string& name) {
  NodeExecStats stats;
  stats.set_node_name(name);
  return stats;
}

TEST(StepStatsCollectorTest, GroupsByDeviceInFirstSaveOrder) {
  StepStats step_stats;
  StepStatsCollector collector(&step_stats);
  collector.Save(kCpu1, Named("a"));
  collector.Save(kCpu0, Named("b"));
  collector.Save(kCpu1, Named("c"));
  EXPECT_EQ(step_stats.dev_stats_size(), 0);  // Nothing is written before Finalize.
  collector.Finalize();

  ASSERT_EQ(step_stats.dev_stats_size(), 2);
  EXPECT_EQ(step_stats.dev_stats(0).device(), kCpu1);
  ASSERT_EQ(step_stats.dev_stats(0).node_stats_size(), 2);
  EXPECT_EQ(step_stats.dev_stats(0).node_stats(0).node_name(), "a");
  EXPECT_EQ(step_stats.dev_stats(0).node_stats(1).node_name(), "c");
  EXPECT_EQ(step_stats.dev_stats(1).device(), kCpu0);
  ASSERT_EQ(step_stats.dev_stats(1).node_stats_size(), 1);
  EXPECT_EQ(step_stats.dev_stats(1).node_stats(0).node_name(), "b");
}

TEST(StepStatsCollectorTest, SavesAfterFinalizeAreDroppedAndFinalizeIsIdempotent) {
  StepStats step_stats;
  StepStatsCollector collector(&step_stats);
  collector.Save(kCpu0, Named("a"));
  collector.Finalize();
  collector.Save(kCpu0, Named("late"));
  collector.Finalize();
  ASSERT_EQ(step_stats.dev_stats_size(), 1);
  ASSERT_EQ(step_stats.dev_stats(0).node_stats_size(), 1);
  EXPECT_EQ(step_stats.dev_stats(0).node_stats(0).node_name(), "a");
}

TEST(StepStatsCollectorTest, AppendsToExistingDeviceStats) {
  StepStats step_stats;
  step_stats.add_dev_stats()->set_device(kCpu0);
  *step_stats.mutable_dev_stats(0)->add_node_stats() = Named("earlier");
  StepStatsCollector collector(&step_stats);
  collector.Save(kCpu0, Named("now"));
  collector.Finalize();
  ASSERT_EQ(step_stats.dev_stats_size(), 1);
  ASSERT_EQ(step_stats.dev_stats(0).node_stats_size(), 2);
  EXPECT_EQ(step_stats.dev_stats(0).node_stats(1).node_name(), "now");
}

TEST(StepStatsCollectorTest, FinalizeWithNothingSavedWritesNothing) {
  StepStats step_stats;
  StepStatsCollector collector(&step_stats);
  collector.Finalize();
  EXPECT_EQ(step_stats.dev_stats_size(), 0);
}

TEST(StepStatsCollectorTest, ConcurrentSavesAreAllKept) {
  StepStats step_stats;
  StepStatsCollector collector(&step_stats);
  constexpr int kThreads = 8;
  constexpr int kPerThread = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&collector, t]() {
      const char* device = (t % 2 == 0) ? kCpu0 : kCpu1;
      for (int i = 0; i < kPerThread; ++i) {
        collector.Save(device, Named("n" + std::to_string(t) + "_" + std::to_string(i)));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  collector.Finalize();
  ASSERT_EQ(step_stats.dev_stats_size(), 2);
  EXPECT_EQ(step_stats.dev_stats(0).node_stats_size(), kThreads / 2 * kPerThread);
  EXPECT_EQ(step_stats.dev_stats(1).node_stats_size(), kThreads / 2 * kPerThread);
}

TEST(StepStatsClockTest, ClocksAreConsistentAndThreadIdsDiffer) {
  const int64_t micros = StatsNowMicros();
  const int64_t nanos = StatsNowNanos();
  EXPECT_GT(micros, 1'500'000'000'000'000);  // After 2017, in microseconds.
  EXPECT_GE(nanos / 1000, micros);
  EXPECT_EQ(StatsThreadId(), StatsThreadId());
  uint32_t other = 0;
  std::thread([&other]() { other = StatsThreadId(); }).join();
  EXPECT_NE(other, StatsThreadId());
}

}  // namespace
}  // namespace sluice
