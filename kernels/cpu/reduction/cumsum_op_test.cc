// Cumsum beyond the fixtures: the output reuses an unshared input buffer, and the parallel
// split over large shapes matches a plain loop.
#include <cstdint>
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
  void Init(bool exclusive, bool reverse) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Cumsum")
                           .Input("x")
                           .Input("axis")
                           .Attr("T", DT_INT32)
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

}  // namespace
}  // namespace test
}  // namespace sluice
