#include "tools/cli/tensor_statistics.h"

#include <cmath>
#include <limits>
#include <vector>

#include "graph/core/tensor.h"
#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

template <typename T>
Tensor Make(const std::vector<T>& values) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.base<T>()[i] = values[i];
  return t;
}

TEST(TensorStatisticsTest, FiniteValues) {
  const TensorStatistics s = ComputeTensorStatistics(Make<float>({1, 2, 3, 4, 0}));
  ASSERT_TRUE(s.has_values);
  EXPECT_EQ(s.elements, 5);
  EXPECT_EQ(s.finite, 5);
  EXPECT_EQ(s.zeros, 1);
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_DOUBLE_EQ(s.std, std::sqrt(2.0));  // population deviation of 0..4
  EXPECT_FALSE(s.HasNonFinite());
  EXPECT_EQ(s.DebugString(), "float [5] min 0 max 4 mean 2 std 1.41421");
}

TEST(TensorStatisticsTest, NonFiniteValuesAreCountedApart) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const TensorStatistics s = ComputeTensorStatistics(Make<float>({nan, inf, -inf, -inf, -2, 6}));
  EXPECT_EQ(s.nans, 1);
  EXPECT_EQ(s.positive_infinities, 1);
  EXPECT_EQ(s.negative_infinities, 2);
  EXPECT_EQ(s.finite, 2);
  EXPECT_EQ(s.min, -2);
  EXPECT_EQ(s.max, 6);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_TRUE(s.HasNonFinite());
  EXPECT_EQ(s.DebugString(), "float [6] min -2 max 6 mean 2 std 4 (1 NaN, 1 +Inf, 2 -Inf)");
}

TEST(TensorStatisticsTest, AllNaNHasNoFiniteStatistics) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const TensorStatistics s = ComputeTensorStatistics(Make<double>({nan, nan}));
  EXPECT_EQ(s.nans, 2);
  EXPECT_EQ(s.finite, 0);
  EXPECT_EQ(s.DebugString(), "double [2] (2 NaN)");
}

TEST(TensorStatisticsTest, IntegersBoolsAndStrings) {
  const TensorStatistics ints = ComputeTensorStatistics(Make<int32_t>({-5, 0, 5}));
  EXPECT_TRUE(ints.has_values);
  EXPECT_EQ(ints.min, -5);
  EXPECT_EQ(ints.zeros, 1);
  const TensorStatistics bools = ComputeTensorStatistics(Make<bool>({true, false, true}));
  EXPECT_DOUBLE_EQ(bools.mean, 2.0 / 3.0);
  Tensor strings(DT_STRING, TensorShape({2}));
  const TensorStatistics s = ComputeTensorStatistics(strings);
  EXPECT_FALSE(s.has_values);
  EXPECT_EQ(s.DebugString(), "string [2]");
  EXPECT_FALSE(CanBeNonFinite(DT_INT32));
  EXPECT_TRUE(CanBeNonFinite(DT_BFLOAT16));
}

TEST(TensorStatisticsTest, EmptyTensor) {
  const TensorStatistics s = ComputeTensorStatistics(Tensor(DT_FLOAT, TensorShape({0, 3})));
  EXPECT_TRUE(s.has_values);
  EXPECT_EQ(s.elements, 0);
  EXPECT_EQ(s.DebugString(), "float [0,3]");
}

}  // namespace
}  // namespace cli
}  // namespace sluice
