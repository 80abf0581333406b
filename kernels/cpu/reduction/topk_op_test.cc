// TopKV2 beyond the fixtures: many rows split over the pool, and sorted=false returning the
// same (sorted) result.
#include <algorithm>
#include <cstdint>
#include <numeric>
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

}  // namespace
}  // namespace test
}  // namespace sluice
