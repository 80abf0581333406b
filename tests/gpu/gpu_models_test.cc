// Whole fixture models (tests/fixtures, frozen by TensorFlow) and the bundled digits CNN on a
// GPU: the session places what has GPU kernels there, and the outputs stay within each
// model's TensorFlow tolerance. Skipped without a GPU.
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

// How many nodes of `model`'s graph run on the GPU in a step (from the partition graphs).
int NodesOnGpu(const FixtureModel& model, const GraphDef& graph) {
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
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) {
      on_gpu += absl::StrContains(node.device(), "GPU") && node.op()[0] != '_';
    }
  }
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

}  // namespace
}  // namespace sluice
