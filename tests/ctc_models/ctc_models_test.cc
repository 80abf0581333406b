// A frozen TF1 graph of CTC training and decoding (gen_ctc_models.py: tf.compat.v1.nn.ctc_loss
// on dense labels made sparse, with collapsed repeats and unmerged repeats, tf.nn.ctc_loss on
// dense labels through TensorFlow's own forward-backward loop, the v1 loss's gradient, greedy
// and beam search decoding, merged and not, top paths, a blank of 0 on rolled logits) fed batch
// by batch in a Sluice session, every output compared with TensorFlow's. Then Sluice's own
// CTCLoss gradient function (cc_api/gradients/ctc_grad.cc) on the first batch against the
// gradient TensorFlow computed, and its refusal of a second derivative.
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cc_api/client_session.h"
#include "cc_api/const_op.h"
#include "cc_api/gradients.h"
#include "cc_api/scope.h"
#include "cc_api/standard_ops.h"
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

const char kDir[] = "tests/ctc_models/";

struct RunSpec {
  int batches = 0;
  std::vector<std::string> feeds;
  std::vector<std::string> fetches;
};

RunSpec ReadSpec() {
  std::string text;
  EXPECT_TRUE(ReadFileToString(absl::StrCat(kDir, "ctc.run.txt"), &text).ok());
  RunSpec spec;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "#")) continue;
    std::vector<std::string> f = absl::StrSplit(line, ' ');
    if (f.size() != 2) continue;
    if (f[0] == "batches") EXPECT_TRUE(absl::SimpleAtoi(f[1], &spec.batches));
    if (f[0] == "feed") spec.feeds.push_back(f[1]);
    if (f[0] == "fetch") spec.fetches.push_back(f[1]);
  }
  return spec;
}

std::map<std::string, Tensor> ReadRun() {
  GraphDef run;
  EXPECT_TRUE(ReadBinaryProtoFile(absl::StrCat(kDir, "ctc.run.pb"), &run).ok());
  std::map<std::string, Tensor> values;
  for (const NodeDef& node : run.node()) {
    Tensor t;
    EXPECT_TRUE(TensorFromProto(node.attr().at("value").tensor(), &t).ok()) << node.name();
    values[node.name()] = t;
  }
  return values;
}

// Integer outputs (decoded labels, their indices and shapes) exactly; float outputs (losses,
// scores, gradients) within float rounding of TensorFlow's: the softmax's exp may round
// differently, and a loss of tens of nats carries a few ulps of that.
void ExpectMatches(const std::string& what, const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape().DebugString(), want.shape().DebugString()) << what;
  if (want.dtype() == DT_INT64) {
    auto g = got.flat<int64_t>();
    auto w = want.flat<int64_t>();
    for (int64_t i = 0; i < w.size(); ++i) EXPECT_EQ(g(i), w(i)) << what << " element " << i;
    return;
  }
  ASSERT_EQ(want.dtype(), DT_FLOAT) << what;
  auto g = got.flat<float>();
  auto w = want.flat<float>();
  for (int64_t i = 0; i < w.size(); ++i) {
    if (!std::isfinite(w(i))) {
      // An impossible label's loss is +inf.
      EXPECT_EQ(std::isnan(g(i)), std::isnan(w(i))) << what << " element " << i;
      if (!std::isnan(w(i))) EXPECT_EQ(g(i), w(i)) << what << " element " << i;
      continue;
    }
    EXPECT_NEAR(g(i), w(i), 2e-5 + 1e-5 * std::fabs(w(i))) << what << " element " << i;
  }
}

TEST(CtcModelsTest, LossesAndDecodingMatchTensorFlow) {
  const RunSpec spec = ReadSpec();
  ASSERT_GT(spec.batches, 0);
  std::map<std::string, Tensor> run = ReadRun();
  GraphDef graph;
  ASSERT_TRUE(ReadBinaryProtoFile(absl::StrCat(kDir, "ctc.pb"), &graph).ok());
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  absl::Status s = session->Create(graph);
  ASSERT_TRUE(s.ok()) << s;
  for (int b = 0; b < spec.batches; ++b) {
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const std::string& name : spec.feeds) {
      feeds.emplace_back(name, run.at(absl::StrCat("feed/", b, "/", name)));
    }
    std::vector<Tensor> out;
    s = session->Run(RunOptions(), feeds, spec.fetches, {}, &out, nullptr);
    ASSERT_TRUE(s.ok()) << "batch " << b << ": " << s;
    for (size_t i = 0; i < spec.fetches.size(); ++i) {
      const std::string& name = spec.fetches[i];
      ExpectMatches(absl::StrCat("batch ", b, " ", name), out[i],
                    run.at(absl::StrCat("out/", b, "/", name)));
    }
  }
}

TEST(CtcModelsTest, GradientFunctionMatchesTensorFlow) {
  std::map<std::string, Tensor> run = ReadRun();
  Scope root = Scope::NewRootScope();
  auto logits = ops::Const(root, run.at("grad_check/logits"));
  auto ctc = ops::CTCLoss(root, logits, ops::Const(root, run.at("grad_check/labels_indices")),
                          ops::Const(root, run.at("grad_check/labels_values")),
                          ops::Const(root, run.at("grad_check/sequence_length")));
  auto total = ops::Sum(root, ctc.loss, {0});
  std::vector<Output> grads;
  absl::Status s = AddSymbolicGradients(root, {total}, {logits}, &grads);
  ASSERT_TRUE(s.ok()) << s;
  ClientSession session(root);
  std::vector<Tensor> out;
  s = session.Run({ctc.loss, grads[0]}, &out);
  ASSERT_TRUE(s.ok()) << s;
  ExpectMatches("loss", out[0], run.at("out/0/out_loss_v1:0"));
  ExpectMatches("gradient", out[1], run.at("out/0/out_loss_v1_grad:0"));

  // A second derivative goes through PreventGradient, as in TensorFlow.
  std::vector<Output> second;
  s = AddSymbolicGradients(root, {ops::Sum(root, grads[0], {0, 1, 2})}, {logits}, &second);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(absl::StrContains(s.message(),
                                "Currently there is no way to take the second  derivative of "
                                "ctc_loss due to the fused implementation's interaction  with "
                                "tf.gradients()"))
      << s;
}

}  // namespace
}  // namespace sluice
