// Unique and UniqueV2 beyond the fixtures (tests/kernels/fixtures/unique.pbtxt): values
// recorded from TensorFlow 2.21 for its float equality rules, and a large input checked
// against a plain first-occurrence numbering.
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class UniqueOpTest : public KernelTest {
 protected:
  void InitUnique(DataType dtype, DataType out_idx = DT_INT32) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Unique")
                           .Input("x")
                           .Attr("T", dtype)
                           .Attr("out_idx", out_idx)
                           .Build())
                    .ok());
  }
  void InitUniqueV2(DataType dtype) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "UniqueV2")
                           .Input("x")
                           .Input("axis")
                           .Attr("T", dtype)
                           .Attr("Taxis", DT_INT64)
                           .Build())
                    .ok());
  }
};

// TensorFlow: unique([0, -0, nan, nan, 1, 1]) is y = [0, nan, nan, 1], idx = [0, 0, 1, 2, 3, 3].
TEST_F(UniqueOpTest, FloatZerosMergeAndNaNsStayApart) {
  InitUnique(DT_FLOAT);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  AddInputFromArray<float>(TensorShape({6}), {0.0f, -0.0f, nan, nan, 1.0f, 1.0f});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> y = Values<float>(*GetOutput(0));
  ASSERT_EQ(y.size(), 4u);
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_FALSE(std::signbit(y[0]));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_TRUE(std::isnan(y[2]));
  EXPECT_EQ(y[3], 1.0f);
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{0, 0, 1, 2, 3, 3}));
}

// TensorFlow: unique of half [0, -0] keeps both (its hash map of half compares bits).
TEST_F(UniqueOpTest, HalfZerosStayApart) {
  InitUnique(DT_HALF, DT_INT64);
  AddInputFromArray<half>(TensorShape({3}), {half(0.0f), half(-0.0f), half(0.0f)});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->NumElements(), 2);
  EXPECT_EQ(Values<int64_t>(*GetOutput(1)), (std::vector<int64_t>{0, 1, 0}));
}

// TensorFlow: UniqueV2 of [[1, 0, 1], [2, 0, 2], [1, 0, 1]] along 1 is
// y = [[1, 0], [2, 0], [1, 0]], idx = [0, 1, 0]; along 0, y = [[1, 0, 1], [2, 0, 2]].
TEST_F(UniqueOpTest, V2SlicesAlongAnAxis) {
  const std::vector<int32_t> x = {1, 0, 1, 2, 0, 2, 1, 0, 1};
  InitUniqueV2(DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({3, 3}), x);
  AddInputFromArray<int64_t>(TensorShape({1}), {1});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[3,2]");
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{1, 0, 2, 0, 1, 0}));
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{0, 1, 0}));

  InitUniqueV2(DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({3, 3}), x);
  AddInputFromArray<int64_t>(TensorShape({1}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[2,3]");
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{1, 0, 1, 2, 0, 2}));
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{0, 1, 0}));
}

TEST_F(UniqueOpTest, LargeInputMatchesFirstOccurrenceNumbering) {
  const int64_t n = 200000;
  std::vector<int64_t> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = (i * 7919) % 30011 - 15000;
  InitUnique(DT_INT64);
  AddInputFromArray<int64_t>(TensorShape({n}), x);
  ASSERT_TRUE(RunOpKernel().ok());
  std::map<int64_t, int32_t> first;
  std::vector<int64_t> want_y;
  std::vector<int32_t> want_idx(n);
  for (int64_t i = 0; i < n; ++i) {
    const auto [it, inserted] = first.emplace(x[i], static_cast<int32_t>(want_y.size()));
    if (inserted) want_y.push_back(x[i]);
    want_idx[i] = it->second;
  }
  EXPECT_EQ(Values<int64_t>(*GetOutput(0)), want_y);
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), want_idx);
}

TEST_F(UniqueOpTest, StringRows) {
  InitUniqueV2(DT_STRING);
  AddInputFromArray<std::string>(TensorShape({3, 2}), {"a", "b", "c", "d", "a", "b"});
  AddInputFromArray<int64_t>(TensorShape({1}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<std::string>(*GetOutput(0)), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{0, 1, 0}));
}

}  // namespace
}  // namespace test
}  // namespace sluice
