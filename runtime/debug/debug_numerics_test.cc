// The debug ops' values against those TensorFlow 2.21 dumped for the same tensors (a
// tf.compat.v1 Session watching a Const with DebugNumericSummary / DebugNanCount, read back
// with event_pb2), compared exactly.
#include "runtime/debug/debug_numerics.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename T>
Tensor Make(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& values) {
  Tensor t(dtype, TensorShape(dims));
  for (size_t i = 0; i < values.size(); ++i) t.flat<T>()(i) = values[i];
  return t;
}

std::vector<double> Values(const Tensor& summary) {
  EXPECT_EQ(summary.dtype(), DT_DOUBLE);
  EXPECT_EQ(summary.dims(), 1);
  std::vector<double> out;
  for (int64_t i = 0; i < summary.NumElements(); ++i) out.push_back(summary.flat<double>()(i));
  return out;
}

// Element-wise equality where NaN equals NaN and 0.0 is not -0.0.
void ExpectSame(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "entry " << i << ": " << got[i];
    } else {
      EXPECT_EQ(got[i], want[i]) << "entry " << i;
      EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << "entry " << i;
    }
  }
}

TEST(DebugNumericSummaryTest, Int32) {
  ExpectSame(Values(DebugNumericSummary(Make<int32_t>(DT_INT32, {3}, {1, -2, 0}))),
             {1, 3, 0, 0, 1, 1, 1, 0, -2, 1, -0.3333333333333333, 1.5555555555555554, 3, 1, 3});
}

TEST(DebugNumericSummaryTest, FloatScalar) {
  ExpectSame(Values(DebugNumericSummary(Make<float>(DT_FLOAT, {}, {5}))),
             {1, 1, 0, 0, 0, 0, 1, 0, 5, 5, 5, 0, 1, 0});
}

TEST(DebugNumericSummaryTest, Bool) {
  ExpectSame(Values(DebugNumericSummary(Make<bool>(DT_BOOL, {3}, {true, false, true}))),
             {1, 3, 0, 0, 0, 1, 2, 0, 0, 1, 0.6666666666666666, 0.22222222222222224, 10, 1, 3});
}

TEST(DebugNumericSummaryTest, FloatsRoundedAsTensorFlowRoundsThem) {
  ExpectSame(Values(DebugNumericSummary(
                 Make<float>(DT_FLOAT, {2, 3}, {0.1f, 0.2f, 0.3f, 1.0f / 3, 2.0f / 3, 1e-7f}))),
             {1, 6, 0, 0, 0, 0, 6, 0, 1.0000000116860974e-07, 0.6666666865348816,
              0.2666666910322668, 0.044814808779223426, 1, 2, 2, 3});
  ExpectSame(Values(DebugNumericSummary(Make<float>(DT_FLOAT, {3}, {3, -1, 1}))),
             {1, 3, 0, 0, 1, 0, 2, 0, -1, 3, 1, 2.6666666666666665, 1, 1, 3});
}

TEST(DebugNumericSummaryTest, NonFiniteElementsAreCountedNotSummed) {
  ExpectSame(Values(DebugNumericSummary(Make<float>(DT_FLOAT, {3}, {0, std::nanf(""), -INFINITY}))),
             {1, 3, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 3});
  // min stays 0.0 when -0.0 follows it.
  ExpectSame(Values(DebugNumericSummary(
                 Make<float>(DT_FLOAT, {5}, {INFINITY, -INFINITY, std::nanf(""), 0.0f, -0.0f}))),
             {1, 5, 1, 1, 0, 2, 0, 1, 0, 0, 0, 0, 1, 1, 5});
}

TEST(DebugNumericSummaryTest, NoFiniteElement) {
  ExpectSame(Values(DebugNumericSummary(Make<double>(DT_DOUBLE, {2}, {kNaN, kInf}))),
             {1, 2, 1, 0, 0, 0, 0, 1, kInf, -kInf, kNaN, kNaN, 2, 1, 2});
  ExpectSame(Values(DebugNumericSummary(Tensor(DT_FLOAT, TensorShape({0, 3})))),
             {1, 0, 0, 0, 0, 0, 0, 0, kInf, -kInf, kNaN, kNaN, 1, 2, 0, 3});
}

TEST(DebugNumericSummaryTest, SumsInElementOrder) {
  // The running sum overflows and comes back: TensorFlow's order, not a compensated one.
  ExpectSame(Values(DebugNumericSummary(Make<double>(DT_DOUBLE, {3}, {1e308, -1e308, 1e308}))),
             {1, 3, 0, 0, 1, 0, 2, 0, -1e308, 1e308, 3.333333333333333e+307, kInf, 2, 1, 3});
  ExpectSame(Values(DebugNumericSummary(Make<int64_t>(DT_INT64, {3}, {INT64_MAX, INT64_MIN, 7}))),
             {1, 3, 0, 0, 1, 0, 2, 0, -9.223372036854776e+18, 9.223372036854776e+18,
              2.3333333333333335, 5.671372782015641e+37, 9, 1, 3});
  ExpectSame(Values(DebugNumericSummary(Make<uint64_t>(DT_UINT64, {3}, {UINT64_MAX, 0, 5}))),
             {1, 3, 0, 0, 0, 1, 2, 0, 0, 1.8446744073709552e+19, 6.148914691236517e+18,
              7.561830376020855e+37, 23, 1, 3});
}

TEST(DebugNumericSummaryTest, ShapeAndDtype) {
  std::vector<double> values;
  for (int i = 0; i < 24; ++i) values.push_back(i - 11.5);
  ExpectSame(Values(DebugNumericSummary(Make<double>(DT_DOUBLE, {2, 3, 4}, values))),
             {1, 24, 0, 0, 12, 0, 12, 0, -11.5, 11.5, 0, 47.916666666666664, 2, 3, 2, 3, 4});
  ExpectSame(Values(DebugNumericSummary(Make<int8_t>(DT_INT8, {}, {-7}))),
             {1, 1, 0, 0, 1, 0, 0, 0, -7, -7, -7, 0, 6, 0});
  // The dtype entry is the DataType enum: uint8 4, int16 5, uint16 17, uint32 22.
  EXPECT_EQ(Values(DebugNumericSummary(Make<uint8_t>(DT_UINT8, {1}, {1})))[12], 4);
  EXPECT_EQ(Values(DebugNumericSummary(Make<int16_t>(DT_INT16, {1}, {1})))[12], 5);
  EXPECT_EQ(Values(DebugNumericSummary(Make<uint16_t>(DT_UINT16, {1}, {1})))[12], 17);
  EXPECT_EQ(Values(DebugNumericSummary(Make<uint32_t>(DT_UINT32, {1}, {1})))[12], 22);
}

TEST(DebugNumericSummaryTest, CustomBoundsCountAsInfinitiesButStillEnterTheMoments) {
  NumericSummaryBounds bounds;
  bounds.lower = -0.5f;
  bounds.upper = 0.1f;  // a float attribute: 0.100000001490116...
  ExpectSame(Values(DebugNumericSummary(
                 Make<float>(DT_FLOAT, {8}, {-1, -0.5f, -0.2f, 0, 0.2f, 0.5f, 1, 0.1f}), bounds)),
             {1, 8, 0, 2, 1, 1, 0, 4, -1, 1, 0.012500000186264515, 0.3235937503306195, 1, 1, 8});
}

TEST(DebugNumericSummaryTest, HealthMeansNoNaNAndNoInfinity) {
  EXPECT_TRUE(IsHealthySummary(DebugNumericSummary(Make<float>(DT_FLOAT, {2}, {1, -1}))));
  EXPECT_FALSE(IsHealthySummary(DebugNumericSummary(Make<float>(DT_FLOAT, {1}, {INFINITY}))));
  EXPECT_FALSE(IsHealthySummary(DebugNumericSummary(Make<float>(DT_FLOAT, {1}, {std::nanf("")}))));
  NumericSummaryBounds bounds;
  bounds.upper = 0.5;
  EXPECT_FALSE(IsHealthySummary(DebugNumericSummary(Make<float>(DT_FLOAT, {1}, {1}), bounds)));
}

TEST(DebugNanCountTest, CountsNaNsInAnInt64OfShapeOne) {
  const Tensor count = DebugNanCount(
      Make<half>(DT_HALF, {3}, {half(std::nanf("")), half(1.0f), half(std::nanf(""))}));
  EXPECT_EQ(count.dtype(), DT_INT64);
  EXPECT_EQ(count.shape(), TensorShape({1}));
  EXPECT_EQ(count.flat<int64_t>()(0), 2);
  EXPECT_EQ(DebugNanCount(Make<int32_t>(DT_INT32, {2}, {1, 0})).flat<int64_t>()(0), 0);
  EXPECT_EQ(DebugNanCount(Tensor(DT_FLOAT, TensorShape({0}))).flat<int64_t>()(0), 0);
}

TEST(DebugNumericsTest, DtypesWithKernelsAreTensorFlows) {
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8,
                         DT_UINT16, DT_UINT32, DT_UINT64}) {
    EXPECT_TRUE(HasNumericSummary(dtype)) << DataTypeString(dtype);
    EXPECT_TRUE(HasNanCount(dtype)) << DataTypeString(dtype);
  }
  EXPECT_TRUE(HasNumericSummary(DT_BOOL));
  EXPECT_FALSE(HasNanCount(DT_BOOL));
  for (DataType dtype : {DT_HALF, DT_BFLOAT16}) {
    EXPECT_FALSE(HasNumericSummary(dtype)) << DataTypeString(dtype);
    EXPECT_TRUE(HasNanCount(dtype)) << DataTypeString(dtype);
  }
  for (DataType dtype : {DT_STRING, DT_COMPLEX64, DT_COMPLEX128, DT_RESOURCE, DT_VARIANT}) {
    EXPECT_FALSE(HasNumericSummary(dtype)) << DataTypeString(dtype);
    EXPECT_FALSE(HasNanCount(dtype)) << DataTypeString(dtype);
  }
}

}  // namespace
}  // namespace sluice
