// The bundled demo model (models/digits: a CNN trained with TensorFlow on scikit-learn's 8x8
// digits and frozen) runs in a Session and gives TensorFlow's answer: every probability
// within 1e-5 of TensorFlow's, the same predicted digit for every test image, and so the
// same test accuracy as models/digits/manifest.txt records. Run with and without the
// remapper's fusions and at one and two intra-op threads: the answer must not change.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "io/npy.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

constexpr char kDir[] = "models/digits/";
constexpr double kTolerance = 1e-5;

int ArgMax(const float* row, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i) {
    if (row[i] > row[best]) best = i;
  }
  return best;
}

// "tensorflow_correct 357 of 360" from the manifest.
int TensorFlowCorrect() {
  std::ifstream manifest(absl::StrCat(kDir, "manifest.txt"));
  std::string line;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    std::string key;
    int correct = -1;
    if (fields >> key >> correct && key == "tensorflow_correct") return correct;
  }
  return -1;
}

struct Config {
  int threads;
  OptimizerOptions::Level level;
};

class DigitsModelTest : public ::testing::TestWithParam<Config> {};

TEST_P(DigitsModelTest, MatchesTensorFlow) {
  GraphDef graph;
  ASSERT_TRUE(ReadGraphDefFile(absl::StrCat(kDir, "digits_cnn.pb"), &graph).ok());
  Tensor images, labels, expected;
  ASSERT_TRUE(ReadNpyFile(absl::StrCat(kDir, "test_images.npy"), &images).ok());
  ASSERT_TRUE(ReadNpyFile(absl::StrCat(kDir, "test_labels.npy"), &labels).ok());
  ASSERT_TRUE(ReadNpyFile(absl::StrCat(kDir, "tf_probabilities.npy"), &expected).ok());

  SessionOptions options;
  options.config.set_intra_op_parallelism_threads(GetParam().threads);
  options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      GetParam().level);
  // The outputs outlive the session, as in TensorFlow's C++ examples: the fetched tensors
  // must stay valid after the session and its devices are gone.
  std::vector<Tensor> outputs;
  {
    std::unique_ptr<Session> session;
    ASSERT_TRUE(NewSession(options, &session).ok());
    ASSERT_TRUE(session->Create(graph).ok());
    const absl::Status status = session->Run({{"images", images}}, {"probabilities"}, {}, &outputs);
    ASSERT_TRUE(status.ok()) << status;
  }
  ASSERT_EQ(outputs.size(), 1u);
  const Tensor& probabilities = outputs[0];
  ASSERT_EQ(probabilities.shape().DebugString(), expected.shape().DebugString());

  const int n = static_cast<int>(expected.dim_size(0));
  const int classes = static_cast<int>(expected.dim_size(1));
  const float* got = probabilities.flat<float>().data();
  const float* want = expected.flat<float>().data();
  double max_error = 0;
  int correct = 0;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < classes; ++k) {
      max_error = std::max(
          max_error, std::fabs(static_cast<double>(got[i * classes + k]) - want[i * classes + k]));
    }
    const int predicted = ArgMax(got + i * classes, classes);
    EXPECT_EQ(predicted, ArgMax(want + i * classes, classes)) << "image " << i;
    if (predicted == labels.flat<int64_t>()(i)) ++correct;
  }
  EXPECT_LE(max_error, kTolerance);
  EXPECT_EQ(correct, TensorFlowCorrect());
}

INSTANTIATE_TEST_SUITE_P(Configs, DigitsModelTest,
                         ::testing::Values(Config{1, OptimizerOptions::L1},
                                           Config{2, OptimizerOptions::L1},
                                           Config{1, OptimizerOptions::L0}),
                         [](const ::testing::TestParamInfo<Config>& info) {
                           return absl::StrCat(
                               info.param.level == OptimizerOptions::L1 ? "L1" : "L0", "_threads",
                               info.param.threads);
                         });

}  // namespace
}  // namespace sluice
