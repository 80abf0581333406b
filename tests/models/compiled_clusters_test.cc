// Compiled clusters leave every fixture model's values unchanged: each model (frozen by
// TensorFlow, tests/fixtures/manifest.txt) runs with clusters (the default) and with
// TensorFlow's switch for them off (global_jit_level = OFF), and the outputs are equal to the
// bit (any NaN matching any NaN). The encoder block's layer normalisation must have become a
// cluster, so that the comparison means something.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "google/protobuf/text_format.h"
#include "graph/core/tensor.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "io/npy.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "proto/step_stats.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"
#include "tests/fixture_manifest.h"

namespace sluice {
namespace {

using fixtures::FixtureModel;
using fixtures::FixtureTensor;

struct Outcome {
  std::vector<Tensor> outputs;
  int clusters = 0;  // _MlirCluster nodes in the partitions that ran
};

Outcome RunModel(const FixtureModel& model, bool clusters) {
  Outcome outcome;
  GraphDef graph;
  EXPECT_TRUE(ReadGraphDefFile(model.pb_path, &graph).ok()) << model.pb_path;
  SessionOptions options;
  if (!clusters) {
    options.config.mutable_graph_options()->mutable_optimizer_options()->set_global_jit_level(
        OptimizerOptions::OFF);
  }
  std::unique_ptr<Session> session;
  EXPECT_TRUE(NewSession(options, &session).ok());
  EXPECT_TRUE(session->Create(graph).ok());
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const FixtureTensor& feed : model.feeds) {
    Tensor value;
    EXPECT_TRUE(ReadNpyFile(feed.npy_path, &value).ok()) << feed.npy_path;
    feeds.emplace_back(feed.node, value);
  }
  std::vector<std::string> fetches;
  for (const FixtureTensor& fetch : model.fetches) fetches.push_back(fetch.node);
  RunOptions run_options;
  run_options.set_output_partition_graphs(true);
  RunMetadata metadata;
  const absl::Status status =
      session->Run(run_options, feeds, fetches, {}, &outcome.outputs, &metadata);
  EXPECT_TRUE(status.ok()) << model.name << ": " << status;
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) outcome.clusters += node.op() == "_MlirCluster";
  }
  return outcome;
}

TEST(CompiledClustersTest, FixtureModelsAreUnchangedByClusters) {
  std::vector<FixtureModel> models;
  ASSERT_TRUE(fixtures::ReadFixtureManifest(fixtures::FixturesDir(), &models).ok());
  bool encoder_seen = false;
  for (const FixtureModel& model : models) {
    SCOPED_TRACE(model.name);
    const Outcome with = RunModel(model, true);
    const Outcome without = RunModel(model, false);
    EXPECT_EQ(without.clusters, 0);
    if (model.name == "encoder") {
      encoder_seen = true;
      EXPECT_GE(with.clusters, 1);
    }
    ASSERT_EQ(with.outputs.size(), without.outputs.size());
    for (size_t i = 0; i < with.outputs.size(); ++i) {
      const Tensor& a = with.outputs[i];
      const Tensor& b = without.outputs[i];
      ASSERT_EQ(a.dtype(), b.dtype());
      ASSERT_EQ(a.shape().DebugString(), b.shape().DebugString());
      if (a.dtype() != DT_FLOAT) {
        EXPECT_EQ(a.tensor_data(), b.tensor_data());
        continue;
      }
      const float* x = a.base<float>();
      const float* y = b.base<float>();
      for (int64_t j = 0; j < a.NumElements(); ++j) {
        if (std::isnan(x[j]) && std::isnan(y[j])) continue;
        ASSERT_EQ(std::memcmp(&x[j], &y[j], sizeof(float)), 0)
            << "output " << i << " element " << j << ": " << x[j] << " vs " << y[j];
      }
    }
  }
  EXPECT_TRUE(encoder_seen);
}

// The step that compiles a cluster says so in its step statistics, as the node's timeline
// label's note; later steps, which reuse the code, do not.
TEST(CompiledClustersTest, CompileTimeIsInTheStepStatistics) {
  // A program no other test in this process compiles: 0.37 * erfc(x) - x over rows of 32.
  GraphDef graph;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      R"pb(
        node {
          name: "x"
          op: "Placeholder"
          attr {
            key: "dtype"
            value { type: DT_FLOAT }
          }
          attr {
            key: "shape"
            value {
              shape {
                dim { size: 4 }
                dim { size: 32 }
              }
            }
          }
        }
        node {
          name: "k"
          op: "Const"
          attr {
            key: "dtype"
            value { type: DT_FLOAT }
          }
          attr {
            key: "value"
            value {
              tensor {
                dtype: DT_FLOAT
                tensor_shape {}
                float_val: 0.37
              }
            }
          }
        }
        node {
          name: "e"
          op: "Erfc"
          input: "x"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
        }
        node {
          name: "m"
          op: "Mul"
          input: "k"
          input: "e"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
        }
        node {
          name: "out"
          op: "Sub"
          input: "m"
          input: "x"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
        }
      )pb",
      &graph));
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  ASSERT_TRUE(session->Create(graph).ok());
  Tensor x(DT_FLOAT, TensorShape({4, 32}));
  for (int64_t i = 0; i < x.NumElements(); ++i) x.base<float>()[i] = 0.1f * i - 6.0f;
  RunOptions run_options;
  run_options.set_trace_level(RunOptions::FULL_TRACE);
  auto notes = [&]() {
    RunMetadata metadata;
    std::vector<Tensor> outputs;
    const absl::Status s = session->Run(run_options, {{"x", x}}, {"out"}, {}, &outputs, &metadata);
    EXPECT_TRUE(s.ok()) << s;
    std::vector<std::string> found;
    for (const DeviceStepStats& device : metadata.step_stats().dev_stats()) {
      for (const NodeExecStats& node : device.node_stats()) {
        if (node.timeline_label().find(" [") != std::string::npos) {
          found.push_back(node.timeline_label());
        }
      }
    }
    return found;
  };
  const std::vector<std::string> first = notes();
  ASSERT_EQ(first.size(), 1u) << ::testing::PrintToString(first);
  EXPECT_EQ(first[0].rfind("out = _MlirCluster(_arg_x_0_0, k) [compiled in ", 0), 0u) << first[0];
  EXPECT_EQ(first[0].back(), ']');
  EXPECT_TRUE(notes().empty());
}

}  // namespace
}  // namespace sluice
