#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/call_frame.h"

namespace sluice {
namespace test {
namespace {

class FunctionOpsTest : public KernelTest {
 protected:
  absl::Status InitArg(DataType dtype, int index) {
    return InitOp(
        NodeDefBuilder("_arg_x_0_0", "_Arg").Attr("T", dtype).Attr("index", index).Build());
  }
  absl::Status InitRetval(DataType dtype, int index) {
    return InitOp(NodeDefBuilder("_retval_y_0_0", "_Retval")
                      .Input("y")
                      .Attr("T", dtype)
                      .Attr("index", index)
                      .Build());
  }
};

TEST_F(FunctionOpsTest, ArgReadsTheFrame) {
  FunctionCallFrame frame({DT_FLOAT, DT_INT32}, {});
  Tensor x(2.5f);
  ASSERT_TRUE(frame.SetArgs({x, Tensor(int32_t{3})}).ok());
  set_call_frame(&frame);
  ASSERT_TRUE(InitArg(DT_FLOAT, 0).ok());
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(x));
  ASSERT_TRUE(InitArg(DT_INT32, 1).ok());
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->scalar<int32_t>()(), 3);
}

TEST_F(FunctionOpsTest, ArgErrors) {
  ASSERT_TRUE(InitArg(DT_FLOAT, 0).ok());
  absl::Status s = RunOpKernel();  // no frame
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(s.message(), "no call frame");

  FunctionCallFrame frame({DT_INT32}, {});
  ASSERT_TRUE(frame.SetArgs({Tensor(int32_t{1})}).ok());
  set_call_frame(&frame);
  s = RunOpKernel();  // the frame's arg 0 is int32, the node says float
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Type mismatch: actual int32 vs. expect float");

  ASSERT_TRUE(InitArg(DT_INT32, 4).ok());
  s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "GetArg 4 is not within [0, 1)");

  EXPECT_EQ(InitArg(DT_INT32, -1).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(FunctionOpsTest, RetvalWritesTheFrame) {
  FunctionCallFrame frame({}, {DT_STRING});
  set_call_frame(&frame);
  ASSERT_TRUE(InitRetval(DT_STRING, 0).ok());
  AddInput(Tensor(std::string("out")));
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(frame.ConsumeRetvals(&out).ok());
  EXPECT_EQ(out[0].scalar<std::string>()(), "out");
}

TEST_F(FunctionOpsTest, RetvalErrors) {
  ASSERT_TRUE(InitRetval(DT_FLOAT, 0).ok());
  AddInput(Tensor(1.0f));
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(s.message(), "no call frame");

  FunctionCallFrame frame({}, {DT_FLOAT});
  set_call_frame(&frame);
  ASSERT_TRUE(RunOpKernel().ok());
  s = RunOpKernel();  // the same result twice
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(s.message(), "Retval[0] has already been set.");

  ASSERT_TRUE(InitRetval(DT_FLOAT, 3).ok());
  AddInput(Tensor(1.0f));
  s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "SetRetval 3 is not within [0, 1)");
}

TEST_F(FunctionOpsTest, DeviceArgAndRetval) {
  FunctionCallFrame frame({DT_INT64}, {DT_INT64});
  ASSERT_TRUE(frame.SetArgs({Tensor(int64_t{8})}).ok());
  set_call_frame(&frame);
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("a", "_DeviceArg").Attr("T", DT_INT64).Attr("index", 0).Build()).ok());
  ASSERT_TRUE(RunOpKernel().ok());
  Tensor arg = *GetOutput(0);
  ASSERT_TRUE(InitOp(NodeDefBuilder("r", "_DeviceRetval")
                         .Input("a")
                         .Attr("T", DT_INT64)
                         .Attr("index", 0)
                         .Build())
                  .ok());
  AddInput(arg);
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(frame.ConsumeRetvals(&out).ok());
  EXPECT_EQ(out[0].scalar<int64_t>()(), 8);
}

}  // namespace
}  // namespace test
}  // namespace sluice
