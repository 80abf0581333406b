// Unit tests for what the TensorFlow fixture (tests/kernels/fixtures/segment.pbtxt) cannot
// show: inputs on which TensorFlow's kernels trap.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class SegmentOpsTest : public KernelTest {};

// 256 rows make the int8 divisor 0, where TensorFlow's kernel divides by zero; Sluice leaves
// the (wrapped) sum.
TEST_F(SegmentOpsTest, Int8MeanOf256RowsKeepsTheSum) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("m", "SegmentMean")
                         .Input("d")
                         .Input("s")
                         .Attr("T", DT_INT8)
                         .Attr("Tindices", DT_INT32)
                         .Build())
                  .ok());
  AddInputFromArray<int8_t>(TensorShape({256}), std::vector<int8_t>(256, 1));
  AddInputFromArray<int32_t>(TensorShape({256}), std::vector<int32_t>(256, 0));
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int8_t>(*GetOutput(0)), std::vector<int8_t>{0});
}

}  // namespace
}  // namespace test
}  // namespace sluice
