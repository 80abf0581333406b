// What the conformance fixture (tests/kernels/fixtures/math.pbtxt) cannot show about the
// kernels of math_binary_ops.cc and the trigonometric kernels: tensors large enough for the
// parallel path keep TensorFlow's packets-and-tail split, the sign of zeros, and Mod's error
// where its output could take the divisor's buffer.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "numerics/float_environment.h"
#include "numerics/trig_float.h"

namespace sluice {
namespace test {
namespace {

// Above the parallel threshold, with a tail of 3 (of 8 floats, of 4 doubles).
constexpr int64_t kLarge = 100003;

uint32_t Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

class MathOpsTest : public KernelTest {
 protected:
  template <typename T>
  std::vector<T> Run(const std::string& op, const std::vector<T>& x, const std::vector<T>& y) {
    EXPECT_TRUE(InitOp(NodeDefBuilder("n", op)
                           .Input("x")
                           .Input("y")
                           .Attr("T", DataTypeToEnum<T>::value)
                           .Build())
                    .ok());
    AddInputFromArray<T>(TensorShape({static_cast<int64_t>(x.size())}), x);
    AddInputFromArray<T>(TensorShape({static_cast<int64_t>(y.size())}), y);
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << s;
    return s.ok() ? Values<T>(*GetOutput(0)) : std::vector<T>();
  }

  template <typename T>
  std::vector<T> RunUnary(const std::string& op, const std::vector<T>& x) {
    EXPECT_TRUE(
        InitOp(NodeDefBuilder("n", op).Input("x").Attr("T", DataTypeToEnum<T>::value).Build())
            .ok());
    AddInputFromArray<T>(TensorShape({static_cast<int64_t>(x.size())}), x);
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << s;
    return s.ok() ? Values<T>(*GetOutput(0)) : std::vector<T>();
  }
};

std::vector<float> Ramp(int64_t n, float from, float step) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = from + step * static_cast<float>(i % 9973);
  return v;
}

TEST_F(MathOpsTest, LargeAtan2KeepsTheTailOfTheWholeTensor) {
  const std::vector<float> y = Ramp(kLarge, -3.0f, 6.0f / 9973);
  const std::vector<float> x = Ramp(kLarge, 2.5f, -5.0f / 9973);
  const std::vector<float> z = Run<float>("Atan2", y, x);
  ASSERT_EQ(z.size(), static_cast<size_t>(kLarge));
  numerics::ScopedFlushDenormals kernel_mode;
  for (int64_t i = 0; i < kLarge; ++i) {
    const float want =
        i < kLarge - 3 ? numerics::Atan2FloatPacketForm(y[i], x[i]) : std::atan2(y[i], x[i]);
    ASSERT_EQ(Bits(z[i]), Bits(want)) << "element " << i;
  }
}

TEST_F(MathOpsTest, LargeTrigOpsAreTheWholeTensorsForm) {
  const std::vector<float> x = Ramp(kLarge, -1.1f, 2.2f / 9973);
  std::vector<float> want(kLarge);
  {
    numerics::ScopedFlushDenormals kernel_mode;
    numerics::AsinFloat(x.data(), want.data(), kLarge);
  }
  const std::vector<float> got = RunUnary<float>("Asin", x);
  ASSERT_EQ(got.size(), want.size());
  for (int64_t i = 0; i < kLarge; ++i) {
    if (std::isnan(want[i])) {
      ASSERT_TRUE(std::isnan(got[i])) << i;
    } else {
      ASSERT_EQ(Bits(got[i]), Bits(want[i])) << "element " << i;
    }
  }
}

// A zero x gives x itself in TensorFlow's vector form (-0 stays -0) and +0 in its tail.
TEST_F(MathOpsTest, XlogyZeroSigns) {
  std::vector<float> x(9, -0.0f);
  std::vector<float> y(9, 2.0f);
  const std::vector<float> z = Run<float>("Xlogy", x, y);
  ASSERT_EQ(z.size(), 9u);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(std::signbit(z[i])) << i;
  EXPECT_FALSE(std::signbit(z[8]));
  const std::vector<float> d = Run<float>("Xdivy", x, y);
  ASSERT_EQ(d.size(), 9u);
  EXPECT_TRUE(std::signbit(d[0]));
  EXPECT_FALSE(std::signbit(d[8]));
}

TEST_F(MathOpsTest, ModByZeroIsInvalidArgument) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("n", "Mod").Input("x").Input("y").Attr("T", DT_INT32).Build()).ok());
  AddInputFromArray<int32_t>(TensorShape({3}), {7, 8, 9});
  AddInputFromArray<int32_t>(TensorShape({3}), {1, 0, 2});
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), ::testing::HasSubstr("Integer division by zero"));
}

TEST_F(MathOpsTest, ShiftsClampTheAmount) {
  EXPECT_THAT(Run<int8_t>("LeftShift", {1, 1, 1, -1}, {-1, 7, 100, 3}),
              ::testing::ElementsAre(1, -128, -128, -8));
  EXPECT_THAT(Run<int8_t>("RightShift", {-128, -128, 64, 64}, {-5, 9, 3, 7}),
              ::testing::ElementsAre(-128, -1, 8, 0));
  EXPECT_THAT(Run<uint64_t>("LeftShift", {3, 3}, {63, 64}),
              ::testing::ElementsAre(uint64_t{1} << 63, uint64_t{1} << 63));
}

}  // namespace
}  // namespace test
}  // namespace sluice
