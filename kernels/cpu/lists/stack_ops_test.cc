// The stack kernels on stacks made by StackV2 in the harness's step container: last-in
// first-out order, the bound, and TensorFlow's errors (its messages, recorded from TensorFlow
// in tests/kernels/gen_stack_tensor_array.py). TF1 training graphs whose loop gradients use them
// are in tests/training/.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::HasSubstr;

class StackOpsTest : public KernelTest {
 protected:
  // Makes a stack; returns its handle.
  Tensor Create(const Tensor& max_size, DataType elem_type = DT_FLOAT,
                const std::string& stack_name = "") {
    EXPECT_TRUE(InitOp(NodeDefBuilder("stack", "StackV2")
                           .Input("max_size")
                           .Attr("elem_type", elem_type)
                           .Attr("stack_name", stack_name)
                           .Build())
                    .ok());
    AddInput(max_size);
    EXPECT_TRUE(RunOpKernel().ok());
    return *GetOutput(0);
  }

  absl::Status Push(const Tensor& handle, const Tensor& value) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("push", "StackPushV2")
                               .Input("h")
                               .Input("v")
                               .Attr("T", value.dtype())
                               .Attr("swap_memory", true)
                               .Build()));
    AddInput(handle);
    AddInput(value);
    RETURN_IF_ERROR(RunOpKernel());
    // The pushed tensor passes through, not a copy.
    EXPECT_EQ(GetOutput(0)->raw_data(), value.raw_data());
    return absl::OkStatus();
  }

  absl::Status Pop(const Tensor& handle, Tensor* value, DataType elem_type = DT_FLOAT) {
    RETURN_IF_ERROR(InitOp(
        NodeDefBuilder("pop", "StackPopV2").Input("h").Attr("elem_type", elem_type).Build()));
    AddInput(handle);
    RETURN_IF_ERROR(RunOpKernel());
    *value = *GetOutput(0);
    return absl::OkStatus();
  }

  absl::Status Close(const Tensor& handle) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("close", "StackCloseV2").Input("h").Build()));
    AddInput(handle);
    return RunOpKernel();
  }

  static Tensor Vec(std::vector<float> values) {
    return MakeTensor<float>(TensorShape({static_cast<int64_t>(values.size())}), values);
  }
};

TEST_F(StackOpsTest, PopsInReverseOrderOfPushes) {
  const Tensor stack = Create(Tensor(int32_t{-1}));
  const Tensor first = Vec({1, 2});
  const Tensor second = Vec({3});
  ASSERT_TRUE(Push(stack, first).ok());
  ASSERT_TRUE(Push(stack, second).ok());
  Tensor value;
  ASSERT_TRUE(Pop(stack, &value).ok());
  EXPECT_EQ(Values<float>(value), (std::vector<float>{3}));
  EXPECT_EQ(value.raw_data(), second.raw_data());  // held, not copied
  ASSERT_TRUE(Push(stack, Vec({4, 5, 6})).ok());
  ASSERT_TRUE(Pop(stack, &value).ok());
  EXPECT_EQ(Values<float>(value), (std::vector<float>{4, 5, 6}));
  ASSERT_TRUE(Pop(stack, &value).ok());
  EXPECT_EQ(Values<float>(value), (std::vector<float>{1, 2}));
  absl::Status s = Pop(stack, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("] is empty when calling Pop()."));
}

TEST_F(StackOpsTest, StacksAreSeparateAndNamedUniquely) {
  const Tensor a = Create(Tensor(int32_t{5}), DT_FLOAT, "acc");
  const Tensor b = Create(Tensor(int32_t{5}), DT_FLOAT, "acc");
  ASSERT_TRUE(Push(a, Vec({1})).ok());
  Tensor value;
  absl::Status s = Pop(b, &value);
  // TensorFlow's names: the stack_name attr (else the node's name), "_", a process-wide count.
  EXPECT_THAT(std::string(s.message()), testing::MatchesRegex("Stack\\[acc_[0-9]+\\] is empty.*"))
      << s;
  ASSERT_TRUE(Pop(a, &value).ok());
}

TEST_F(StackOpsTest, MaxSizeBoundsThePushes) {
  const Tensor stack = Create(Tensor(int32_t{2}));
  ASSERT_TRUE(Push(stack, Vec({1})).ok());
  ASSERT_TRUE(Push(stack, Vec({2})).ok());
  absl::Status s = Push(stack, Vec({3}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("] overflowed its max_size (2)"));
  Tensor value;
  ASSERT_TRUE(Pop(stack, &value).ok());
  EXPECT_TRUE(Push(stack, Vec({3})).ok());

  const Tensor none = Create(Tensor(int32_t{0}));
  s = Push(none, Vec({1}));
  EXPECT_THAT(s.message(), HasSubstr("] overflowed its max_size (0)"));
}

TEST_F(StackOpsTest, MaxSizeMustBeAScalar) {
  ASSERT_TRUE(
      InitOp(
          NodeDefBuilder("stack", "StackV2").Input("max_size").Attr("elem_type", DT_FLOAT).Build())
          .ok());
  AddInputFromArray<int32_t>(TensorShape({2}), {1, 2});
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Stack size must be a scalar, but had shape: [2]"));
}

TEST_F(StackOpsTest, DtypesAreChecked) {
  const Tensor stack = Create(Tensor(int32_t{-1}));
  // TensorFlow names the dtypes by their enum numbers: float is 1, int32 is 3.
  absl::Status s = Push(stack, MakeTensor<int32_t>(TensorShape({}), {7}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Must have type 1 but got 3"));
  ASSERT_TRUE(Push(stack, Vec({1})).ok());
  Tensor value;
  s = Pop(stack, &value, DT_INT32);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(s.message(), HasSubstr("Output 0 of type float does not match declared output "
                                     "type int32"));
}

TEST_F(StackOpsTest, ClosedStacksRefuseEverything) {
  const Tensor stack = Create(Tensor(int32_t{-1}));
  ASSERT_TRUE(Push(stack, Vec({1})).ok());
  ASSERT_TRUE(Close(stack).ok());
  absl::Status s = Push(stack, Vec({1}));
  EXPECT_THAT(s.message(), HasSubstr("] has already been closed."));
  Tensor value;
  s = Pop(stack, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("] has already been closed."));
}

TEST_F(StackOpsTest, OtherResourcesAreNotStacks) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("pop", "StackPopV2").Input("h").Attr("elem_type", DT_FLOAT).Build())
          .ok());
  AddInput(Tensor(DT_RESOURCE, TensorShape({0})));
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

}  // namespace
}  // namespace test
}  // namespace sluice
