#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;

class IdentityOpsTest : public KernelTest {};

TEST_F(IdentityOpsTest, ForwardingOpsShareTheInputBuffer) {
  for (const char* op : {"Identity", "StopGradient", "PreventGradient", "GuaranteeConst"}) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("i", op).Input("x").Attr("T", DT_INT32).Build()).ok()) << op;
    Tensor x = MakeTensor<int32_t>(TensorShape({3}), {1, 2, 3});
    AddInput(x);
    ASSERT_TRUE(RunOpKernel().ok()) << op;
    EXPECT_TRUE(GetOutput(0)->SharesBufferWith(x)) << op;
    EXPECT_THAT(Values<int32_t>(*GetOutput(0)), ElementsAre(1, 2, 3));
  }
}

TEST_F(IdentityOpsTest, IdentityOfStrings) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("i", "Identity").Input("x").Attr("T", DT_STRING).Build()).ok());
  AddInput(Tensor(std::string("abc")));
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->scalar<std::string>()(), "abc");
}

TEST_F(IdentityOpsTest, PlaceholderWithDefaultForwardsItsInput) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("p", "PlaceholderWithDefault")
                         .Input("d")
                         .Attr("dtype", DT_FLOAT)
                         .Attr("shape", PartialTensorShape({-1}))
                         .Build())
                  .ok());
  Tensor d = MakeTensor<float>(TensorShape({2}), {5, 6});
  AddInput(d);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(d));
}

TEST_F(IdentityOpsTest, IdentityNForwardsEveryInput) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "IdentityN")
                         .Input("a")
                         .Input("b")
                         .Attr("T", {DT_FLOAT, DT_BOOL})
                         .Build())
                  .ok());
  Tensor a(1.5f);
  Tensor b(true);
  AddInput(a);
  AddInput(b);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(a));
  EXPECT_TRUE(GetOutput(1)->SharesBufferWith(b));
}

TEST_F(IdentityOpsTest, SnapshotCopiesASharedInput) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "Snapshot").Input("x").Attr("T", DT_FLOAT).Build()).ok());
  Tensor x = MakeTensor<float>(TensorShape({2}), {1, 2});
  AddInput(x);  // the test keeps `x`, so the buffer is shared: Snapshot must copy
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(x));
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(1, 2));
  x.flat<float>()(0) = 9;
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(1, 2));
}

TEST_F(IdentityOpsTest, SnapshotForwardsAnUnsharedInput) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "Snapshot").Input("x").Attr("T", DT_INT64).Build()).ok());
  AddInputFromArray<int64_t>(TensorShape({2}), {3, 4});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int64_t>(*GetOutput(0)), ElementsAre(3, 4));
}

TEST_F(IdentityOpsTest, SnapshotHasNoStringKernel) {
  absl::Status s = InitOp(NodeDefBuilder("s", "Snapshot").Input("x").Attr("T", DT_STRING).Build());
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
}

// TensorFlow 2.21: tf.raw_ops.GuaranteeConst of a resource handle fails with this message.
TEST_F(IdentityOpsTest, GuaranteeConstRefusesAResourceHandle) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("g", "GuaranteeConst").Input("x").Attr("T", DT_RESOURCE).Build()).ok());
  AddInput(Tensor(DT_RESOURCE, TensorShape({})));
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s, errors::InvalidArgument("Input tensor cannot be a resource variable handle."));
}

TEST_F(IdentityOpsTest, DeepCopyOwnsItsBuffer) {
  for (DataType dtype : {DT_FLOAT, DT_STRING}) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("c", "DeepCopy").Input("x").Attr("T", dtype).Build()).ok());
    Tensor x = dtype == DT_FLOAT ? MakeTensor<float>(TensorShape({2}), {1.5f, -2.0f})
                                 : Tensor(std::string("abc"));
    AddInput(x);
    ASSERT_TRUE(RunOpKernel().ok());
    const Tensor& y = *GetOutput(0);
    EXPECT_FALSE(y.SharesBufferWith(x));
    EXPECT_EQ(y.shape(), x.shape());
    if (dtype == DT_FLOAT) {
      EXPECT_THAT(Values<float>(y), ElementsAre(1.5f, -2.0f));
    } else {
      EXPECT_EQ(y.scalar<std::string>()(), "abc");
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
