// Unit tests for what the TensorFlow fixture (tests/kernels/fixtures/segment.pbtxt) cannot
// show: inputs on which TensorFlow's kernels trap or leave memory unwritten, and shapes large
// enough for the parallel paths (checked against sums computed here in the same order).
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

// Enough rows and segments to split over the pool; each segment must still add its rows in
// input order.
TEST_F(SegmentOpsTest, LargeUnsortedSumAddsInInputOrder) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("u", "UnsortedSegmentSum")
                         .Input("d")
                         .Input("s")
                         .Input("n")
                         .Attr("T", DT_FLOAT)
                         .Attr("Tindices", DT_INT32)
                         .Attr("Tnumsegments", DT_INT32)
                         .Build())
                  .ok());
  const int64_t n = 20000, inner = 16, segments = 97;
  std::vector<float> data(n * inner);
  std::vector<int32_t> ids(n);
  for (int64_t i = 0; i < n; ++i) {
    ids[i] = static_cast<int32_t>((i * 7919) % (segments + 3)) - 3;  // some negative
    for (int64_t k = 0; k < inner; ++k) data[i * inner + k] = 1.0f / (1 + (i * 31 + k) % 1013);
  }
  std::vector<float> want(segments * inner, 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    if (ids[i] < 0) continue;
    for (int64_t k = 0; k < inner; ++k) want[ids[i] * inner + k] += data[i * inner + k];
  }
  AddInputFromArray<float>(TensorShape({n, inner}), data);
  AddInputFromArray<int32_t>(TensorShape({n}), ids);
  AddInputFromArray<int32_t>(TensorShape({}), {static_cast<int32_t>(segments)});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<float>(*GetOutput(0)), want);
}

// With no entries TensorFlow's SparseSegmentSumGrad returns its output unwritten (whatever
// the memory held); Sluice's is zeros.
TEST_F(SegmentOpsTest, SparseSegmentGradWithoutEntriesIsZeros) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("g", "SparseSegmentSumGrad")
                         .Input("g")
                         .Input("i")
                         .Input("s")
                         .Input("d")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({2, 2}), {1, 2, 3, 4});
  AddInputFromArray<int32_t>(TensorShape({0}), {});
  AddInputFromArray<int32_t>(TensorShape({0}), {});
  AddInputFromArray<int32_t>(TensorShape({}), {3});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({3, 2}));
  EXPECT_EQ(Values<float>(*GetOutput(0)), std::vector<float>(6, 0.0f));
}

}  // namespace
}  // namespace test
}  // namespace sluice
