// Whole fixture models (tests/fixtures, frozen by TensorFlow), the control-flow models
// (tests/control_flow: v1 and v2 loops, Keras' recurrent layers over TensorLists, TensorArrays)
// and the bundled digits CNN on a GPU: the session places what has GPU kernels there, and the
// outputs stay within each model's TensorFlow tolerance. Skipped without a GPU.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "io/npy.h"
#include "tests/fixture_manifest.h"
#include "tests/fixture_runner.h"
#include "tests/gpu/gpu_test_util.h"

namespace sluice {
namespace {

using fixtures::FixtureModel;

// How many nodes of `model`'s graph run on the GPU in a step (from the partition graphs), and
// how many of those are list ops (TensorList*).
int NodesOnGpu(const FixtureModel& model, const GraphDef& graph, int* lists_on_gpu = nullptr) {
  auto session = gpu_test::NewSessionOrDie(SessionOptions());
  EXPECT_TRUE(session->Create(graph).ok());
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const fixtures::FixtureTensor& feed : model.feeds) {
    Tensor value;
    EXPECT_TRUE(ReadNpyFile(feed.npy_path, &value).ok());
    feeds.emplace_back(feed.node, value);
  }
  std::vector<std::string> fetches;
  for (const fixtures::FixtureTensor& fetch : model.fetches) fetches.push_back(fetch.node);
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  const absl::Status s = session->Run(options, feeds, fetches, {}, &outputs, &metadata);
  EXPECT_TRUE(s.ok()) << model.name << ": " << s;
  int on_gpu = 0;
  int lists = 0;
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) {
      if (!absl::StrContains(node.device(), "GPU") || node.op()[0] == '_') continue;
      ++on_gpu;
      lists += absl::StartsWith(node.op(), "TensorList");
    }
  }
  if (lists_on_gpu != nullptr) *lists_on_gpu = lists;
  return on_gpu;
}

TEST(GpuModelsTest, FixtureModelsGiveTensorFlowsOutputsOnTheGpu) {
  SLUICE_SKIP_WITHOUT_GPU();
  std::vector<FixtureModel> models;
  ASSERT_TRUE(fixtures::ReadFixtureManifest(fixtures::FixturesDir(), &models).ok());
  for (const FixtureModel& model : models) {
    SCOPED_TRACE(model.name);
    GraphDef graph;
    ASSERT_TRUE(ReadBinaryProtoFile(model.pb_path, &graph).ok());
    fixtures::ExpectGraphMatchesTensorFlow(model, graph, model.name + " (GPU)");
    const int on_gpu = NodesOnGpu(model, graph);
    if (model.name == "mlp" || model.name == "cnn") {
      EXPECT_GT(on_gpu, 0);
    }
    std::printf("[ GPU      ] %s: %d nodes on the GPU\n", model.name.c_str(), on_gpu);
  }
}

// The control-flow issue's models: each loop, its lists included, runs where its kernels are
// (a Keras LSTM's whole loop on the GPU), with TensorFlow's outputs.
TEST(GpuModelsTest, ControlFlowModelsGiveTensorFlowsOutputsOnTheGpu) {
  SLUICE_SKIP_WITHOUT_GPU();
  std::vector<FixtureModel> models;
  ASSERT_TRUE(fixtures::ReadFixtureManifest("tests/control_flow", &models).ok());
  ASSERT_GE(models.size(), 10u);
  for (const FixtureModel& model : models) {
    SCOPED_TRACE(model.name);
    GraphDef graph;
    ASSERT_TRUE(ReadBinaryProtoFile(model.pb_path, &graph).ok());
    fixtures::ExpectGraphMatchesTensorFlow(model, graph, model.name + " (GPU)");
    int lists_on_gpu = 0;
    const int on_gpu = NodesOnGpu(model, graph, &lists_on_gpu);
    if (model.name == "keras_lstm_lowered") {
      EXPECT_GT(lists_on_gpu, 0);
    }
    std::printf("[ GPU      ] %s: %d nodes on the GPU, %d of them list ops\n", model.name.c_str(),
                on_gpu, lists_on_gpu);
  }
}

}  // namespace
}  // namespace sluice
