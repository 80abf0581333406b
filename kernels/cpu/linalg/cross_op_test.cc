// Cross beyond the fixtures (tests/kernels/fixtures/cross.pbtxt): a shape large enough for the
// parallel split, checked against the formula.
#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class CrossOpTest : public KernelTest {};

TEST_F(CrossOpTest, LargeShapeMatchesTheFormula) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("n", "Cross").Input("a").Input("b").Attr("T", DT_DOUBLE).Build()).ok());
  const int64_t n = 20000;
  std::vector<double> a(3 * n), b(3 * n);
  for (int64_t i = 0; i < 3 * n; ++i) {
    a[i] = static_cast<double>(i % 97) - 40.5;
    b[i] = static_cast<double>((i * 7) % 89) * 0.25;
  }
  AddInputFromArray<double>(TensorShape({n, 3}), a);
  AddInputFromArray<double>(TensorShape({n, 3}), b);
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<double> want(3 * n);
  for (int64_t i = 0; i < n; ++i) {
    const double* u = &a[3 * i];
    const double* v = &b[3 * i];
    want[3 * i] = u[1] * v[2] - u[2] * v[1];
    want[3 * i + 1] = u[2] * v[0] - u[0] * v[2];
    want[3 * i + 2] = u[0] * v[1] - u[1] * v[0];
  }
  EXPECT_EQ(Values<double>(*GetOutput(0)), want);
}

}  // namespace
}  // namespace test
}  // namespace sluice
