#include "tools/cli/numerics_check.h"

#include <limits>
#include <memory>

#include "gmock/gmock.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

using ::testing::HasSubstr;

Tensor Floats(std::initializer_list<float> values) {
  Tensor t(DT_FLOAT, TensorShape({static_cast<int64_t>(values.size())}));
  int i = 0;
  for (float v : values) t.base<float>()[i++] = v;
  return t;
}

class NumericsCheckerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = std::make_unique<Graph>(OpRegistry::Global());
    ASSERT_TRUE(GraphFromTextForTest(
                    "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: "
                    "DT_FLOAT } } }"
                    "node { name: 'log' op: 'Log' input: 'x' attr { key: 'T' value { type: "
                    "DT_FLOAT } } }",
                    graph_.get())
                    .ok());
    for (Node* node : graph_->op_nodes()) {
      if (node->name() == "x") x_ = node;
      if (node->name() == "log") log_ = node;
    }
    ASSERT_NE(x_, nullptr);
    ASSERT_NE(log_, nullptr);
  }

  std::unique_ptr<Graph> graph_;
  Node* x_ = nullptr;
  Node* log_ = nullptr;
};

TEST_F(NumericsCheckerTest, FiniteOutputsPass) {
  NumericsChecker checker;
  checker.BeginStep(0);
  EXPECT_TRUE(checker.OnOutput(*x_, 0, Floats({1, 2})).ok());
  EXPECT_TRUE(checker.OnOutput(*log_, 0, Floats({0, 0.69f})).ok());
}

TEST_F(NumericsCheckerTest, FirstNonFiniteOutputNamesNodeOpStepAndInputs) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  NumericsChecker checker;
  checker.BeginStep(3);
  ASSERT_TRUE(checker.OnOutput(*x_, 0, Floats({-1, 0, 2})).ok());
  const absl::Status status = checker.OnOutput(*log_, 0, Floats({nan, -inf, 0.69f}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), HasSubstr("output 0 of node 'log' (op Log) has 1 NaN, 1 -Inf "
                                          "at step 3"));
  EXPECT_THAT(status.message(), HasSubstr("input 0 (x:0): float [3] min -1 max 2"));
}

TEST_F(NumericsCheckerTest, InputsOfAnEarlierStepAreForgotten) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  NumericsChecker checker;
  checker.BeginStep(0);
  ASSERT_TRUE(checker.OnOutput(*x_, 0, Floats({-1})).ok());
  checker.BeginStep(1);
  const absl::Status status = checker.OnOutput(*log_, 0, Floats({nan}));
  EXPECT_THAT(status.message(), HasSubstr("input 0 (x:0): not recorded"));
}

TEST_F(NumericsCheckerTest, IntegerAndStringOutputsAreNotChecked) {
  NumericsChecker checker;
  Tensor strings(DT_STRING, TensorShape({1}));
  EXPECT_TRUE(checker.OnOutput(*x_, 0, strings).ok());
  Tensor ints(DT_INT32, TensorShape({1}));
  ints.base<int32_t>()[0] = 7;
  EXPECT_TRUE(checker.OnOutput(*x_, 0, ints).ok());
}

}  // namespace
}  // namespace cli
}  // namespace sluice
