// What the conformance fixture (tests/kernels/fixtures/unary.pbtxt) cannot show about the
// unary kernels: buffer forwarding, tensors large enough for the parallel path, and the
// places where Sluice deliberately differs from TensorFlow 2.21 (Round of integers, double
// erf of infinities, log of subnormals), and exact results checked to the bit over many
// inputs (Sqrt, half and bfloat16 Rsqrt and Reciprocal, float Rsqrt and Reciprocal).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "numerics/float_environment.h"
#include "numerics/reciprocal.h"
#include "numerics/rsqrt.h"
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

// Kernels read a subnormal as zero, as TensorFlow's do (numerics/float_environment.h), wherever
// it falls: inside a vectorised loop (x[17]) or in the elements left over after one (x[39]),
// where Eigen's scalar log would look at the bits (-103.28 for the smallest float).
TEST_F(UnaryOpsTest, LogOfASubnormalIsLogOfZero) {
  const float tiny = std::numeric_limits<float>::denorm_min();
  std::vector<float> x(40, 2.0f);
  x[17] = tiny;
  x[39] = -tiny;
  const std::vector<float> y = Run<float>("Log", x);
  ASSERT_EQ(y.size(), x.size());
  EXPECT_EQ(y[17], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(y[39], -std::numeric_limits<float>::infinity());  // log(-0)
  EXPECT_FLOAT_EQ(y[0], std::log(2.0f));
  const std::vector<double> yd = Run<double>("Log", {5e-324, 1.0});
  EXPECT_EQ(yd[0], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(yd[1], 0.0);
}

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Each value repeated to 64 elements, so that every one goes through a vectorised loop (Eigen
// 3.4's fast float sqrt got +inf wrong there only), and to the end of the tensor.
template <typename T>
std::vector<T> Repeated(const std::vector<T>& x) {
  std::vector<T> out;
  while (out.size() < 64) out.insert(out.end(), x.begin(), x.end());
  return out;
}

// TensorFlow 2.21's results (tf.sqrt, their bits): correctly rounded, IEEE's special cases.
// Negative numbers give NaN; TensorFlow also gives -0 for negative subnormals, which its
// threads flush to zero (Sluice gives NaN: it flushes nothing).
TEST_F(UnaryOpsTest, FloatSqrtIsTensorFlows) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {inf,    -inf,          -0.0f,           0.0f,       -1.0f,
                                -3e38f, 88.0f,         6e-8f,           13.942385f, 65504.0f,
                                3e38f,  3.4028235e38f, 1.17549435e-38f, 2.0f};
  const std::vector<float> want = {inf,
                                   NAN,
                                   -0.0f,
                                   0.0f,
                                   NAN,
                                   NAN,
                                   0x1.2c2fc6p+3f,
                                   0x1.00d8fep-12f,
                                   0x1.ddf216p+1f,
                                   0x1.ffdffep+7f,
                                   0x1.e0bd9cp+63f,
                                   0x1.fffffep+63f,
                                   0x1p-63f,
                                   0x1.6a09e6p+0f};
  const std::vector<float> y = Run<float>("Sqrt", Repeated(x));
  ASSERT_EQ(y.size(), Repeated(x).size());
  for (size_t i = 0; i < y.size(); ++i) {
    const float w = want[i % x.size()];
    if (std::isnan(w)) {
      EXPECT_TRUE(std::isnan(y[i])) << "sqrt(" << x[i % x.size()] << ") = " << y[i];
    } else {
      EXPECT_TRUE(SameBits(y[i], w)) << "sqrt(" << x[i % x.size()] << ") = " << y[i];
    }
  }
  // A negative subnormal reads as -0 (TensorFlow's too), whose root is -0, not NaN.
  const float root = Run<float>("Sqrt", {-1e-40f, 1.0f, 1.0f, 1.0f})[0];
  EXPECT_EQ(root, 0.0f);
  EXPECT_TRUE(std::signbit(root));
}

// Large enough for the parallel path; every result the correctly rounded root, which the
// double root rounded to float is (53 >= 2 * 24 + 2 bits).
TEST_F(UnaryOpsTest, LargeFloatSqrtIsCorrectlyRounded) {
  std::vector<float> x(kLarge);
  for (int64_t i = 0; i < kLarge; ++i) {
    const uint32_t bits = 0x00800000u + static_cast<uint32_t>(i) * 20929u;
    std::memcpy(&x[i], &bits, sizeof(float));
  }
  const std::vector<float> y = Run<float>("Sqrt", x);
  ASSERT_EQ(y.size(), x.size());
  for (int64_t i = 0; i < kLarge; ++i) {
    ASSERT_EQ(y[i], static_cast<float>(std::sqrt(static_cast<double>(x[i])))) << x[i];
  }
}

TEST_F(UnaryOpsTest, DoubleSqrtIsTensorFlows) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> x = {inf,
                                 -inf,
                                 -0.0,
                                 0.0,
                                 -1.0,
                                 -1e308,
                                 88.0,
                                 6e-8,
                                 65504.0,
                                 3e38,
                                 1.7976931348623157e308,
                                 2.2250738585072014e-308,
                                 2.0,
                                 1e300};
  const std::vector<double> want = {inf,
                                    NAN,
                                    -0.0,
                                    0.0,
                                    NAN,
                                    NAN,
                                    0x1.2c2fc595456a7p+3,
                                    0x1.00d8fd56e49e0p-12,
                                    0x1.ffdffeffeffecp+7,
                                    0x1.e0bd9ca7596d9p+63,
                                    0x1.fffffffffffffp+511,
                                    0x1p-511,
                                    0x1.6a09e667f3bcdp+0,
                                    0x1.38d352e5096afp+498};
  const std::vector<double> y = Run<double>("Sqrt", Repeated(x));
  ASSERT_EQ(y.size(), Repeated(x).size());
  for (size_t i = 0; i < y.size(); ++i) {
    const double w = want[i % x.size()];
    if (std::isnan(w)) {
      EXPECT_TRUE(std::isnan(y[i])) << "sqrt(" << x[i % x.size()] << ") = " << y[i];
    } else {
      EXPECT_TRUE(SameBits(y[i], w)) << "sqrt(" << x[i % x.size()] << ") = " << y[i];
    }
  }
}

// Every half, and every bfloat16 but the subnormals (which TensorFlow flushes to zero):
// TensorFlow 2.21's Sqrt is the float root rounded to the type, and its Rsqrt 1 / sqrt(x) in
// float rounded to the type (compared with tf.sqrt and tf.math.rsqrt on all 65536 values).
template <typename T>
std::vector<T> EveryValue(bool keep_subnormals) {
  std::vector<T> x;
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t bits = static_cast<uint16_t>(b);
    T v;
    std::memcpy(&v, &bits, sizeof(v));
    const float f = static_cast<float>(v);
    if (!keep_subnormals && f != 0.0f && std::fabs(f) < std::numeric_limits<float>::min()) {
      continue;
    }
    x.push_back(v);
  }
  return x;
}

template <typename T>
void ExpectSameOrBothNan(const std::vector<T>& x, const std::vector<T>& y, T (*want)(float),
                         const char* what) {
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const T w = want(static_cast<float>(x[i]));
    if (std::isnan(static_cast<float>(w))) {
      ASSERT_TRUE(std::isnan(static_cast<float>(y[i]))) << what << "(" << x[i] << ")";
    } else {
      ASSERT_TRUE(SameBits(y[i], w)) << what << "(" << x[i] << ") = " << y[i] << ", want " << w;
    }
  }
}

TEST_F(UnaryOpsTest, HalfSqrtAndRsqrtAreTensorFlowsForEveryValue) {
  const std::vector<half> x = EveryValue<half>(/*keep_subnormals=*/true);
  ExpectSameOrBothNan<half>(
      x, Run<half>("Sqrt", x), [](float v) { return half(std::sqrt(v)); }, "sqrt");
  ExpectSameOrBothNan<half>(
      x, Run<half>("Rsqrt", x), [](float v) { return half(1.0f / std::sqrt(v)); }, "rsqrt");
  // A few of TensorFlow's own, to the bit: inf, -0, 65504, 88, 0.1.
  const std::vector<half> y =
      Run<half>("Sqrt", {half(INFINITY), half(-0.0f), half(65504.0f), half(88.0f), half(0.1f)});
  const std::vector<uint16_t> want = {0x7c00, 0x8000, 0x5bff, 0x48b1, 0x350f};
  for (size_t i = 0; i < want.size(); ++i) {
    uint16_t bits;
    std::memcpy(&bits, &y[i], sizeof(bits));
    EXPECT_EQ(bits, want[i]) << i;
  }
}

TEST_F(UnaryOpsTest, Bfloat16SqrtAndRsqrtAreTensorFlowsForEveryValue) {
  const std::vector<bfloat16> x = EveryValue<bfloat16>(/*keep_subnormals=*/false);
  ExpectSameOrBothNan<bfloat16>(
      x, Run<bfloat16>("Sqrt", x), [](float v) { return bfloat16(std::sqrt(v)); }, "sqrt");
  ExpectSameOrBothNan<bfloat16>(
      x, Run<bfloat16>("Rsqrt", x), [](float v) { return bfloat16(1.0f / std::sqrt(v)); }, "rsqrt");
  // TensorFlow's own, to the bit: inf, -0, 3e38, 88, 0.1, 1e-30.
  const std::vector<bfloat16> y =
      Run<bfloat16>("Sqrt", {bfloat16(INFINITY), bfloat16(-0.0f), bfloat16(3e38f), bfloat16(88.0f),
                             bfloat16(0.1f), bfloat16(1e-30f)});
  const std::vector<uint16_t> want = {0x7f80, 0x8000, 0x5f71, 0x4116, 0x3ea2, 0x2690};
  for (size_t i = 0; i < want.size(); ++i) {
    uint16_t bits;
    std::memcpy(&bits, &y[i], sizeof(bits));
    EXPECT_EQ(bits, want[i]) << i;
  }
}

// Reciprocal and Inv of every half, and every bfloat16 but the subnormals: the float quotient
// rounded to the type, which is TensorFlow 2.21's (compared with tf.math.reciprocal on all
// 65536 values). In the kernels' mode: a subnormal quotient (of a bfloat16 above 2^126) is
// zero, as TensorFlow's is.
TEST_F(UnaryOpsTest, HalfAndBfloat16ReciprocalAreTensorFlowsForEveryValue) {
  numerics::ScopedFlushDenormals kernel_mode;
  const std::vector<half> h = EveryValue<half>(/*keep_subnormals=*/true);
  const std::vector<bfloat16> b = EveryValue<bfloat16>(/*keep_subnormals=*/false);
  for (const char* op : {"Reciprocal", "Inv"}) {
    ExpectSameOrBothNan<half>(
        h, Run<half>(op, h), [](float v) { return half(1.0f / v); }, op);
    ExpectSameOrBothNan<bfloat16>(
        b, Run<bfloat16>(op, b), [](float v) { return bfloat16(1.0f / v); }, op);
  }
}

// Float Reciprocal (and Inv) and Rsqrt are numerics/' functions of the whole tensor, however
// the pool splits it: the processor's estimate and a Newton step in packets of 8, the scalar
// form for the tensor's last total % 8 (kLarge % 8 = 3). That is TensorFlow 2.21's, which
// tests/kernels/unary_sweep.py compares over every float.
TEST_F(UnaryOpsTest, FloatReciprocalAndRsqrtAreTensorFlowsFormsOverTheWholeTensor) {
  std::vector<float> x(kLarge);
  for (int64_t i = 0; i < kLarge; ++i) {
    x[i] = (0.013f + 0.0071f * static_cast<float>(i)) * (i % 3 == 0 ? -1.0f : 1.0f);
  }
  std::vector<float> positive(kLarge);
  std::transform(x.begin(), x.end(), positive.begin(), [](float v) { return std::fabs(v); });
  std::vector<float> reciprocal(kLarge), rsqrt(kLarge);
  {
    numerics::ScopedFlushDenormals kernel_mode;
    numerics::ReciprocalFloat(x.data(), reciprocal.data(), kLarge);
    numerics::RsqrtFloat(positive.data(), rsqrt.data(), kLarge);
  }
  int differ_from_division = 0;
  for (const char* op : {"Reciprocal", "Inv"}) {
    const std::vector<float> y = Run<float>(op, x);
    ASSERT_EQ(y.size(), x.size());
    for (int64_t i = 0; i < kLarge; ++i) {
      ASSERT_TRUE(SameBits(y[i], reciprocal[i])) << op << "(" << x[i] << ") at " << i;
      differ_from_division += !SameBits(y[i], 1.0f / x[i]);
    }
  }
  // The tail is the division itself.
  const std::vector<float> tail = Run<float>("Reciprocal", x);
  for (int64_t i = kLarge - 3; i < kLarge; ++i) EXPECT_TRUE(SameBits(tail[i], 1.0f / x[i])) << i;
#if defined(__SSE__)
  EXPECT_GT(differ_from_division, 0);  // the estimate's form is not the division
#endif
  const std::vector<float> y = Run<float>("Rsqrt", positive);
  ASSERT_EQ(y.size(), positive.size());
  for (int64_t i = 0; i < kLarge; ++i) {
    ASSERT_TRUE(SameBits(y[i], rsqrt[i])) << "Rsqrt(" << positive[i] << ") at " << i;
  }
}

// half Sigmoid is TensorFlow's (tf.math.sigmoid on these 9 halves, the last in the tail):
// exp in float, rounded to half, then e / (1 + e) in half arithmetic. Eigen 3.4's gives
// 0x3800 for the first.
TEST_F(UnaryOpsTest, HalfSigmoidIsTensorFlows) {
  const std::vector<uint16_t> in = {0x1002, 0x3c00, 0xc500, 0x4a00, 0x5000,
                                    0xb800, 0x2e66, 0x3555, 0x1003};
  const std::vector<uint16_t> want = {0x3801, 0x39d9, 0x1eda, 0x3c00, 0x3c00,
                                      0x360a, 0x3833, 0x38aa, 0x3801};
  std::vector<half> x(in.size());
  std::memcpy(x.data(), in.data(), in.size() * sizeof(uint16_t));
  const std::vector<half> y = Run<half>("Sigmoid", x);
  ASSERT_EQ(y.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    uint16_t bits;
    std::memcpy(&bits, &y[i], sizeof(bits));
    EXPECT_EQ(bits, want[i]) << "sigmoid(half bits 0x" << std::hex << in[i] << ")";
  }
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
