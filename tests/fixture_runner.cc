#include "tests/fixture_runner.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "io/npy.h"
#include "proto/graph.pb.h"
#include "runtime/session/session.h"

namespace sluice {
namespace fixtures {
namespace {

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

}  // namespace

void ExpectModelMatchesTensorFlow(const FixtureModel& model, const std::string& path,
                                  const SessionOptions& options) {
  GraphDef graph;
  ASSERT_TRUE(ReadGraphDefFile(path, &graph).ok()) << path;
  ExpectGraphMatchesTensorFlow(model, graph, path, options);
}

void ExpectGraphMatchesTensorFlow(const FixtureModel& model, const GraphDef& graph,
                                  const std::string& label, const SessionOptions& options) {
  SCOPED_TRACE(label);
  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const FixtureTensor& feed : model.feeds) {
    Tensor value;
    ASSERT_TRUE(ReadNpyFile(feed.npy_path, &value).ok()) << feed.npy_path;
    feeds.emplace_back(feed.node, value);
  }
  std::vector<std::string> fetches;
  for (const FixtureTensor& fetch : model.fetches) fetches.push_back(fetch.node);
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(options, &session).ok());
  const absl::Status created = session->Create(graph);
  ASSERT_TRUE(created.ok()) << created;
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

}  // namespace fixtures
}  // namespace sluice
