// Roll beyond the fixtures (tests/kernels/fixtures/roll.pbtxt): a shape large enough for the
// parallel split, checked against a plain loop over coordinates.
#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class RollOpTest : public KernelTest {};

TEST_F(RollOpTest, LargeShapeMatchesAPlainLoop) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Roll")
                         .Input("input")
                         .Input("shift")
                         .Input("axis")
                         .Attr("T", DT_INT32)
                         .Attr("Tshift", DT_INT32)
                         .Attr("Taxis", DT_INT32)
                         .Build())
                  .ok());
  const int64_t d0 = 7, d1 = 60, d2 = 90;
  std::vector<int32_t> x(d0 * d1 * d2);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i);
  AddInputFromArray<int32_t>(TensorShape({d0, d1, d2}), x);
  AddInputFromArray<int32_t>(TensorShape({3}), {3, -11, 0});
  AddInputFromArray<int32_t>(TensorShape({3}), {0, 1, 2});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int32_t> want(x.size());
  for (int64_t i = 0; i < d0; ++i) {
    for (int64_t j = 0; j < d1; ++j) {
      for (int64_t k = 0; k < d2; ++k) {
        const int64_t oi = (i + 3) % d0, oj = (j - 11 + d1) % d1;
        want[(oi * d1 + oj) * d2 + k] = x[(i * d1 + j) * d2 + k];
      }
    }
  }
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), want);
}

}  // namespace
}  // namespace test
}  // namespace sluice
