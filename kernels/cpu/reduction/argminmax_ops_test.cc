// ArgMax/ArgMin beyond the fixtures: an int16 dimension (TensorFlow 2.21 misreads it, so
// no fixture records it) and the parallel split over large shapes.
#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class ArgMinMaxOpsTest : public KernelTest {
 protected:
  void Init(const std::string& op, DataType tidx) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", op)
                           .Input("x")
                           .Input("dimension")
                           .Attr("T", DT_FLOAT)
                           .Attr("Tidx", tidx)
                           .Attr("output_type", DT_INT32)
                           .Build())
                    .ok());
  }
};

TEST_F(ArgMinMaxOpsTest, Int16Dimension) {
  Init("ArgMax", DT_INT16);
  AddInputFromArray<float>(TensorShape({2, 3}), {1, 5, 2, 7, 0, 7});
  AddInputFromArray<int16_t>(TensorShape({}), {-1});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{1, 0}));
}

TEST_F(ArgMinMaxOpsTest, LargeShapesMatchAPlainLoop) {
  const int64_t rows = 400;
  const int64_t cols = 300;
  std::vector<float> x(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = static_cast<float>((i * 7919) % 1009);
  for (int axis = 0; axis < 2; ++axis) {
    Init("ArgMin", DT_INT32);
    AddInputFromArray<float>(TensorShape({rows, cols}), x);
    AddInputFromArray<int32_t>(TensorShape({}), {axis});
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<int32_t> got = Values<int32_t>(*GetOutput(0));
    const int64_t outputs = axis == 0 ? cols : rows;
    const int64_t len = axis == 0 ? rows : cols;
    ASSERT_EQ(static_cast<int64_t>(got.size()), outputs);
    for (int64_t o = 0; o < outputs; ++o) {
      int32_t best = 0;
      for (int64_t r = 1; r < len; ++r) {
        const float v = axis == 0 ? x[r * cols + o] : x[o * cols + r];
        const float b = axis == 0 ? x[best * cols + o] : x[o * cols + best];
        if (v < b) best = static_cast<int32_t>(r);
      }
      ASSERT_EQ(got[o], best) << "axis " << axis << " output " << o;
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
