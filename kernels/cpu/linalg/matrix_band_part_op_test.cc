// MatrixBandPart beyond the fixtures (tests/kernels/fixtures/matrix_band_part.pbtxt): the
// input passed through when the band is everything, and a shape large enough for the
// parallel split checked against a plain loop.
#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class MatrixBandPartOpTest : public KernelTest {
 protected:
  void Init(DataType dtype) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "MatrixBandPart")
                           .Input("input")
                           .Input("num_lower")
                           .Input("num_upper")
                           .Attr("T", dtype)
                           .Attr("Tindex", DT_INT64)
                           .Build())
                    .ok());
  }
};

TEST_F(MatrixBandPartOpTest, WholeBandIsTheInput) {
  Init(DT_FLOAT);
  const Tensor input = MakeTensor<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  AddInput(input);
  AddInputFromArray<int64_t>(TensorShape({}), {-1});
  AddInputFromArray<int64_t>(TensorShape({}), {3});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->raw_data(), input.raw_data());
}

TEST_F(MatrixBandPartOpTest, LargeShapeMatchesAPlainLoop) {
  const int64_t batch = 6, rows = 70, cols = 90;
  std::vector<double> x(batch * rows * cols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i) + 0.5;
  Init(DT_DOUBLE);
  AddInputFromArray<double>(TensorShape({batch, rows, cols}), x);
  AddInputFromArray<int64_t>(TensorShape({}), {4});
  AddInputFromArray<int64_t>(TensorShape({}), {11});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<double> want(x.size());
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t m = 0; m < rows; ++m) {
      for (int64_t n = 0; n < cols; ++n) {
        const int64_t i = (b * rows + m) * cols + n;
        want[i] = (m - n <= 4 && n - m <= 11) ? x[i] : 0.0;
      }
    }
  }
  EXPECT_EQ(Values<double>(*GetOutput(0)), want);
}

}  // namespace
}  // namespace test
}  // namespace sluice
