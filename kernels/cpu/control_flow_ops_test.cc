#include <string>

#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class ControlFlowOpsTest : public KernelTest {};

TEST_F(ControlFlowOpsTest, SwitchForwardsToThePortThePredicateNames) {
  for (bool pred : {false, true}) {
    ASSERT_TRUE(
        InitOp(
            NodeDefBuilder("s", "Switch").Input("data").Input("pred").Attr("T", DT_FLOAT).Build())
            .ok());
    Tensor data = MakeTensor<float>(TensorShape({2}), {1.5f, 2.5f});
    AddInput(data);
    AddInput(Tensor(pred));
    ASSERT_TRUE(RunOpKernel().ok());
    const int taken = pred ? 1 : 0;
    ASSERT_NE(GetOutput(taken), nullptr);
    EXPECT_TRUE(GetOutput(taken)->SharesBufferWith(data));
    EXPECT_EQ(GetOutput(1 - taken), nullptr) << "the untaken output is dead (unset)";
  }
}

TEST_F(ControlFlowOpsTest, SwitchRejectsANonScalarPredicate) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("s", "Switch").Input("data").Input("pred").Attr("T", DT_INT32).Build())
          .ok());
  AddInputFromArray<int32_t>(TensorShape({}), {7});
  AddInputFromArray<bool>(TensorShape({2}), {true, false});
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("The second input must be a scalar"));
}

TEST_F(ControlFlowOpsTest, EnterExitNextIterationForwardTheirInput) {
  for (const char* op : {"Enter", "Exit", "NextIteration"}) {
    NodeDefBuilder builder("f", op);
    builder.Input("x").Attr("T", DT_INT32);
    if (std::string(op) == "Enter") builder.Attr("frame_name", "loop");
    ASSERT_TRUE(InitOp(builder.Build()).ok()) << op;
    Tensor x = MakeTensor<int32_t>(TensorShape({3}), {4, 5, 6});
    AddInput(x);
    ASSERT_TRUE(RunOpKernel().ok()) << op;
    EXPECT_TRUE(GetOutput(0)->SharesBufferWith(x)) << op;
  }
}

TEST_F(ControlFlowOpsTest, LoopCondForwardsAScalarAndRejectsOtherShapes) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("c", "LoopCond").Input("p").Build()).ok());
  AddInput(Tensor(true));
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->scalar<bool>()());

  ASSERT_TRUE(InitOp(NodeDefBuilder("c", "LoopCond").Input("p").Build()).ok());
  AddInputFromArray<bool>(TensorShape({1}), {true});
  EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(ControlFlowOpsTest, AbortFailsTheStepInsteadOfEndingTheProcess) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("a", "Abort").Attr("error_msg", "stop here").Build()).ok());
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted);
  EXPECT_THAT(std::string(s.message()), HasSubstr("stop here"));

  ASSERT_TRUE(InitOp(NodeDefBuilder("a", "Abort").Attr("exit_without_error", true).Build()).ok());
  EXPECT_TRUE(RunOpKernel().ok());
}

}  // namespace
}  // namespace test
}  // namespace sluice
