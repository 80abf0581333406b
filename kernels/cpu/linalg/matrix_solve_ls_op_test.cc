// MatrixSolveLs beyond the fixtures (tests/kernels/fixtures/linalg_ops.pbtxt): a matrix
// without rows, whose output TensorFlow leaves unwritten, gives the minimum-norm solution,
// zeros.
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class MatrixSolveLsOpTest : public KernelTest {};

TEST_F(MatrixSolveLsOpTest, NoEquationsGiveZeros) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "MatrixSolveLs")
                         .Input("matrix")
                         .Input("rhs")
                         .Input("l2_regularizer")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({0, 2}), {});
  AddInputFromArray<float>(TensorShape({0, 3}), {});
  AddInputFromArray<double>(TensorShape({}), {0.0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[2,3]");
  EXPECT_EQ(Values<float>(*GetOutput(0)), std::vector<float>(6, 0.0f));
}

}  // namespace
}  // namespace test
}  // namespace sluice
