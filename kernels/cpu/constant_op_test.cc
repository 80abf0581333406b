#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class ConstantOpTest : public KernelTest {};

TEST_F(ConstantOpTest, EveryStepSharesTheParsedBuffer) {
  Tensor value = MakeTensor<float>(TensorShape({2, 2}), {1, 2, 3, 4});
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("c", "Const").Attr("dtype", DT_FLOAT).Attr("value", value).Build())
          .ok());
  ASSERT_TRUE(RunOpKernel().ok());
  Tensor first = *GetOutput(0);
  EXPECT_EQ(first.shape(), TensorShape({2, 2}));
  EXPECT_THAT(Values<float>(first), ElementsAre(1, 2, 3, 4));
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(first));
  EXPECT_FALSE(kernel()->IsExpensive());
}

TEST_F(ConstantOpTest, StringsAndScalars) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("c", "Const")
                         .Attr("dtype", DT_STRING)
                         .Attr("value", Tensor(std::string("hello")))
                         .Build())
                  .ok());
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->scalar<std::string>()(), "hello");

  ASSERT_TRUE(InitOp(NodeDefBuilder("c", "Const")
                         .Attr("dtype", DT_INT64)
                         .Attr("value", Tensor(int64_t{-7}))
                         .Build())
                  .ok());
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->scalar<int64_t>()(), -7);
}

TEST_F(ConstantOpTest, DtypeMismatchFailsConstruction) {
  absl::Status s = InitOp(
      NodeDefBuilder("c", "Const").Attr("dtype", DT_INT32).Attr("value", Tensor(1.0f)).Build());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("Type mismatch between value (float) and dtype (int32)"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("{{node c}}"));
}

TEST_F(ConstantOpTest, MalformedValueFailsConstruction) {
  TensorProto bad;
  bad.set_dtype(DT_FLOAT);
  bad.mutable_tensor_shape()->add_dim()->set_size(2);
  bad.set_tensor_content(std::string(3, 'x'));  // neither 0 nor 8 bytes
  absl::Status s =
      InitOp(NodeDefBuilder("c", "Const").Attr("dtype", DT_FLOAT).Attr("value", bad).Build());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace test
}  // namespace sluice
