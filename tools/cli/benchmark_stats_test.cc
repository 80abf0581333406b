#include "tools/cli/benchmark_stats.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tools/cli/json_writer.h"

namespace sluice {
namespace cli {
namespace {

TEST(LatencyStatsTest, NearestRankPercentiles) {
  std::vector<double> ms;
  for (int i = 100; i >= 1; --i) ms.push_back(i);
  LatencyStats stats = ComputeLatencyStats(ms);
  EXPECT_EQ(stats.count, 100);
  EXPECT_EQ(stats.p50_ms, 50);
  EXPECT_EQ(stats.p90_ms, 90);
  EXPECT_EQ(stats.p99_ms, 99);
  EXPECT_EQ(stats.p999_ms, 100);
  EXPECT_EQ(stats.min_ms, 1);
  EXPECT_EQ(stats.max_ms, 100);
  EXPECT_DOUBLE_EQ(stats.mean_ms, 50.5);
  EXPECT_EQ(ComputeLatencyStats({7}).p99_ms, 7);
  std::vector<double> thousand;
  for (int i = 1; i <= 2000; ++i) thousand.push_back(i);
  EXPECT_EQ(ComputeLatencyStats(thousand).p999_ms, 1998);
  EXPECT_EQ(ComputeLatencyStats({}).count, 0);
}

NodeExecStats Node(const std::string& name, const std::string& op, int64_t nanos) {
  NodeExecStats stats;
  stats.set_node_name(name);
  stats.set_timeline_label(name + " = " + op + "(a, b)");
  stats.set_op_start_rel_nanos(1000);
  stats.set_op_end_rel_nanos(1000 + nanos);
  return stats;
}

TEST(ProfileTest, AggregatesPerNodeAndOpType) {
  std::vector<StepStats> steps(2);
  for (StepStats& step : steps) {
    DeviceStepStats* device = step.add_dev_stats();
    *device->add_node_stats() = Node("conv1", "Conv2D", 3000000);
    *device->add_node_stats() = Node("conv2", "Conv2D", 1000000);
    *device->add_node_stats() = Node("relu", "Relu", 1000000);
  }
  Profile profile = BuildProfile(steps);
  EXPECT_EQ(profile.steps, 2);
  EXPECT_DOUBLE_EQ(profile.total_ms, 5.0);
  ASSERT_EQ(profile.by_op_type.size(), 2u);
  EXPECT_EQ(profile.by_op_type[0].name, "Conv2D");
  EXPECT_EQ(profile.by_op_type[0].count, 2);
  EXPECT_DOUBLE_EQ(profile.by_op_type[0].share, 0.8);
  ASSERT_EQ(profile.by_node.size(), 3u);
  EXPECT_EQ(profile.by_node[0].name, "conv1");
  EXPECT_EQ(profile.by_node[0].op, "Conv2D");
  EXPECT_DOUBLE_EQ(profile.by_node[0].avg_ms, 3.0);
  const std::string table = FormatProfile(profile, 2);
  EXPECT_NE(table.find("By op type:"), std::string::npos);
  EXPECT_NE(table.find("... 1 more"), std::string::npos);
}

TEST(JsonWriterTest, NestsAndEscapes) {
  JsonWriter json;
  json.BeginObject().Key("a").Int(1).Key("b").BeginArray().String("x\"y\n").Double(0.5);
  json.Bool(true).EndArray().Key("c").Double(1.0 / 0.0).EndObject();
  EXPECT_EQ(json.str(), "{\"a\":1,\"b\":[\"x\\\"y\\n\",0.5,true],\"c\":null}\n");
}

}  // namespace
}  // namespace cli
}  // namespace sluice
