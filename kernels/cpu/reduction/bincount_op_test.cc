// Bincount and DenseBincount beyond the fixtures (tests/kernels/fixtures/bincount.pbtxt):
// values recorded from TensorFlow 2.21, and a large input checked against a plain count.
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

class BincountOpTest : public KernelTest {
 protected:
  void InitBincount(DataType dtype) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Bincount")
                           .Input("arr")
                           .Input("size")
                           .Input("weights")
                           .Attr("T", dtype)
                           .Build())
                    .ok());
  }
  void InitDense(DataType dtype, bool binary) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "DenseBincount")
                           .Input("input")
                           .Input("size")
                           .Input("weights")
                           .Attr("Tidx", DT_INT32)
                           .Attr("T", dtype)
                           .Attr("binary_output", binary)
                           .Build())
                    .ok());
  }
};

// TensorFlow: bincount([1, 1, 3, 7], size 5, weights [0.5, 0.25, 2, 9]) is
// [0, 0.75, 0, 2, 0] (7 is dropped).
TEST_F(BincountOpTest, SumsWeightsAndDropsLargeValues) {
  InitBincount(DT_DOUBLE);
  AddInputFromArray<int32_t>(TensorShape({4}), {1, 1, 3, 7});
  AddInputFromArray<int32_t>(TensorShape({}), {5});
  AddInputFromArray<double>(TensorShape({4}), {0.5, 0.25, 2, 9});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<double>(*GetOutput(0)), (std::vector<double>{0, 0.75, 0, 2, 0}));
}

TEST_F(BincountOpTest, NegativeValuesAreInvalid) {
  InitBincount(DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({2}), {1, -1});
  AddInputFromArray<int32_t>(TensorShape({}), {5});
  AddInputFromArray<int32_t>(TensorShape({0}), {});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Input arr must be non-negative!");
}

// TensorFlow: DenseBincount([[1, 1, 4], [2, 0, 9]], size 4, weights [[1, 2, 3], [4, 5, 6]]) is
// [[0, 3, 0, 0], [5, 0, 4, 0]], and with binary_output [[0, 1, 0, 0], [1, 0, 1, 0]].
TEST_F(BincountOpTest, DenseRows) {
  for (bool binary : {false, true}) {
    InitDense(DT_INT64, binary);
    AddInputFromArray<int32_t>(TensorShape({2, 3}), {1, 1, 4, 2, 0, 9});
    AddInputFromArray<int32_t>(TensorShape({}), {4});
    AddInputFromArray<int64_t>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[2,4]");
    EXPECT_EQ(Values<int64_t>(*GetOutput(0)), binary
                                                  ? (std::vector<int64_t>{0, 1, 0, 0, 1, 0, 1, 0})
                                                  : (std::vector<int64_t>{0, 3, 0, 0, 5, 0, 4, 0}));
  }
}

// Issue 25: an empty [2**40, 0] input has 2**40 rows; with size 2**30 the output [rows, size]
// has more elements than int64 holds. INVALID_ARGUMENT, where building the output shape used
// to abort the process.
TEST_F(BincountOpTest, DenseOutputTooLargeForInt64IsInvalidArgument) {
  InitDense(DT_INT32, /*binary=*/false);
  AddInputFromArray<int32_t>(TensorShape({int64_t{1} << 40, 0}), {});
  AddInputFromArray<int32_t>(TensorShape({}), {1 << 30});
  AddInputFromArray<int32_t>(TensorShape({0}), {});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_NE(std::string(status.message()).find("too large"), std::string::npos) << status;
}

TEST_F(BincountOpTest, LargeInputMatchesAPlainCount) {
  const int64_t n = 300000;
  const int32_t size = 1000;
  std::vector<int32_t> arr(n);
  for (int64_t i = 0; i < n; ++i) arr[i] = static_cast<int32_t>((i * 7919) % 1200);
  InitBincount(DT_INT64);
  AddInputFromArray<int32_t>(TensorShape({n}), arr);
  AddInputFromArray<int32_t>(TensorShape({}), {size});
  AddInputFromArray<int64_t>(TensorShape({0}), {});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int64_t> want(size, 0);
  for (int32_t v : arr) {
    if (v < size) ++want[v];
  }
  EXPECT_EQ(Values<int64_t>(*GetOutput(0)), want);
}

}  // namespace
}  // namespace test
}  // namespace sluice
