// Add/AddV2 kernels. Expected values were computed with TensorFlow 2.21
// (tf.raw_ops.AddV2 on the CPU) for the same operands.
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
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

class AddOpsTest : public KernelTest {
 protected:
  void Init(DataType dtype, const char* op = "AddV2") {
    ASSERT_TRUE(
        InitOp(NodeDefBuilder("add", op).Input("x").Input("y").Attr("T", dtype).Build()).ok());
  }

  // Runs float AddV2 on x and y and returns the output (checked non-null).
  Tensor RunFloat(const TensorShape& xs, const std::vector<float>& x, const TensorShape& ys,
                  const std::vector<float>& y) {
    Init(DT_FLOAT);
    AddInputFromArray<float>(xs, x);
    AddInputFromArray<float>(ys, y);
    absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << s;
    Tensor* out = GetOutput(0);
    return out == nullptr ? Tensor() : *out;
  }
};

TEST_F(AddOpsTest, SameShape) {
  Tensor z = RunFloat(TensorShape({2, 2}), {1, 2, 3, 4}, TensorShape({2, 2}), {10, 20, 30, 40});
  EXPECT_EQ(z.shape(), TensorShape({2, 2}));
  EXPECT_THAT(Values<float>(z), ElementsAre(11, 22, 33, 44));
}

TEST_F(AddOpsTest, BroadcastsAVectorOverRows) {
  Tensor z =
      RunFloat(TensorShape({2, 3}), {0, 1.5, 3, 4.5, 6, 7.5}, TensorShape({3}), {10, 20, 30});
  EXPECT_EQ(z.shape(), TensorShape({2, 3}));
  EXPECT_THAT(Values<float>(z), ElementsAre(10, 21.5, 33, 14.5, 26, 37.5));
}

TEST_F(AddOpsTest, BroadcastsBothOperands) {
  Tensor z = RunFloat(TensorShape({2, 1}), {1, 2}, TensorShape({1, 3}), {10, 20, 30});
  EXPECT_EQ(z.shape(), TensorShape({2, 3}));
  EXPECT_THAT(Values<float>(z), ElementsAre(11, 21, 31, 12, 22, 32));
}

TEST_F(AddOpsTest, BroadcastsAcrossRanks) {
  Tensor z =
      RunFloat(TensorShape({2, 1, 3}), {0, 1, 2, 3, 4, 5}, TensorShape({4, 1}), {0, 100, 200, 300});
  EXPECT_EQ(z.shape(), TensorShape({2, 4, 3}));
  EXPECT_THAT(Values<float>(z), ElementsAre(0, 1, 2, 100, 101, 102, 200, 201, 202, 300, 301, 302, 3,
                                            4, 5, 103, 104, 105, 203, 204, 205, 303, 304, 305));
}

TEST_F(AddOpsTest, SingleElementOfHigherRankBroadcastsTheShape) {
  Tensor z = RunFloat(TensorShape({1, 1}), {1}, TensorShape({3}), {1, 2, 3});
  EXPECT_EQ(z.shape(), TensorShape({1, 3}));
  EXPECT_THAT(Values<float>(z), ElementsAre(2, 3, 4));
}

TEST_F(AddOpsTest, Scalars) {
  Tensor z = RunFloat(TensorShape({}), {1.5}, TensorShape({}), {2.25});
  EXPECT_EQ(z.shape(), TensorShape({}));
  EXPECT_THAT(Values<float>(z), ElementsAre(3.75));
  z = RunFloat(TensorShape({3}), {1, 2, 3}, TensorShape({}), {0.5});
  EXPECT_THAT(Values<float>(z), ElementsAre(1.5, 2.5, 3.5));
  z = RunFloat(TensorShape({}), {0.5}, TensorShape({2, 1}), {1, 2});
  EXPECT_EQ(z.shape(), TensorShape({2, 1}));
  EXPECT_THAT(Values<float>(z), ElementsAre(1.5, 2.5));
}

TEST_F(AddOpsTest, NanAndInfinity) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor z = RunFloat(TensorShape({5}), {nan, inf, -inf, 1, inf}, TensorShape({5}),
                      {1, -inf, -inf, nan, 1});
  std::vector<float> v = Values<float>(z);
  ASSERT_EQ(v.size(), 5u);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], -inf);
  EXPECT_TRUE(std::isnan(v[3]));
  EXPECT_EQ(v[4], inf);
}

TEST_F(AddOpsTest, EmptyTensors) {
  Tensor z = RunFloat(TensorShape({0, 3}), {}, TensorShape({3}), {1, 2, 3});
  EXPECT_EQ(z.shape(), TensorShape({0, 3}));
  z = RunFloat(TensorShape({2, 0}), {}, TensorShape({1, 1}), {1});
  EXPECT_EQ(z.shape(), TensorShape({2, 0}));
  z = RunFloat(TensorShape({0}), {}, TensorShape({0}), {});
  EXPECT_EQ(z.shape(), TensorShape({0}));
  z = RunFloat(TensorShape({0, 1}), {}, TensorShape({1, 4}), {1, 2, 3, 4});
  EXPECT_EQ(z.shape(), TensorShape({0, 4}));
}

TEST_F(AddOpsTest, IncompatibleShapesAreInvalidArgument) {
  Init(DT_FLOAT);
  AddInputFromArray<float>(TensorShape({2, 3}), std::vector<float>(6, 0));
  AddInputFromArray<float>(TensorShape({4}), std::vector<float>(4, 0));
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Incompatible shapes: [2,3] vs. [4]"));

  Init(DT_FLOAT);
  AddInputFromArray<float>(TensorShape({0}), {});
  AddInputFromArray<float>(TensorShape({2}), {1, 2});
  s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Incompatible shapes: [0] vs. [2]"));
}

TEST_F(AddOpsTest, IntegersWrapAround) {
  Init(DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({2}), {2147483647, -2147483647 - 1});
  AddInputFromArray<int32_t>(TensorShape({2}), {1, -1});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int32_t>(*GetOutput(0)), ElementsAre(-2147483647 - 1, 2147483647));

  Init(DT_INT64);
  AddInputFromArray<int64_t>(TensorShape({1}), {std::numeric_limits<int64_t>::max()});
  AddInputFromArray<int64_t>(TensorShape({}), {5});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int64_t>(*GetOutput(0)), ElementsAre(-9223372036854775804LL));
}

TEST_F(AddOpsTest, HalfAndBfloat16RoundAsTensorFlow) {
  Init(DT_HALF);
  AddInputFromArray<half>(TensorShape({2}), {half(0.1f), half(65504.0f)});
  AddInputFromArray<half>(TensorShape({2}), {half(0.2f), half(65504.0f)});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<half> h = Values<half>(*GetOutput(0));
  EXPECT_EQ(static_cast<float>(h[0]), 0.2998046875f);
  EXPECT_TRUE(std::isinf(static_cast<float>(h[1])));

  Init(DT_BFLOAT16);
  AddInputFromArray<bfloat16>(TensorShape({2}), {bfloat16(0.1f), bfloat16(3.0e38f)});
  AddInputFromArray<bfloat16>(TensorShape({2}), {bfloat16(0.2f), bfloat16(3.0e38f)});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<bfloat16> b = Values<bfloat16>(*GetOutput(0));
  EXPECT_EQ(static_cast<float>(b[0]), 0.30078125f);
  EXPECT_TRUE(std::isinf(static_cast<float>(b[1])));
}

TEST_F(AddOpsTest, DoubleRankFourBroadcast) {
  // x[a,0,c,d] = a*20 + c*5 + d, y[b,c,0] = (b*4 + c) / 2; z has shape [3,2,4,5].
  std::vector<double> x(3 * 4 * 5);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  std::vector<double> y(2 * 4);
  for (size_t i = 0; i < y.size(); ++i) y[i] = 0.5 * static_cast<double>(i);
  Init(DT_DOUBLE);
  AddInputFromArray<double>(TensorShape({3, 1, 4, 5}), x);
  AddInputFromArray<double>(TensorShape({2, 4, 1}), y);
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_EQ(GetOutput(0)->shape(), TensorShape({3, 2, 4, 5}));
  std::vector<double> z = Values<double>(*GetOutput(0));
  std::vector<double> expected;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 5; ++d) expected.push_back(a * 20 + c * 5 + d + 0.5 * (b * 4 + c));
  EXPECT_THAT(z, ElementsAreArray(expected));
  // Spot values from TensorFlow's output of the same operands.
  EXPECT_EQ(z[5], 5.5);
  EXPECT_EQ(z[20], 2.0);
  EXPECT_EQ(z[119], 62.5);
}

TEST_F(AddOpsTest, AddAcceptsTheSameTypes) {
  Init(DT_INT32, "Add");
  AddInputFromArray<int32_t>(TensorShape({2, 2}), {1, 2, 3, 4});
  AddInputFromArray<int32_t>(TensorShape({2}), {10, 20});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int32_t>(*GetOutput(0)), ElementsAre(11, 22, 13, 24));
}

TEST_F(AddOpsTest, ForwardsAnUnsharedInputBuffer) {
  Init(DT_FLOAT);
  AddInputFromArray<float>(TensorShape({3}), {1, 2, 3});  // only the harness holds it
  Tensor y = MakeTensor<float>(TensorShape({3}), {1, 1, 1});
  AddInput(y);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(y));
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(2, 3, 4));
  EXPECT_THAT(Values<float>(y), ElementsAre(1, 1, 1));
}

TEST_F(AddOpsTest, NeverWritesASharedInput) {
  Tensor x = MakeTensor<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  Tensor y = MakeTensor<float>(TensorShape({3}), {1, 1, 1});
  Init(DT_FLOAT);
  AddInput(x);
  AddInput(y);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(x));
  EXPECT_THAT(Values<float>(x), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(2, 3, 4, 5, 6, 7));
}

// Large enough to be split over the harness's two-thread pool.
TEST_F(AddOpsTest, LargeTensorsAreSplitCorrectly) {
  const int64_t rows = 300;
  const int64_t cols = 257;
  std::vector<float> x(rows * cols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1000);
  std::vector<float> row(cols);
  for (int64_t j = 0; j < cols; ++j) row[j] = static_cast<float>(j) * 0.25f;
  std::vector<float> col(rows);
  for (int64_t i = 0; i < rows; ++i) col[i] = static_cast<float>(i) * 1000.0f;

  Tensor z = RunFloat(TensorShape({rows, cols}), x, TensorShape({cols}), row);
  std::vector<float> v = Values<float>(z);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      ASSERT_EQ(v[i * cols + j], x[i * cols + j] + row[j]) << i << "," << j;

  z = RunFloat(TensorShape({rows, 1}), col, TensorShape({1, cols}), row);
  v = Values<float>(z);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) ASSERT_EQ(v[i * cols + j], col[i] + row[j]);

  z = RunFloat(TensorShape({rows, cols}), x, TensorShape({rows, cols}), x);
  v = Values<float>(z);
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(v[i], 2 * x[i]);

  z = RunFloat(TensorShape({}), {7}, TensorShape({rows, cols}), x);
  v = Values<float>(z);
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(v[i], x[i] + 7);
}

}  // namespace
}  // namespace test
}  // namespace sluice
