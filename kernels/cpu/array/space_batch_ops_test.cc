// SpaceToBatchND and BatchToSpaceND beyond the fixtures (tests/kernels/fixtures/
// space_batch.pbtxt): the checks TensorFlow's shape function keeps from its kernel, the
// input passed through when no dim needs work, and a shape large enough for the parallel
// split checked against a plain loop and against the inverse.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class SpaceBatchOpTest : public KernelTest {
 protected:
  void Init(const std::string& op, DataType dtype) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", op)
                           .Input("input")
                           .Input("block_shape")
                           .Input(op == "SpaceToBatchND" ? "paddings" : "crops")
                           .Attr("T", dtype)
                           .Build())
                    .ok());
  }
};

TEST_F(SpaceBatchOpTest, BlockShapeMustBeAVector) {
  for (const std::string op : {"SpaceToBatchND", "BatchToSpaceND"}) {
    Init(op, DT_FLOAT);
    AddInputFromArray<float>(TensorShape({4, 2, 2, 1}), std::vector<float>(16));
    AddInputFromArray<int32_t>(TensorShape({1, 2}), {2, 2});
    AddInputFromArray<int32_t>(TensorShape({2, 2}), {0, 0, 0, 0});
    const absl::Status status = RunOpKernel();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << op;
    EXPECT_NE(status.message().find("block_shape rank should be 1 instead of 2"), std::string::npos)
        << status;
  }
}

TEST_F(SpaceBatchOpTest, NoWorkForwardsTheInput) {
  for (const std::string op : {"SpaceToBatchND", "BatchToSpaceND"}) {
    Init(op, DT_INT32);
    AddInputFromArray<int32_t>(TensorShape({2, 3, 1}), {1, 2, 3, 4, 5, 6});
    AddInputFromArray<int64_t>(TensorShape({2}), {1, 1});
    AddInputFromArray<int64_t>(TensorShape({2, 2}), {0, 0, 0, 0});
    ASSERT_TRUE(RunOpKernel().ok()) << op;
    EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[2,3,1]");
    EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  }
}

// An empty input lets BatchToSpaceND's block size be anything (the batch, 0, is divisible by
// any product): the cropped size must not overflow.
TEST_F(SpaceBatchOpTest, BatchToSpaceRefusesAnOverflowingCroppedSize) {
  Init("BatchToSpaceND", DT_FLOAT);
  AddInput(Tensor(DT_FLOAT, TensorShape({0, int64_t{1} << 40, 1})));
  AddInputFromArray<int64_t>(TensorShape({1}), {int64_t{1} << 40});
  AddInputFromArray<int64_t>(TensorShape({1, 2}), {0, 0});
  EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
}

// TensorFlow: space_to_batch_nd with block [2, 3] and paddings [[1, 1], [2, 0]] of a
// [3, 40, 70, 5] int64 tensor, then batch_to_space_nd back with the same amounts as crops,
// is the identity; each element of the first output is padded[b, o0 * 2 + k0, o1 * 3 + k1].
TEST_F(SpaceBatchOpTest, LargeShapeMatchesAPlainLoopAndRoundTrips) {
  const int64_t batch = 3, rows = 40, cols = 70, depth = 5;
  std::vector<int64_t> x(batch * rows * cols * depth);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int64_t>(i) + 1;
  Init("SpaceToBatchND", DT_INT64);
  AddInputFromArray<int64_t>(TensorShape({batch, rows, cols, depth}), x);
  AddInputFromArray<int32_t>(TensorShape({2}), {2, 3});
  AddInputFromArray<int32_t>(TensorShape({2, 2}), {1, 1, 2, 0});
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor spaced = *GetOutput(0);
  const int64_t out_rows = (rows + 2) / 2, out_cols = (cols + 2) / 3;
  ASSERT_EQ(spaced.shape().DebugString(), "[18,21,24,5]");
  std::vector<int64_t> want;
  for (int64_t k0 = 0; k0 < 2; ++k0) {
    for (int64_t k1 = 0; k1 < 3; ++k1) {
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t o0 = 0; o0 < out_rows; ++o0) {
          for (int64_t o1 = 0; o1 < out_cols; ++o1) {
            const int64_t r = o0 * 2 + k0 - 1, c = o1 * 3 + k1 - 2;
            for (int64_t d = 0; d < depth; ++d) {
              const bool inside = r >= 0 && r < rows && c >= 0 && c < cols;
              want.push_back(inside ? x[((b * rows + r) * cols + c) * depth + d] : 0);
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(Values<int64_t>(spaced), want);

  Init("BatchToSpaceND", DT_INT64);
  AddInput(spaced);
  AddInputFromArray<int32_t>(TensorShape({2}), {2, 3});
  AddInputFromArray<int32_t>(TensorShape({2, 2}), {1, 1, 2, 0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[3,40,70,5]");
  EXPECT_EQ(Values<int64_t>(*GetOutput(0)), x);
}

}  // namespace
}  // namespace test
}  // namespace sluice
