// AddN kernel. Expected values were computed with TensorFlow 2.21 (tf.raw_ops.AddN on the
// CPU) for the same operands.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class AddNOpTest : public KernelTest {
 protected:
  void Init(DataType dtype, int n) {
    NodeDefBuilder b("sum", "AddN");
    for (int i = 0; i < n; ++i) b.Input("in" + std::to_string(i));
    ASSERT_TRUE(InitOp(b.Attr("N", n).Attr("T", dtype).Build()).ok());
  }
};

TEST_F(AddNOpTest, SumsThreeInputsWithNanAndInfinity) {
  const float inf = std::numeric_limits<float>::infinity();
  Init(DT_FLOAT, 3);
  AddInputFromArray<float>(TensorShape({2}), {1, 2});
  AddInputFromArray<float>(TensorShape({2}), {std::numeric_limits<float>::quiet_NaN(), 3});
  AddInputFromArray<float>(TensorShape({2}), {inf, 4});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<float> v = Values<float>(*GetOutput(0));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 9);
}

TEST_F(AddNOpTest, OneInputIsForwarded) {
  Init(DT_DOUBLE, 1);
  Tensor x = MakeTensor<double>(TensorShape({2}), {1.5, 2.5});
  AddInput(x);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(x));
}

TEST_F(AddNOpTest, ReusesAnUnsharedInputAndNeverWritesASharedOne) {
  Init(DT_INT64, 3);
  Tensor shared0 = MakeTensor<int64_t>(TensorShape({2, 2}), {1, 2, 3, 4});
  Tensor shared2 = MakeTensor<int64_t>(TensorShape({2, 2}), {100, 200, 300, 400});
  AddInput(shared0);
  AddInputFromArray<int64_t>(TensorShape({2, 2}), {10, 20, 30, 40});  // unshared
  AddInput(shared2);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int64_t>(*GetOutput(0)), ElementsAre(111, 222, 333, 444));
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(shared0));
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(shared2));
  EXPECT_THAT(Values<int64_t>(shared0), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(Values<int64_t>(shared2), ElementsAre(100, 200, 300, 400));
}

TEST_F(AddNOpTest, Scalars) {
  Init(DT_FLOAT, 4);
  for (float v : {0.5f, 1.0f, 2.0f, 4.0f}) AddInput(Tensor(v));
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({}));
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(7.5f));
}

TEST_F(AddNOpTest, EmptyTensors) {
  Init(DT_FLOAT, 2);
  AddInputFromArray<float>(TensorShape({0, 3}), {});
  AddInputFromArray<float>(TensorShape({0, 3}), {});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({0, 3}));
}

TEST_F(AddNOpTest, DifferentShapesAreInvalidArgument) {
  Init(DT_FLOAT, 2);
  AddInputFromArray<float>(TensorShape({2, 3}), std::vector<float>(6, 0));
  AddInputFromArray<float>(TensorShape({4}), std::vector<float>(4, 0));
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("Inputs to operation sum of type AddN must have the same size and "
                        "shape.  Input 0: [2,3] != input 1: [4]"));

  // Same element count, other shape: still rejected (no broadcasting or reshaping).
  Init(DT_FLOAT, 3);
  AddInputFromArray<float>(TensorShape({2}), {1, 2});
  AddInputFromArray<float>(TensorShape({2}), {1, 2});
  AddInputFromArray<float>(TensorShape({1, 2}), {1, 2});
  s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Input 0: [2] != input 2: [1,2]"));
}

TEST_F(AddNOpTest, IntegersWrapAround) {
  Init(DT_INT32, 2);
  AddInputFromArray<int32_t>(TensorShape({1}), {2147483647});
  AddInputFromArray<int32_t>(TensorShape({1}), {1});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int32_t>(*GetOutput(0)), ElementsAre(-2147483647 - 1));
}

TEST_F(AddNOpTest, HalfSumsRoundAsTensorFlow) {
  Init(DT_HALF, 3);
  for (int i = 0; i < 3; ++i) AddInputFromArray<half>(TensorShape({1}), {half(0.1f)});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(static_cast<float>(Values<half>(*GetOutput(0))[0]), 0.2998046875f);

  Init(DT_BFLOAT16, 2);
  AddInputFromArray<bfloat16>(TensorShape({1}), {bfloat16(0.1f)});
  AddInputFromArray<bfloat16>(TensorShape({1}), {bfloat16(0.2f)});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(static_cast<float>(Values<bfloat16>(*GetOutput(0))[0]), 0.30078125f);
}

// Many inputs over a tensor large enough to be split over the harness's two-thread pool,
// with a length that is not a multiple of the block size.
TEST_F(AddNOpTest, LargeSumsAreSplitCorrectly) {
  const int n = 7;
  const int64_t size = 50001;
  Init(DT_FLOAT, n);
  for (int j = 0; j < n; ++j) {
    std::vector<float> v(size);
    for (int64_t i = 0; i < size; ++i) v[i] = static_cast<float>((i + j) % 97);
    AddInputFromArray<float>(TensorShape({size}), v);
  }
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<float> out = Values<float>(*GetOutput(0));
  ASSERT_EQ(out.size(), static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    float expected = 0;
    for (int j = 0; j < n; ++j) expected += static_cast<float>((i + j) % 97);
    ASSERT_EQ(out[i], expected) << i;
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
