// What the conformance fixtures cannot show: the identity reduction shares the input's
// buffer, and the parallel and chunked paths agree with a plain loop on large shapes.
#include <cstdint>
#include <random>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class ReductionOpsTest : public KernelTest {
 protected:
  void Init(const std::string& op, DataType dtype, bool keep_dims = false) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", op)
                           .Input("x")
                           .Input("axes")
                           .Attr("T", dtype)
                           .Attr("Tidx", DT_INT32)
                           .Attr("keep_dims", keep_dims)
                           .Build())
                    .ok());
  }
};

std::vector<float> RandomFloats(int64_t n) {
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

TEST_F(ReductionOpsTest, IdentityForwardsTheInputBuffer) {
  Init("Sum", DT_FLOAT);
  const Tensor x = MakeTensor<float>(TensorShape({2, 1, 3}), {1, 2, 3, 4, 5, 6});
  AddInput(x);
  AddInputFromArray<int32_t>(TensorShape({1}), {1});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({2, 3}));
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(x));
}

// Sum over [rows, cols] along `axis` of a large matrix, against double-precision loops.
void CheckLargeSum(int64_t rows, int64_t cols, int axis, std::vector<float> x, const Tensor& got) {
  const int64_t n_out = axis == 0 ? cols : rows;
  ASSERT_EQ(got.NumElements(), n_out);
  const float* g = got.base<float>();
  for (int64_t o = 0; o < n_out; ++o) {
    double want = 0;
    const int64_t len = axis == 0 ? rows : cols;
    for (int64_t r = 0; r < len; ++r) want += axis == 0 ? x[r * cols + o] : x[o * cols + r];
    ASSERT_NEAR(g[o], want, 1e-3) << "output " << o;
  }
}

TEST_F(ReductionOpsTest, LargeShapesTakeEveryParallelPath) {
  const struct {
    int64_t rows, cols;
    int axis;
  } cases[] = {{512, 300, 1}, {512, 300, 0}, {200000, 1, 0}, {4, 50000, 1}, {60000, 3, 0}};
  for (const auto& c : cases) {
    Init("Sum", DT_FLOAT);
    const std::vector<float> x = RandomFloats(c.rows * c.cols);
    AddInputFromArray<float>(TensorShape({c.rows, c.cols}), x);
    AddInputFromArray<int32_t>(TensorShape({}), {c.axis});
    ASSERT_TRUE(RunOpKernel().ok());
    CheckLargeSum(c.rows, c.cols, c.axis, x, *GetOutput(0));
  }
}

TEST_F(ReductionOpsTest, LargeFullMaxAndMeanOfInts) {
  const int64_t n = 300000;
  std::vector<int32_t> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<int32_t>((i * 7919) % 100003);
  x[123457] = 1 << 30;
  Init("Max", DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({n}), x);
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), std::vector<int32_t>{1 << 30});

  Init("Mean", DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({n}), x);
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  int64_t sum = 0;
  for (int32_t v : x) sum += v;
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), std::vector<int32_t>{static_cast<int32_t>(sum / n)});
}

}  // namespace
}  // namespace test
}  // namespace sluice
