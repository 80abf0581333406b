// What the conformance fixture (tests/kernels/fixtures/unary.pbtxt) cannot show about the
// unary kernels: buffer forwarding, tensors large enough for the parallel path, and the
// places where Sluice deliberately differs from TensorFlow 2.21 (Round of integers, double
// erf of infinities, log of subnormals).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;

// Above kMinParallelElements, so ParallelFor splits the loop over the harness's two threads.
constexpr int64_t kLarge = 100003;

class UnaryOpsTest : public KernelTest {
 protected:
  void Init(const std::string& op, DataType dtype) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", op).Input("x").Attr("T", dtype).Build()).ok());
  }

  template <typename T>
  std::vector<T> Run(const std::string& op, const std::vector<T>& x) {
    Init(op, DataTypeToEnum<T>::value);
    AddInputFromArray<T>(TensorShape({static_cast<int64_t>(x.size())}), x);
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << s;
    return s.ok() ? Values<T>(*GetOutput(0)) : std::vector<T>();
  }
};

TEST_F(UnaryOpsTest, ForwardsAnUnsharedInputBuffer) {
  Init("Exp", DT_FLOAT);
  Tensor x = MakeTensor<float>(TensorShape({3}), {0, 1, 2});
  const void* buffer = x.raw_data();
  TestInvocation run(kernel(), device(), {std::move(x)});
  ASSERT_TRUE(run.Compute().ok());
  Tensor* y = run.context()->mutable_output(0);
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(y->raw_data(), buffer);
  EXPECT_THAT(Values<float>(*y), ElementsAre(1.0f, std::exp(1.0f), std::exp(2.0f)));
}

TEST_F(UnaryOpsTest, DoesNotOverwriteASharedInput) {
  Init("Neg", DT_INT32);
  const Tensor x = MakeTensor<int32_t>(TensorShape({2}), {5, -6});
  AddInput(x);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(x));
  EXPECT_THAT(Values<int32_t>(x), ElementsAre(5, -6));
  EXPECT_THAT(Values<int32_t>(*GetOutput(0)), ElementsAre(-5, 6));
}

TEST_F(UnaryOpsTest, LargeTensorsRunInParallel) {
  std::vector<float> x(kLarge);
  for (int64_t i = 0; i < kLarge; ++i) x[i] = static_cast<float>(i % 1000) / 100.0f - 5.0f;
  const std::vector<float> y = Run<float>("Tanh", x);
  ASSERT_EQ(y.size(), x.size());
  for (int64_t i = 0; i < kLarge; ++i) {
    ASSERT_NEAR(y[i], std::tanh(x[i]), 2e-6f) << "element " << i;
  }
}

TEST_F(UnaryOpsTest, LargeIntegerTensorsRunInParallel) {
  std::vector<int64_t> x(kLarge);
  for (int64_t i = 0; i < kLarge; ++i) x[i] = i - kLarge / 2;
  const std::vector<int64_t> y = Run<int64_t>("Relu6", x);
  ASSERT_EQ(y.size(), x.size());
  for (int64_t i = 0; i < kLarge; ++i) {
    ASSERT_EQ(y[i], std::min<int64_t>(std::max<int64_t>(x[i], 0), 6)) << "element " << i;
  }
}

TEST_F(UnaryOpsTest, IntegerNegAbsSquareWrapAround) {
  const int32_t min = std::numeric_limits<int32_t>::min();
  EXPECT_THAT(Run<int32_t>("Neg", {min, 1}), ElementsAre(min, -1));
  EXPECT_THAT(Run<int32_t>("Abs", {min, -3}), ElementsAre(min, 3));
  EXPECT_THAT(Run<int32_t>("Square", {65536, -3}), ElementsAre(0, 9));
  EXPECT_THAT(Run<int8_t>("Square", {16, -12}), ElementsAre(0, int8_t{-112}));
}

// TensorFlow 2.21 returns zeros here (a bug); rounding an integer leaves it unchanged.
TEST_F(UnaryOpsTest, RoundOfIntegersIsTheIdentity) {
  EXPECT_THAT(Run<int32_t>("Round", {-7, 0, 2147483647}), ElementsAre(-7, 0, 2147483647));
  EXPECT_THAT(Run<int64_t>("Round", {int64_t{1} << 40, -3}), ElementsAre(int64_t{1} << 40, -3));
}

// TensorFlow 2.21 gives NaN for these in double (a bug of its Eigen).
TEST_F(UnaryOpsTest, DoubleErfOfHugeValuesIsOne) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THAT(Run<double>("Erf", {inf, -inf, 1e300}), ElementsAre(1.0, -1.0, 1.0));
}

// Keras 3's exact GELU is 0.5 * x * erfc(-x / sqrt(2)): erfc must be accurate over the whole
// range, including the tail where erf(x) rounds to 1 and 1 - erf(x) would lose every digit.
TEST_F(UnaryOpsTest, ErfcIsAccurateOverTheWholeRange) {
  std::vector<float> x;
  for (int i = -12000; i <= 12000; ++i) x.push_back(static_cast<float>(i) / 1000.0f);
  const std::vector<float> y = Run<float>("Erfc", x);
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = std::erfc(static_cast<double>(x[i]));
    if (want < std::numeric_limits<float>::min()) {
      ASSERT_LE(y[i], std::numeric_limits<float>::min()) << "erfc(" << x[i] << ")";
      continue;
    }
    ASSERT_NEAR(y[i] / want, 1.0, 1e-6) << "erfc(" << x[i] << ")";
  }
  // Far in the tail erfc is tiny but not zero; erf-based 1 - erf(x) would give 0 here.
  EXPECT_GT(Run<float>("Erfc", {5.0f})[0], 1.5e-12f);
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> yd = Run<double>("Erfc", {-inf, -1.0, 0.0, 0.5, 3.0, 20.0, inf});
  ASSERT_EQ(yd.size(), 7u);
  EXPECT_EQ(yd[0], 2.0);
  EXPECT_DOUBLE_EQ(yd[1], std::erfc(-1.0));
  EXPECT_EQ(yd[2], 1.0);
  EXPECT_DOUBLE_EQ(yd[3], std::erfc(0.5));
  EXPECT_DOUBLE_EQ(yd[4], std::erfc(3.0));
  EXPECT_NEAR(yd[5] / 5.3958656116079e-176, 1.0, 1e-12);
  EXPECT_EQ(yd[6], 0.0);
  EXPECT_TRUE(std::isnan(Run<float>("Erfc", {std::nanf("")})[0]));
  EXPECT_THAT(Run<half>("Erfc", {half(0.0f), half(-8.0f)}), ElementsAre(half(1.0f), half(2.0f)));
}

TEST_F(UnaryOpsTest, LargeErfcTensorsRunInParallel) {
  std::vector<double> x(kLarge);
  for (int64_t i = 0; i < kLarge; ++i) x[i] = static_cast<double>(i % 2000) / 100.0 - 10.0;
  const std::vector<double> y = Run<double>("Erfc", x);
  ASSERT_EQ(y.size(), x.size());
  for (int64_t i = 0; i < kLarge; ++i) ASSERT_EQ(y[i], std::erfc(x[i])) << "element " << i;
}

TEST_F(UnaryOpsTest, LogOfSubnormalsIsExact) {
  const float tiny = std::numeric_limits<float>::denorm_min();
  std::vector<float> x(40, 2.0f);
  x[17] = tiny;
  const std::vector<float> y = Run<float>("Log", x);
  ASSERT_EQ(y.size(), x.size());
  EXPECT_FLOAT_EQ(y[17], std::log(tiny));
  EXPECT_FLOAT_EQ(y[0], std::log(2.0f));
  EXPECT_FLOAT_EQ(y[39], std::log(2.0f));
  const std::vector<double> yd = Run<double>("Log", {5e-324, 1.0});
  EXPECT_DOUBLE_EQ(yd[0], std::log(5e-324));
}

TEST_F(UnaryOpsTest, LeakyReluReadsAlpha) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "LeakyRelu")
                         .Input("x")
                         .Attr("T", DT_FLOAT)
                         .Attr("alpha", 0.5f)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({3}), {-4, 0, 3});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(-2, 0, 3));
}

TEST_F(UnaryOpsTest, IsFiniteOfHalf) {
  Init("IsFinite", DT_HALF);
  AddInputFromArray<half>(TensorShape({3}), {half(1.0f), half(INFINITY), half(NAN)});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<bool>(*GetOutput(0)), ElementsAre(true, false, false));
}

}  // namespace
}  // namespace test
}  // namespace sluice
