// Cumsum and Cumprod beyond the fixtures: the output reuses an unshared input buffer, the
// parallel split over large shapes matches a plain loop, and Cumprod's exclusive/reverse
// forms and integer wrap-around.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class CumsumOpTest : public KernelTest {
 protected:
  void Init(bool exclusive, bool reverse, const std::string& op = "Cumsum",
            DataType dtype = DT_INT32) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", op)
                           .Input("x")
                           .Input("axis")
                           .Attr("T", dtype)
                           .Attr("exclusive", exclusive)
                           .Attr("reverse", reverse)
                           .Build())
                    .ok());
  }
};

TEST_F(CumsumOpTest, ScansInPlaceWhenTheInputIsUnshared) {
  Init(/*exclusive=*/true, /*reverse=*/false);
  AddInputFromArray<int32_t>(TensorShape({4}), {1, 2, 3, 4});  // only the harness holds it
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{0, 1, 3, 6}));
}

TEST_F(CumsumOpTest, NeverWritesASharedInput) {
  Init(/*exclusive=*/false, /*reverse=*/true);
  const Tensor x = MakeTensor<int32_t>(TensorShape({4}), {1, 2, 3, 4});
  AddInput(x);
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(x));
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{10, 9, 7, 4}));
  EXPECT_EQ(Values<int32_t>(x), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST_F(CumsumOpTest, LargeShapesMatchAPlainLoop) {
  const int64_t rows = 300;
  const int64_t cols = 700;
  std::vector<int32_t> x(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = static_cast<int32_t>(i % 13) - 6;
  for (int axis = 0; axis < 2; ++axis) {
    Init(/*exclusive=*/false, /*reverse=*/true);
    AddInputFromArray<int32_t>(TensorShape({rows, cols}), x);
    AddInputFromArray<int32_t>(TensorShape({}), {axis});
    ASSERT_TRUE(RunOpKernel().ok());
    const int32_t* got = GetOutput(0)->base<int32_t>();
    std::vector<int32_t> want(x.size());
    if (axis == 0) {
      for (int64_t c = 0; c < cols; ++c) {
        int32_t acc = 0;
        for (int64_t r = rows - 1; r >= 0; --r) want[r * cols + c] = acc += x[r * cols + c];
      }
    } else {
      for (int64_t r = 0; r < rows; ++r) {
        int32_t acc = 0;
        for (int64_t c = cols - 1; c >= 0; --c) want[r * cols + c] = acc += x[r * cols + c];
      }
    }
    ASSERT_EQ(std::vector<int32_t>(got, got + x.size()), want) << "axis " << axis;
  }
}

// Values recorded from TensorFlow 2.21 (tf.math.cumprod on [[1, 2, 3], [4, 5, 6]] along 1).
TEST_F(CumsumOpTest, CumprodExclusiveAndReverse) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  const std::vector<std::vector<float>> want = {
      {1, 2, 6, 4, 20, 120},  // plain
      {1, 1, 2, 1, 4, 20},    // exclusive
      {6, 6, 3, 120, 30, 6},  // reverse
      {6, 3, 1, 30, 6, 1},    // exclusive, reverse
  };
  for (int form = 0; form < 4; ++form) {
    Init(/*exclusive=*/form % 2 == 1, /*reverse=*/form >= 2, "Cumprod", DT_FLOAT);
    AddInputFromArray<float>(TensorShape({2, 3}), x);
    AddInputFromArray<int32_t>(TensorShape({}), {-1});
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(Values<float>(*GetOutput(0)), want[form]) << "form " << form;
  }
}

// TensorFlow 2.21 wraps: cumprod of int32 [65536, 65536, 3] is [65536, 0, 0] and of int8
// [100, 3] is [100, 44].
TEST_F(CumsumOpTest, CumprodWrapsIntegers) {
  Init(/*exclusive=*/false, /*reverse=*/false, "Cumprod", DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({3}), {65536, 65536, 3});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{65536, 0, 0}));
  Init(/*exclusive=*/false, /*reverse=*/false, "Cumprod", DT_INT8);
  AddInputFromArray<int8_t>(TensorShape({2}), {100, 3});
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int8_t>(*GetOutput(0)), (std::vector<int8_t>{100, 44}));
}

TEST_F(CumsumOpTest, CumprodLargeShapesMatchAPlainLoop) {
  const int64_t rows = 200;
  const int64_t cols = 900;
  std::vector<int64_t> x(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = i % 7 == 0 ? -1 : 1 + i % 3;
  Init(/*exclusive=*/true, /*reverse=*/false, "Cumprod", DT_INT64);
  AddInputFromArray<int64_t>(TensorShape({rows, cols}), x);
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  const int64_t* got = GetOutput(0)->base<int64_t>();
  std::vector<int64_t> want(x.size());
  for (int64_t c = 0; c < cols; ++c) {
    uint64_t acc = 1;
    for (int64_t r = 0; r < rows; ++r) {
      want[r * cols + c] = static_cast<int64_t>(acc);
      acc *= static_cast<uint64_t>(x[r * cols + c]);
    }
  }
  ASSERT_EQ(std::vector<int64_t>(got, got + x.size()), want);
}

}  // namespace
}  // namespace test
}  // namespace sluice
