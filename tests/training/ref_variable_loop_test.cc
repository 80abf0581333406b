// A TF1 graph with a ref variable (VariableV2) read by an Identity at the root and by a cond's
// Switch, and a while loop whose body multiplies by it (gen_training_graphs.py,
// write_ref_variable_loop): the values TensorFlow fetched. A graph with a loop runs under the
// control-flow executor, whose shortcut for nodes that only route a value must not take a ref
// input (a variable) for a value.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
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

TEST(RefVariableLoopTest, ReadsOfTheVariableReachTheLoopAndTheCond) {
  GraphDef graph;
  ASSERT_TRUE(ReadBinaryProtoFile("tests/training/ref_variable_loop.pb", &graph).ok());
  GraphDef run;
  ASSERT_TRUE(ReadBinaryProtoFile("tests/training/ref_variable_loop.run.pb", &run).ok());
  Tensor x;
  std::vector<std::string> fetches;
  std::vector<Tensor> expected;
  for (const NodeDef& node : run.node()) {
    Tensor t;
    ASSERT_TRUE(TensorFromProto(node.attr().at("value").tensor(), &t).ok()) << node.name();
    if (node.name() == "feed/x") {
      x = t;
    } else if (absl::StartsWith(node.name(), "expected/")) {
      fetches.push_back(node.name().substr(9));
      expected.push_back(t);
    }
  }
  ASSERT_EQ(fetches.size(), 2u);

  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  absl::Status s = session->Create(graph);
  ASSERT_TRUE(s.ok()) << s;
  s = session->Run(RunOptions(), {}, {}, {"init"}, nullptr, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  std::vector<Tensor> out;
  s = session->Run(RunOptions(), {{"x:0", x}}, fetches, {}, &out, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  for (size_t i = 0; i < fetches.size(); ++i) {
    ASSERT_EQ(out[i].shape(), expected[i].shape()) << fetches[i];
    auto got = out[i].flat<float>();
    auto want = expected[i].flat<float>();
    for (int64_t j = 0; j < want.size(); ++j) {
      EXPECT_NEAR(got(j), want(j), 1e-6) << fetches[i] << " element " << j;
    }
  }
}

}  // namespace
}  // namespace sluice
