// End-to-end session tests over GraphDefs that TensorFlow made: each fixture's steps
// (gen_session_graphs.py, "<name>.steps.txt") are replayed in one Sluice session and must
// return what TensorFlow's session returned.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "proto/kernel_def.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

constexpr char kDir[] = "tests/session/";

struct Step {
  std::string line;
  std::vector<std::string> targets;
  std::vector<std::string> fetches;
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::vector<float>> expected;
};

std::vector<std::string> List(absl::string_view field, char sep) {
  if (field == "-") return {};
  return absl::StrSplit(field, sep);
}

std::vector<float> Floats(absl::string_view text) {
  std::vector<float> values;
  for (absl::string_view v : absl::StrSplit(text, ',')) {
    float f = 0;
    EXPECT_TRUE(absl::SimpleAtof(v, &f)) << v;
    values.push_back(f);
  }
  return values;
}

// "tensor:dims:values", the tensor name itself holding one ':'.
std::pair<std::string, Tensor> ParseFeed(absl::string_view field) {
  std::vector<std::string> parts = absl::StrSplit(field, ':');
  EXPECT_EQ(parts.size(), 4u) << field;
  if (parts.size() != 4) return {};
  std::vector<int64_t> dims;
  for (absl::string_view d : absl::StrSplit(parts[2], 'x')) {
    int64_t n = 0;
    EXPECT_TRUE(absl::SimpleAtoi(d, &n)) << d;
    dims.push_back(n);
  }
  Tensor t(DT_FLOAT, TensorShape(dims));
  std::vector<float> values = Floats(parts[3]);
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.NumElements()) << field;
  for (int64_t i = 0; i < t.NumElements() && i < static_cast<int64_t>(values.size()); ++i) {
    t.flat<float>()(i) = values[i];
  }
  return {parts[0] + ":" + parts[1], t};
}

std::vector<Step> ReadSteps(const std::string& name) {
  std::string text;
  absl::Status s = ReadFileToString(kDir + name + ".steps.txt", &text);
  EXPECT_TRUE(s.ok()) << s;
  std::vector<Step> steps;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<std::string> fields = absl::StrSplit(line, ' ');
    EXPECT_EQ(fields.size(), 4u) << line;
    if (fields.size() != 4) continue;
    Step step;
    step.line = std::string(line);
    step.targets = List(fields[0], ',');
    step.fetches = List(fields[1], ',');
    if (fields[2] != "-") step.feeds.push_back(ParseFeed(fields[2]));
    for (const std::string& values : List(fields[3], ';')) step.expected.push_back(Floats(values));
    steps.push_back(std::move(step));
  }
  return steps;
}

std::vector<float> Values(const Tensor& t) {
  std::vector<float> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.flat<float>()(i));
  return v;
}

void Replay(const std::string& name, int num_cpus) {
  GraphDef graph;
  absl::Status s = ReadGraphDefFile(kDir + name + ".pbtxt", &graph);
  ASSERT_TRUE(s.ok()) << s;
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = num_cpus;
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(options, &session).ok());
  s = session->Create(graph);
  ASSERT_TRUE(s.ok()) << s;
  const std::vector<Step> steps = ReadSteps(name);
  ASSERT_FALSE(steps.empty());
  for (const Step& step : steps) {
    std::vector<Tensor> outputs;
    s = session->Run(step.feeds, step.fetches, step.targets, &outputs);
    ASSERT_TRUE(s.ok()) << step.line << ": " << s;
    ASSERT_EQ(outputs.size(), step.expected.size()) << step.line;
    for (size_t i = 0; i < outputs.size(); ++i) {
      EXPECT_EQ(Values(outputs[i]), step.expected[i]) << step.line << " fetch " << i;
    }
  }
  EXPECT_TRUE(session->Close().ok());
}

TEST(SessionGraphsTest, Tf1VariablesAndPlaceholders) { Replay("variables", 1); }

TEST(SessionGraphsTest, VariablesOnTwoCpus) { Replay("variables", 2); }

TEST(SessionGraphsTest, ExplicitDevicesOnTwoCpus) { Replay("two_devices", 2); }

// tf.compat.v1 optimizers' minimize() steps: dense and sparse updates of ref and resource
// variables (kernels/cpu/training). Those kernels are op-coverage kernels, which ThreadSanitizer
// builds leave out (kernels/BUILD): there the case is skipped.
TEST(SessionGraphsTest, Tf1OptimizersTrainStepByStep) {
  if (GetRegisteredKernelsForOp("ResourceApplyAdam").kernel_size() == 0) {
    GTEST_SKIP() << "the training kernels are not linked in this configuration";
  }
  Replay("training", 1);
}

}  // namespace
}  // namespace sluice
