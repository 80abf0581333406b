// TF1 training graphs made by TensorFlow (gen_training_graphs.py: layers, a loss and an
// optimizer's minimize(), with TensorFlow's own gradient nodes) trained for a few steps in a
// Sluice session, as a client that exports a graph from Python and trains it from C or C++
// does: the initializers, then per step the train op with the loss fetched. Each step's loss
// and every variable's final value are compared with what TensorFlow computed on the same
// feeds. The loop models (TF1 while loops, dynamic_rnn, tf.scan, tf.map_fn) also run
// TensorFlow's backward loops: stacks of the forward loop's intermediates and gradient
// TensorArrays.
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

const std::string kDir = "tests/training/";

struct RunSpec {
  std::map<std::string, std::string> names;  // x, y, loss, train, init
  int steps = 0;
  std::vector<std::string> variable_reads;
  std::vector<std::string> variable_names;
};

RunSpec ReadSpec(const std::string& model) {
  std::string text;
  EXPECT_TRUE(ReadFileToString(kDir + model + ".run.txt", &text).ok());
  RunSpec spec;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "#")) continue;
    std::vector<std::string> f = absl::StrSplit(line, ' ');
    if (f[0] == "variable" && f.size() == 4) {
      spec.variable_reads.push_back(f[2]);
      spec.variable_names.push_back(f[3]);
    } else if (f[0] == "steps" && f.size() == 2) {
      EXPECT_TRUE(absl::SimpleAtoi(f[1], &spec.steps));
    } else if (f.size() == 2) {
      spec.names[f[0]] = f[1];
    }
  }
  return spec;
}

// The Const nodes of <model>.run.pb, by name.
std::map<std::string, Tensor> ReadRun(const std::string& model) {
  GraphDef run;
  EXPECT_TRUE(ReadBinaryProtoFile(kDir + model + ".run.pb", &run).ok());
  std::map<std::string, Tensor> values;
  for (const NodeDef& node : run.node()) {
    Tensor t;
    EXPECT_TRUE(TensorFromProto(node.attr().at("value").tensor(), &t).ok()) << node.name();
    values[node.name()] = t;
  }
  return values;
}

// Node names without the ":0" TensorFlow's tensor names carry, for targets.
std::string OpName(const std::string& tensor) {
  return std::string(absl::StripSuffix(tensor, ":0"));
}

// Float training steps compound the rounding differences of kernels that sum in another
// order than TensorFlow's (matrix products, convolution backprops, reductions): values are
// compared relative to the largest magnitude of the expected tensor.
void ExpectClose(const std::string& what, const Tensor& got, const Tensor& want, double rtol) {
  ASSERT_EQ(got.dtype(), DT_FLOAT) << what;
  ASSERT_EQ(got.shape().DebugString(), want.shape().DebugString()) << what;
  auto g = got.flat<float>();
  auto w = want.flat<float>();
  double scale = 0;
  for (int64_t i = 0; i < w.size(); ++i) scale = std::max(scale, std::fabs(double{w(i)}));
  int reported = 0;
  for (int64_t i = 0; i < w.size(); ++i) {
    if (std::fabs(double{g(i)} - w(i)) > rtol * (scale + 1e-3) && reported++ < 3) {
      ADD_FAILURE() << what << " element " << i << ": " << g(i) << " vs TensorFlow's " << w(i);
    }
  }
}

class TrainingGraphsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TrainingGraphsTest, TrainsAsTensorFlow) {
  const std::string model = GetParam();
  const RunSpec spec = ReadSpec(model);
  std::map<std::string, Tensor> run = ReadRun(model);
  GraphDef graph;
  ASSERT_TRUE(ReadBinaryProtoFile(kDir + model + ".pb", &graph).ok());
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  absl::Status s = session->Create(graph);
  ASSERT_TRUE(s.ok()) << s;
  s = session->Run(RunOptions(), {}, {}, {OpName(spec.names.at("init"))}, nullptr, nullptr);
  ASSERT_TRUE(s.ok()) << s;

  for (int step = 0; step < spec.steps; ++step) {
    std::vector<Tensor> out;
    s = session->Run(RunOptions(),
                     {{spec.names.at("x"), run.at(absl::StrCat("feed/x/", step))},
                      {spec.names.at("y"), run.at(absl::StrCat("feed/y/", step))}},
                     {spec.names.at("loss")}, {OpName(spec.names.at("train"))}, &out, nullptr);
    ASSERT_TRUE(s.ok()) << "step " << step << ": " << s;
    ExpectClose(absl::StrCat(model, " loss at step ", step), out[0],
                run.at(absl::StrCat("loss/", step)), 1e-5);
  }
  std::vector<Tensor> finals;
  s = session->Run(RunOptions(), {}, spec.variable_reads, {}, &finals, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  for (size_t i = 0; i < finals.size(); ++i) {
    ExpectClose(absl::StrCat(model, " variable ", spec.variable_names[i]), finals[i],
                run.at(absl::StrCat("final/", i)), 1e-5);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Models, TrainingGraphsTest,
    ::testing::Values("mlp_sgd_ref", "mlp_sgd_resource", "mlp_momentum", "mlp_nesterov_resource",
                      "mlp_adam", "mlp_adam_resource", "mlp_rmsprop", "mlp_rmsprop_centered",
                      "mlp_adagrad", "mlp_adadelta", "mlp_ftrl", "cnn_sgd", "cnn_adam_ref",
                      "embedding_sgd_ref", "embedding_sgd_resource", "embedding_adagrad",
                      // TF1 loops, differentiated by TensorFlow.
                      "while_sgd_resource", "while_sgd_ref", "basic_lstm_adam",
                      "peephole_lstm_adam_ref", "gru_adam", "scan_map_fn_momentum"));

}  // namespace
}  // namespace sluice
