#include "kernels/cpu/summary/histogram.h"

#include <cfloat>
#include <vector>

#include "gtest/gtest.h"
#include "proto/summary.pb.h"

namespace sluice {
namespace summary {
namespace {

TEST(HistogramTest, DefaultLimitsAreTensorFlowsSeries) {
  const std::vector<double>& limits = Histogram::DefaultBucketLimits();
  // 774 growth steps below 1e20 on each side, the two DBL_MAX ends and 0.
  ASSERT_EQ(limits.size(), 1551u);
  EXPECT_EQ(limits.front(), -DBL_MAX);
  EXPECT_EQ(limits.back(), DBL_MAX);
  EXPECT_EQ(limits[775], 0.0);
  EXPECT_EQ(limits[776], 1e-12);
  EXPECT_EQ(limits[777], 1e-12 * 1.1);
  EXPECT_EQ(limits[778], 1e-12 * 1.1 * 1.1);
  EXPECT_LT(limits[1549], 1e20);
  EXPECT_GE(limits[1549] * 1.1, 1e20);
  for (size_t i = 0; i < 775; ++i) EXPECT_EQ(limits[i], -limits[limits.size() - 1 - i]);
  for (size_t i = 1; i < limits.size(); ++i) EXPECT_LT(limits[i - 1], limits[i]);
}

TEST(HistogramTest, EmptyHistogramIsOneEmptyBucket) {
  HistogramProto proto;
  Histogram().EncodeToProto(&proto);
  EXPECT_EQ(proto.min(), DBL_MAX);
  EXPECT_EQ(proto.max(), -DBL_MAX);
  EXPECT_EQ(proto.num(), 0);
  ASSERT_EQ(proto.bucket_limit_size(), 1);
  EXPECT_EQ(proto.bucket_limit(0), DBL_MAX);
  EXPECT_EQ(proto.bucket(0), 0);
}

TEST(HistogramTest, ValuesOnALimitGoToTheBucketAbove) {
  Histogram histogram;
  histogram.Add(0.0);
  histogram.Add(1e-12);
  histogram.Add(-1e-12);
  HistogramProto proto;
  histogram.EncodeToProto(&proto);
  // The empty run up to -1e-12, then [-1e-12, 0) holds -1e-12, [0, 1e-12) holds 0,
  // [1e-12, 1.1e-12) holds 1e-12, and the empty run up to DBL_MAX.
  const std::vector<double> limits(proto.bucket_limit().begin(), proto.bucket_limit().end());
  const std::vector<double> counts(proto.bucket().begin(), proto.bucket().end());
  EXPECT_EQ(limits, (std::vector<double>{-1e-12, 0.0, 1e-12, 1e-12 * 1.1, DBL_MAX}));
  EXPECT_EQ(counts, (std::vector<double>{0, 1, 1, 1, 0}));
  EXPECT_EQ(proto.min(), -1e-12);
  EXPECT_EQ(proto.max(), 1e-12);
  EXPECT_EQ(proto.num(), 3);
  EXPECT_EQ(proto.sum(), 0.0);
  EXPECT_EQ(proto.sum_squares(), 2e-24);
}

TEST(HistogramTest, DblMaxCountsInTheLastBucket) {
  // TensorFlow's kernel writes past its array here; see histogram.h.
  Histogram histogram;
  histogram.Add(DBL_MAX);
  HistogramProto proto;
  histogram.EncodeToProto(&proto);
  ASSERT_EQ(proto.bucket_size(), 2);
  EXPECT_EQ(proto.bucket_limit(1), DBL_MAX);
  EXPECT_EQ(proto.bucket(1), 1);
  EXPECT_EQ(proto.max(), DBL_MAX);
}

}  // namespace
}  // namespace summary
}  // namespace sluice
