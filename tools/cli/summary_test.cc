#include "tools/cli/summary.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "graph/core/tensor.h"
#include "gtest/gtest.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace cli {
namespace {

using ::sluice::test::MakeTensor;

TEST(SummaryTest, StatsOfRealAndBoolTensors) {
  ValueStats stats;
  ASSERT_TRUE(
      ComputeValueStats(MakeTensor<float>(TensorShape({2, 2}), {1.f, -2.f, 3.5f, 0.5f}), &stats));
  EXPECT_EQ(stats.min, -2);
  EXPECT_EQ(stats.max, 3.5);
  EXPECT_EQ(stats.sum, 3);
  EXPECT_EQ(stats.counted, 4);
  EXPECT_EQ(stats.nans, 0);
  ASSERT_TRUE(ComputeValueStats(
      MakeTensor<uint64_t>(TensorShape({2}), {std::numeric_limits<uint64_t>::max(), 1}), &stats));
  EXPECT_EQ(stats.max, static_cast<double>(std::numeric_limits<uint64_t>::max()));
  EXPECT_EQ(stats.min, 1);
  ASSERT_TRUE(ComputeValueStats(MakeTensor<bool>(TensorShape({3}), {true, false, true}), &stats));
  EXPECT_EQ(stats.sum, 2);
  EXPECT_EQ(stats.counted, 3);
}

TEST(SummaryTest, NaNsAreCountedNotAveraged) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ValueStats stats;
  ASSERT_TRUE(ComputeValueStats(MakeTensor<float>(TensorShape({4}), {nan, 2.f, nan, 4.f}), &stats));
  EXPECT_EQ(stats.nans, 2);
  EXPECT_EQ(stats.counted, 2);
  EXPECT_EQ(stats.sum, 6);
  const std::string text =
      SummarizeOutput("out", MakeTensor<float>(TensorShape({4}), {nan, 2.f, nan, 4.f}));
  EXPECT_NE(text.find("out: float [4]  min 2 max 4 mean 3  (2 NaN)"), std::string::npos) << text;
  // All NaN: no min/max/mean at all.
  const std::string all_nan = SummarizeOutput("n", MakeTensor<float>(TensorShape({2}), {nan, nan}));
  EXPECT_EQ(all_nan.find("min"), std::string::npos) << all_nan;
  EXPECT_NE(all_nan.find("(2 NaN)"), std::string::npos) << all_nan;
}

TEST(SummaryTest, OtherDtypesHaveNoStats) {
  ValueStats stats;
  Tensor strings(DT_STRING, TensorShape({1}));
  EXPECT_FALSE(ComputeValueStats(strings, &stats));
  EXPECT_EQ(stats.counted, 0);
  const std::string text = SummarizeOutput("s", strings);
  EXPECT_EQ(text.find("min"), std::string::npos) << text;
}

TEST(SummaryTest, TopFiveOfTheFirstRows) {
  const Tensor scores =
      MakeTensor<double>(TensorShape({4, 6}), {
                                                  0.1, 0.2, 0.3, 0.4, 0.5, 0.6,  //
                                                  6,   5,   4,   3,   2,   1,    //
                                                  1,   1,   1,   1,   1,   1,    //
                                                  9,   9,   9,   9,   9,   9,    //
                                              });
  const std::string text = SummarizeOutput("probs", scores);
  EXPECT_NE(text.find("probs: double [4,6]  min 0.1 max 9 mean"), std::string::npos) << text;
  EXPECT_NE(text.find("top-5 row 0: 5 (0.6), 4 (0.5), 3 (0.4), 2 (0.3), 1 (0.2)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("top-5 row 1: 0 (6), 1 (5), 2 (4), 3 (3), 4 (2)\n"), std::string::npos)
      << text;
  // Ties go to the lower index; only the first three rows are ranked.
  EXPECT_NE(text.find("top-5 row 2: 0 (1), 1 (1), 2 (1), 3 (1), 4 (1)\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("row 3"), std::string::npos) << text;
  // Integer scores are not ranked.
  const std::string ints =
      SummarizeOutput("k", MakeTensor<int32_t>(TensorShape({1, 3}), {3, 1, 2}));
  EXPECT_EQ(ints.find("top-"), std::string::npos) << ints;
}

// A large output is summarised from its own buffer: the mean of a million halves is exact.
TEST(SummaryTest, LargeTensorsInPlace) {
  Tensor big(DT_FLOAT, TensorShape({1000, 1000}));
  float* data = big.base<float>();
  for (int64_t i = 0; i < big.NumElements(); ++i) data[i] = i % 2 == 0 ? 0.f : 1.f;
  ValueStats stats;
  ASSERT_TRUE(ComputeValueStats(big, &stats));
  EXPECT_EQ(stats.counted, 1000000);
  EXPECT_EQ(stats.sum, 500000);
  const std::string text = SummarizeOutput("big", big);
  EXPECT_NE(text.find("big: float [1000,1000]  min 0 max 1 mean 0.5"), std::string::npos) << text;
  EXPECT_NE(text.find("top-5 row 0: 1 (1), 3 (1), 5 (1), 7 (1), 9 (1)"), std::string::npos) << text;
}

}  // namespace
}  // namespace cli
}  // namespace sluice
