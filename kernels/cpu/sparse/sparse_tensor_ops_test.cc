// What the fixtures of the SparseTensor kernels cannot show: inputs TensorFlow's kernels abort
// or read out of bounds on (answered here with errors), the order Sluice gives repeated
// indices (TensorFlow's sort leaves it unspecified), and index arithmetic at the ends of the
// int64 range.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

class SparseTensorOpsTest : public KernelTest {
 protected:
  absl::Status InitMatMul() {
    return InitOp(NodeDefBuilder("mm", "SparseTensorDenseMatMul")
                      .Input("i")
                      .Input("v")
                      .Input("s")
                      .Input("b")
                      .Attr("T", DT_FLOAT)
                      .Attr("Tindices", DT_INT64)
                      .Attr("adjoint_a", false)
                      .Attr("adjoint_b", false)
                      .Build());
  }
  absl::Status InitTyped(const char* op, DataType t, int inputs) {
    NodeDefBuilder b("op", op);
    for (int i = 0; i < inputs; ++i) b.Input("x" + std::to_string(i));
    return InitOp(b.Attr("T", t).Build());
  }
};

// TensorFlow aborts building the product's shape from a negative a_shape dim.
TEST_F(SparseTensorOpsTest, MatMulNegativeShapeIsAnError) {
  ASSERT_TRUE(InitMatMul().ok());
  AddInputFromArray<int64_t>(TensorShape({1, 2}), {0, 1});
  AddInputFromArray<float>(TensorShape({1}), {1});
  AddInputFromArray<int64_t>(TensorShape({2}), {-2, 3});
  AddInputFromArray<float>(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(status.message(), "non-negative, got -2")) << status;
}

// TensorFlow reads the row from a zero-column index matrix out of bounds.
TEST_F(SparseTensorOpsTest, FillEmptyRowsWithoutRowColumnIsAnError) {
  ASSERT_TRUE(InitTyped("SparseFillEmptyRows", DT_FLOAT, 4).ok());
  AddInputFromArray<int64_t>(TensorShape({1, 0}), {});
  AddInputFromArray<float>(TensorShape({1}), {1});
  AddInputFromArray<int64_t>(TensorShape({1}), {3});
  AddInputFromArray<float>(TensorShape({}), {0});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(status.message(), "column for the row")) << status;
}

TEST_F(SparseTensorOpsTest, ReorderKeepsRepeatedIndicesInInputOrder) {
  ASSERT_TRUE(InitTyped("SparseReorder", DT_INT32, 3).ok());
  AddInputFromArray<int64_t>(TensorShape({4, 2}), {1, 1, 0, 0, 1, 1, 1, 1});
  AddInputFromArray<int32_t>(TensorShape({4}), {10, 20, 30, 40});
  AddInputFromArray<int64_t>(TensorShape({2}), {2, 2});
  ASSERT_TRUE(RunOpKernel().ok());
  const int32_t* v = GetOutput(1)->flat<int32_t>().data();
  EXPECT_EQ(std::vector<int32_t>(v, v + 4), (std::vector<int32_t>{20, 10, 30, 40}));
}

// start + size and index - start past the int64 range are compared exactly (UBSan checks
// that nothing overflows).
TEST_F(SparseTensorOpsTest, SliceAtTheEndsOfTheInt64Range) {
  ASSERT_TRUE(InitTyped("SparseSlice", DT_FLOAT, 5).ok());
  AddInputFromArray<int64_t>(TensorShape({3, 1}), {kMin, 20, kMax});
  AddInputFromArray<float>(TensorShape({3}), {1, 2, 3});
  AddInputFromArray<int64_t>(TensorShape({1}), {kMax});
  AddInputFromArray<int64_t>(TensorShape({1}), {10});
  AddInputFromArray<int64_t>(TensorShape({1}), {kMax});  // start + size is past kMax
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_EQ(GetOutput(1)->NumElements(), 2);
  const int64_t* ix = static_cast<const int64_t*>(GetOutput(0)->raw_data());
  EXPECT_EQ(ix[0], 10);
  EXPECT_EQ(ix[1], kMax - 10);
  EXPECT_EQ(static_cast<const int64_t*>(GetOutput(2)->raw_data())[0], kMax - 10);
}

}  // namespace
}  // namespace test
}  // namespace sluice
