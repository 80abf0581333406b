// TopKV2 beyond the fixtures: many rows split over the pool, and sorted=false returning the
// same (sorted) result, whose set of entries is TensorFlow's. TopK, the first version (k an
// attr), which TensorFlow 2.21 no longer runs (no graph of its GraphDef version may hold it,
// and its CPU kernel asks for an attr the op lacks): checked against TopKV2, whose results the
// fixtures take from TensorFlow.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class TopKOpTest : public KernelTest {
 protected:
  void Init(bool sorted) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "TopKV2")
                           .Input("x")
                           .Input("k")
                           .Attr("T", DT_FLOAT)
                           .Attr("sorted", sorted)
                           .Build())
                    .ok());
  }
};

TEST_F(TopKOpTest, LargeRowsInParallelSortedOrNot) {
  const int64_t rows = 500;
  const int64_t cols = 100;
  const int64_t k = 7;
  std::vector<float> x(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = static_cast<float>((i * 7919) % 97);
  for (bool sorted : {true, false}) {
    Init(sorted);
    AddInputFromArray<float>(TensorShape({rows, cols}), x);
    AddInputFromArray<int32_t>(TensorShape({}), {static_cast<int32_t>(k)});
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<float> values = Values<float>(*GetOutput(0));
    const std::vector<int32_t> indices = Values<int32_t>(*GetOutput(1));
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<int32_t> order(cols);
      std::iota(order.begin(), order.end(), 0);
      const float* row = x.data() + r * cols;
      std::stable_sort(order.begin(), order.end(),
                       [row](int32_t a, int32_t b) { return row[a] > row[b]; });
      for (int64_t i = 0; i < k; ++i) {
        ASSERT_EQ(indices[r * k + i], order[i]) << "row " << r;
        ASSERT_EQ(values[r * k + i], row[order[i]]) << "row " << r;
      }
    }
  }
}

// TensorFlow 2.21: top_k([[1, 3, 3, 2, 3, 0, 3]], 2, sorted=False) gives values [3, 3] and
// indices [2, 1]: with ties the lowest indices win, in an unspecified order. Sluice returns
// the same entries, sorted.
TEST_F(TopKOpTest, UnsortedPicksTensorFlowsEntries) {
  Init(/*sorted=*/false);
  AddInputFromArray<float>(TensorShape({1, 7}), {1, 3, 3, 2, 3, 0, 3});
  AddInputFromArray<int32_t>(TensorShape({}), {2});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int32_t> indices = Values<int32_t>(*GetOutput(1));
  std::sort(indices.begin(), indices.end());
  EXPECT_EQ(indices, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{3, 3}));
}

TEST_F(TopKOpTest, FirstVersionTakesKFromItsAttr) {
  const std::vector<float> x = {1, 3, 3, 2, 3, 0, 3, -1, 7, 7, 5, 0, 2, 9};
  for (int k : {0, 2, 7}) {
    Init(/*sorted=*/true);
    AddInputFromArray<float>(TensorShape({2, 7}), x);
    AddInputFromArray<int32_t>(TensorShape({}), {k});
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<float> v2_values = Values<float>(*GetOutput(0));
    const std::vector<int32_t> v2_indices = Values<int32_t>(*GetOutput(1));

    ASSERT_TRUE(
        InitOp(NodeDefBuilder("v1", "TopK").Input("x").Attr("T", DT_FLOAT).Attr("k", k).Build())
            .ok());
    AddInputFromArray<float>(TensorShape({2, 7}), x);
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(GetOutput(0)->shape(), TensorShape({2, k}));
    EXPECT_EQ(Values<float>(*GetOutput(0)), v2_values) << "k = " << k;
    EXPECT_EQ(Values<int32_t>(*GetOutput(1)), v2_indices) << "k = " << k;
    if (k == 2) {
      EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{3, 3, 9, 7}));
      EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{1, 2, 6, 1}));
    }
  }
}

TEST_F(TopKOpTest, FirstVersionRejectsKBeyondTheRow) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("v1", "TopK").Input("x").Attr("T", DT_INT32).Attr("k", 4).Build())
          .ok());
  AddInputFromArray<int32_t>(TensorShape({3}), {1, 2, 3});
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("input must have at least k columns. Had 3, needed 4"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace test
}  // namespace sluice
