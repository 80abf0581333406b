// What the conformance fixture cannot show about Cast: the parallel path, forwarding of a
// cast to the same type, quantized types, and that out-of-range conversions do not depend
// on an element's position (TensorFlow's do; see cast_functions.h).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;

class CastOpTest : public KernelTest {
 protected:
  absl::Status Init(DataType src, DataType dst, bool truncate = false) {
    return InitOp(NodeDefBuilder("cast", "Cast")
                      .Input("x")
                      .Attr("SrcT", src)
                      .Attr("DstT", dst)
                      .Attr("Truncate", truncate)
                      .Build());
  }
};

TEST_F(CastOpTest, LargeTensorsRunInParallel) {
  constexpr int64_t n = 100003;
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i) * 0.75f - 1000.0f;
  ASSERT_TRUE(Init(DT_FLOAT, DT_INT32).ok());
  AddInputFromArray<float>(TensorShape({n}), x);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<int32_t> y = Values<int32_t>(*GetOutput(0));
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(y[i], static_cast<int32_t>(std::trunc(x[i]))) << "element " << i;
  }
}

TEST_F(CastOpTest, SameTypeForwardsTheInput) {
  ASSERT_TRUE(Init(DT_FLOAT, DT_FLOAT, /*truncate=*/true).ok());
  const Tensor x = MakeTensor<float>(TensorShape({2}), {1.5f, -2});
  AddInput(x);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(x));
}

TEST_F(CastOpTest, QuantizedTypesConvertAsTheirIntegers) {
  ASSERT_TRUE(Init(DT_FLOAT, DT_QINT8).ok());
  AddInputFromArray<float>(TensorShape({3}), {-3.7f, 100.2f, 0.5f});
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_EQ(GetOutput(0)->dtype(), DT_QINT8);
  const std::vector<qint8> q = Values<qint8>(*GetOutput(0));
  EXPECT_EQ(q[0].value, -3);
  EXPECT_EQ(q[1].value, 100);
  EXPECT_EQ(q[2].value, 0);

  ASSERT_TRUE(Init(DT_QUINT8, DT_INT32).ok());
  AddInputFromArray<quint8>(TensorShape({2}), {quint8(200), quint8(7)});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int32_t>(*GetOutput(0)), ElementsAre(200, 7));
}

TEST_F(CastOpTest, OutOfRangeDoesNotDependOnPosition) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int n : {1, 3, 17, 64}) {
    ASSERT_TRUE(Init(DT_FLOAT, DT_UINT8).ok());
    std::vector<float> x(n, 300.5f);
    x[n - 1] = nan;
    AddInputFromArray<float>(TensorShape({n}), x);
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<uint8_t> y = Values<uint8_t>(*GetOutput(0));
    for (int i = 0; i + 1 < n; ++i) EXPECT_EQ(y[i], 255) << "n " << n << " element " << i;
    EXPECT_EQ(y[n - 1], 0) << "n " << n;
  }
}

TEST_F(CastOpTest, UnsupportedPairsFailAtConstruction) {
  const absl::Status s = Init(DT_STRING, DT_FLOAT);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(s.message()),
              ::testing::HasSubstr("Cast string to float is not supported"));
}

}  // namespace
}  // namespace test
}  // namespace sluice
