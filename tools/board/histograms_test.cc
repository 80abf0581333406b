#include "tools/board/histograms.h"

#include <cfloat>
#include <limits>
#include <vector>

#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace board {
namespace {

using Counts = std::vector<double>;

TEST(HistogramsTest, EqualWidthEdges) {
  EXPECT_EQ(BucketEdges(0, 3, 3), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(BucketEdges(2, 2, 2), (std::vector<double>{1.5, 2, 2.5}));
  const std::vector<double> wide = BucketEdges(-DBL_MAX, DBL_MAX, 2);
  EXPECT_EQ(wide, (std::vector<double>{-DBL_MAX, 0, DBL_MAX}));
}

TEST(HistogramsTest, CountsFiniteValuesOnly) {
  Tensor t(DT_FLOAT, TensorShape({7}));
  t.flat<float>().setValues({0, 0.5, 1, 2.9, 3, std::numeric_limits<float>::quiet_NaN(),
                             -std::numeric_limits<float>::infinity()});
  EXPECT_EQ(CountValues(t, BucketEdges(0, 3, 3)), (Counts{2, 1, 2}));
  // Outside the edges: the nearest end.
  EXPECT_EQ(CountValues(t, BucketEdges(1, 2, 1)), (Counts{5}));
  Tensor ints(DT_INT32, TensorShape({3}));
  ints.flat<int32_t>().setValues({-1, 0, 1});
  EXPECT_EQ(CountValues(ints, BucketEdges(-1, 1, 2)), (Counts{1, 2}));
}

TEST(HistogramsTest, ProtoBucketsAreCutToMinAndMax) {
  HistogramProto h;
  h.set_min(-1);
  h.set_max(3);
  for (double limit : {0.0, 2.0, DBL_MAX}) h.add_bucket_limit(limit);
  for (double count : {1.0, 0.0, 4.0}) h.add_bucket(count);
  std::vector<Bucket> buckets = BucketsOf(h);
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(buckets[0].left, -1);
  EXPECT_EQ(buckets[0].right, 0);
  EXPECT_EQ(buckets[0].count, 1);
  EXPECT_EQ(buckets[1].left, 2);
  EXPECT_EQ(buckets[1].right, 3);
  EXPECT_EQ(buckets[1].count, 4);
}

TEST(HistogramsTest, RebucketSharesCountsByOverlap) {
  const std::vector<double> edges = BucketEdges(0, 4, 4);
  EXPECT_EQ(Rebucket({{0, 2, 4}}, edges), (Counts{2, 2, 0, 0}));
  EXPECT_EQ(Rebucket({{0.5, 1.5, 2}}, edges), (Counts{1, 1, 0, 0}));
  // Zero width: all of it where it is; beyond the edges: the nearest end.
  EXPECT_EQ(Rebucket({{3, 3, 5}}, edges), (Counts{0, 0, 0, 5}));
  EXPECT_EQ(Rebucket({{-2, 0, 1}, {4, 6, 2}}, edges), (Counts{1, 0, 0, 2}));
  Counts total = Rebucket({{0.3, 3.7, 10}}, edges);
  EXPECT_DOUBLE_EQ(total[0] + total[1] + total[2] + total[3], 10);
}

TEST(HistogramsTest, TensorFlowTwoHistogramTensors) {
  Tensor t(DT_DOUBLE, TensorShape({2, 3}));
  t.flat<double>().setValues({0, 1, 3, 1, 2, 0});
  absl::StatusOr<std::vector<Bucket>> buckets = BucketsOfTensor(t);
  ASSERT_TRUE(buckets.ok());
  ASSERT_EQ(buckets->size(), 1u);  // the empty bucket is left out
  EXPECT_EQ((*buckets)[0].count, 3);
  EXPECT_EQ(BucketsOfTensor(Tensor(DT_FLOAT, TensorShape({2, 2}))).status().message(),
            "a histogram tensor is float or double [k, 3], not float [2,2]");
}

}  // namespace
}  // namespace board
}  // namespace sluice
