// BuildWhileLoop (while_loop.h): loops run to TensorFlow's answers (a counter, a running sum,
// a loop whose variable doubles), the cond output, the scope's naming, and the errors.
#include "cc_api/while_loop.h"

#include <string>
#include <vector>

#include "cc_api/client_session.h"
#include "cc_api/const_op.h"
#include "cc_api/scope.h"
#include "cc_api/standard_ops.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

// i < limit.
ops::CondGraphBuilderFn LessThan(int limit) {
  return [limit](const Scope& s, const std::vector<Output>& in, Output* out) {
    *out = ops::Less(s, in[0], limit);
    return s.status();
  };
}

TEST(WhileLoopTest, SumsTheFirstIntegers) {
  Scope root = Scope::NewRootScope();
  auto i = ops::Placeholder(root, DT_INT32);
  auto total = ops::Const(root, 0);
  OutputList outputs;
  Output cond_output;
  ASSERT_TRUE(ops::BuildWhileLoop(
                  root.NewSubScope("sum"), {i, total}, LessThan(5),
                  [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
                    *out = {ops::Add(s, in[0], 1), ops::Add(s, in[1], in[0])};
                    return s.status();
                  },
                  "sum", &outputs, /*create_while_ctx=*/true, &cond_output)
                  .ok());
  ASSERT_EQ(outputs.size(), 2);
  EXPECT_EQ(outputs[0].node()->name(), "sum/Exit");
  EXPECT_EQ(outputs[1].node()->name(), "sum/Exit_1");
  EXPECT_EQ(cond_output.node()->type_string(), "LoopCond");
  EXPECT_EQ(root.graph()->FindNodeByName("sum/cond/Less")->type_string(), "Less");
  ClientSession session(root);
  std::vector<Tensor> got;
  ASSERT_TRUE(session.Run({{i, 0}}, {outputs[0], outputs[1]}, &got).ok());
  EXPECT_EQ(got[0].scalar<int32_t>()(), 5);
  EXPECT_EQ(got[1].scalar<int32_t>()(), 10);  // 0 + 1 + 2 + 3 + 4
  // A start past the limit runs no iteration.
  ASSERT_TRUE(session.Run({{i, 7}}, {outputs[0], outputs[1]}, &got).ok());
  EXPECT_EQ(got[0].scalar<int32_t>()(), 7);
  EXPECT_EQ(got[1].scalar<int32_t>()(), 0);
}

TEST(WhileLoopTest, MatrixVariableChangesValueNotShape) {
  Scope root = Scope::NewRootScope();
  auto m = ops::Const(root, {{1.f, 2.f}, {3.f, 4.f}});
  auto n = ops::Const(root, 0);
  OutputList outputs;
  ASSERT_TRUE(ops::BuildWhileLoop(
                  root, {n, m}, LessThan(3),
                  [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
                    *out = {ops::Add(s, in[0], 1), ops::MatMul(s, in[1], in[1])};
                    return s.status();
                  },
                  "square", &outputs)
                  .ok());
  ClientSession session(root);
  std::vector<Tensor> got;
  ASSERT_TRUE(session.Run({outputs[1]}, &got).ok());
  // M^8 for M = [[1, 2], [3, 4]].
  EXPECT_EQ(got[0].matrix<float>()(0, 0), 165751.f);
  EXPECT_EQ(got[0].matrix<float>()(1, 1), 528106.f);
}

TEST(WhileLoopTest, BuilderErrors) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, 1);
  auto identity = [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
    *out = in;
    return s.status();
  };
  OutputList outputs;
  absl::Status s = ops::BuildWhileLoop(
      root, {x},
      [](const Scope&, const std::vector<Output>& in, Output* out) {
        *out = in[0];
        return absl::OkStatus();
      },
      identity, "loop", &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "BuildWhileLoop: 'cond' argument must return a boolean output, got int32");
  // The half-built loop is taken out again: only the loop variable is left.
  EXPECT_EQ(root.graph()->num_op_nodes(), 1);

  outputs.clear();
  s = ops::BuildWhileLoop(
      root.NewSubScope("two"), {x}, LessThan(3),
      [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
        *out = {in[0], in[0]};
        return s.status();
      },
      "two", &outputs);
  EXPECT_EQ(s.message(), "BuildWhileLoop: 'body' argument expected to return 1 output(s), got 2");

  outputs.clear();
  s = ops::BuildWhileLoop(
      root.NewSubScope("typed"), {x}, LessThan(3),
      [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
        *out = {ops::Cast(s, in[0], DT_FLOAT)};
        return s.status();
      },
      "typed", &outputs);
  EXPECT_EQ(s.message(), "BuildWhileLoop: 'body' output 0 is float but loop variable 0 is int32");

  outputs.clear();
  s = ops::BuildWhileLoop(root, {}, LessThan(3), identity, "none", &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);

  // A builder's own error comes back unchanged.
  outputs.clear();
  s = ops::BuildWhileLoop(
      root.NewSubScope("failing"), {x},
      [](const Scope&, const std::vector<Output>&, Output*) {
        return absl::FailedPreconditionError("no condition today");
      },
      identity, "failing", &outputs);
  EXPECT_EQ(s, absl::FailedPreconditionError("no condition today"));
}

}  // namespace
}  // namespace sluice
