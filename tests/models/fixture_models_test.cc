// Every model in tests/fixtures/manifest.txt (frozen by TensorFlow with its inputs and
// outputs) runs in a Session, from the binary and the text GraphDef, and gives TensorFlow's
// outputs: the same dtype and shape, and values within the manifest's tolerance (exact for
// integers).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "io/npy.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"
#include "tests/fixture_manifest.h"

namespace sluice {
namespace {

using fixtures::FixtureModel;
using fixtures::FixtureTensor;

// Largest |got - want| over a floating tensor (converted through double).
double MaxAbsDifference(const Tensor& got, const Tensor& want) {
  double worst = 0;
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    double g = 0, w = 0;
    if (want.dtype() == DT_FLOAT) {
      g = got.flat<float>()(i);
      w = want.flat<float>()(i);
    } else {
      g = got.flat<double>()(i);
      w = want.flat<double>()(i);
    }
    worst = std::max(worst, std::fabs(g - w));
  }
  return worst;
}

void RunModel(const FixtureModel& model, const std::string& path) {
  SCOPED_TRACE(path);
  GraphDef graph;
  ASSERT_TRUE(ReadGraphDefFile(path, &graph).ok());
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const FixtureTensor& feed : model.feeds) {
    Tensor value;
    ASSERT_TRUE(ReadNpyFile(feed.npy_path, &value).ok()) << feed.npy_path;
    feeds.emplace_back(feed.node, value);
  }
  std::vector<std::string> fetches;
  for (const FixtureTensor& fetch : model.fetches) fetches.push_back(fetch.node);
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  ASSERT_TRUE(session->Create(graph).ok());
  std::vector<Tensor> outputs;
  const absl::Status status = session->Run(feeds, fetches, {}, &outputs);
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_EQ(outputs.size(), model.fetches.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    SCOPED_TRACE(model.fetches[i].node);
    Tensor want;
    ASSERT_TRUE(ReadNpyFile(model.fetches[i].npy_path, &want).ok());
    ASSERT_EQ(outputs[i].dtype(), want.dtype());
    ASSERT_EQ(outputs[i].shape().DebugString(), want.shape().DebugString());
    if (want.dtype() == DT_FLOAT || want.dtype() == DT_DOUBLE) {
      EXPECT_LE(MaxAbsDifference(outputs[i], want), model.tolerance);
    } else {
      EXPECT_EQ(outputs[i].tensor_data(), want.tensor_data());
    }
  }
}

TEST(FixtureModelsTest, EveryModelGivesTensorFlowsOutputs) {
  std::vector<FixtureModel> models;
  ASSERT_TRUE(fixtures::ReadFixtureManifest(fixtures::FixturesDir(), &models).ok());
  ASSERT_GE(models.size(), 3u);
  for (const FixtureModel& model : models) {
    RunModel(model, model.pb_path);
    RunModel(model, model.pbtxt_path);
  }
}

}  // namespace
}  // namespace sluice
