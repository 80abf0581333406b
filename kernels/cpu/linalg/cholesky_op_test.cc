// Cholesky beyond the fixtures (tests/kernels/fixtures/linalg_ops.pbtxt): a matrix that is
// not positive definite, whose TensorFlow output is not reproducible (its upper triangle is
// whatever the buffer held), and a batch where only one matrix fails.
#include <cmath>
#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class CholeskyOpTest : public KernelTest {
 protected:
  void Init(DataType dtype) {
    ASSERT_TRUE(
        InitOp(NodeDefBuilder("n", "Cholesky").Input("input").Attr("T", dtype).Build()).ok());
  }
};

TEST_F(CholeskyOpTest, NotPositiveDefiniteGivesNaNBelowAndZerosAbove) {
  Init(DT_DOUBLE);
  AddInputFromArray<double>(TensorShape({3, 3}), {1, 2, 7, 2, 1, 7, 9, 9, 9});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<double> got = Values<double>(*GetOutput(0));
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      if (c <= r) {
        EXPECT_TRUE(std::isnan(got[r * 3 + c])) << r << "," << c;
      } else {
        EXPECT_EQ(got[r * 3 + c], 0.0) << r << "," << c;
      }
    }
  }
}

TEST_F(CholeskyOpTest, OnlyTheFailingMatrixOfABatchIsNaN) {
  Init(DT_FLOAT);
  AddInputFromArray<float>(TensorShape({2, 2, 2}), {4, 0, 2, 5, -1, 0, 0, 1});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> got = Values<float>(*GetOutput(0));
  EXPECT_EQ(got[0], 2.0f);
  EXPECT_EQ(got[1], 0.0f);
  EXPECT_EQ(got[2], 1.0f);
  EXPECT_EQ(got[3], 2.0f);
  EXPECT_TRUE(std::isnan(got[4]));
  EXPECT_EQ(got[5], 0.0f);
  EXPECT_TRUE(std::isnan(got[6]));
  EXPECT_TRUE(std::isnan(got[7]));
}

}  // namespace
}  // namespace test
}  // namespace sluice
