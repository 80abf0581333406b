// Advisories of the index, search, segment and histogram ops: UnravelIndex, LowerBound,
// UpperBound, Segment{Max,Min,Mean,Sum,Prod}, UnsortedSegmentSum, HistogramFixedWidth,
// RandomShuffle and RaggedTensorToTensor. Expectations are TensorFlow 2.21's, from
// check_with_tensorflow.py.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

AdvisoryCase UnravelIndex(int32_t index, std::vector<int32_t> dims) {
  AdvisoryCase c("UnravelIndex");
  c.Input(Scalar<int32_t>(index)).Input(Values<int32_t>(std::move(dims)));
  c.Attr("Tidx", DT_INT32);
  return c;
}

TEST(Advisories, Tfsa2021_142_UnravelIndexZeroDim) {
  // A dimension of 0 divided by zero.
  ExpectFailsBothWays(UnravelIndex(-1, {1, 0, 2}), kInvalid,
                      "Input dims cannot contain a dim of zero, but dims contains zero at index 1");
}

TEST(Advisories, Tfsa2022_006_UnravelIndexDimsProductOverflow) {
  // dims [2^20, 2^20]: their product overflowed int32 to 0, then divided by it.
  ExpectFailsBothWays(UnravelIndex(-0x100000, {0x100000, 0x100000}), kInvalid,
                      "Input dims product is causing integer overflow: (1048576 1048576)");
}

AdvisoryCase Bound(const char* op, Tensor sorted, Tensor values, DataType out_type) {
  AdvisoryCase c(op);
  const DataType t = sorted.dtype();
  c.Input(std::move(sorted)).Input(std::move(values));
  c.Attr("T", t).Attr("out_type", out_type);
  return c;
}

TEST(Advisories, Tfsa2021_144_BoundRank1SortedInput) {
  // A sorted_inputs of rank 1: its second dimension was read.
  for (const char* op : {"UpperBound", "LowerBound"}) {
    ExpectFailsBothWays(Bound(op, Values<int64_t>({1, 2, 3}),
                              Values<int64_t>({0, 0, 0, 1, 1, 1, 2, 2, 2}, {3, 3}), DT_INT64),
                        kInvalid);
  }
}

TEST(Advisories, Tfsa2022_097_BoundEmptySortedInputs) {
  // An empty sorted_inputs was searched through a null buffer.
  ExpectFailsBothWays(
      Bound("LowerBound", Zeros(DT_FLOAT, {10, 0}), Zeros(DT_FLOAT, {10, 10, 0, 10, 0}), DT_INT32),
      kInvalid);
  ExpectFailsBothWays(Bound("UpperBound", Zeros(DT_FLOAT, {2, 2, 0, 0, 0, 0, 0, 2}),
                            Values<float>(std::vector<float>(8, 0.372660398f), {2, 4}), DT_INT64),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_200_SegmentOpsHugeSegmentId) {
  // A segment id of 1676240524292489355 over a [1, 10, 1] data: the output's element count
  // overflows int64 (a CHECK building its shape). TensorFlow names the multiplication that
  // overflows, Sluice the dimension it was setting.
  for (const char* op : {"SegmentMax", "SegmentMin", "SegmentMean", "SegmentSum", "SegmentProd"}) {
    AdvisoryCase c(op);
    c.Input(Values<double>(std::vector<double>(10, 1.0), {1, 10, 1}))
        .Input(Values<int64_t>({1676240524292489355}));
    c.Attr("T", DT_DOUBLE).Attr("Tindices", DT_INT64);
    ExpectFailsBothWays(c, kInvalid);
  }
}

TEST(Advisories, Tfsa2019_002_UnsortedSegmentSumSegmentsBeyondInt32) {
  // With int32 segment ids, num_segments was truncated to int32 and could turn negative. 2^32 + 1
  // segments (an empty element shape, so nothing is allocated): TensorFlow 2.21 still casts
  // num_segments to the ids' type, giving one segment, and so does Sluice.
  AdvisoryCase c("UnsortedSegmentSum");
  c.Input(Zeros(DT_FLOAT, {1, 0})).Input(Values<int32_t>({0}));
  c.Input(Scalar<int64_t>((int64_t{1} << 32) + 1));
  c.Attr("T", DT_FLOAT).Attr("Tindices", DT_INT32).Attr("Tnumsegments", DT_INT64);
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({1, 0}));
  }
}

TEST(Advisories, Tfsa2019_002_UnsortedSegmentSumSegmentsNegativeAsInt32) {
  // 2^31 + 1 segments turn negative once cast to the int32 ids' type.
  AdvisoryCase c("UnsortedSegmentSum");
  c.Input(Zeros(DT_FLOAT, {1, 0})).Input(Values<int32_t>({0}));
  c.Input(Scalar<int64_t>((int64_t{1} << 31) + 1));
  c.Attr("T", DT_FLOAT).Attr("Tindices", DT_INT32).Attr("Tnumsegments", DT_INT64);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2022_080_HistogramFixedWidthNan) {
  // A NaN value was cast to an int32 bin index.
  AdvisoryCase c("HistogramFixedWidth");
  c.Input(Scalar<double>(std::numeric_limits<double>::quiet_NaN()))
      .Input(Values<double>({1, 2}))
      .Input(Scalar<int32_t>(100));
  c.Attr("T", DT_DOUBLE).Attr("dtype", DT_INT32);
  ExpectFailsBothWays(c, kInvalid, "Histogram values must not contain NaN");
}

TEST(Advisories, Tfsa2023_009_RandomShuffleScalarOddSeeds) {
  // A scalar with seeds beyond int32 (a null dereference under XLA): the scalar back.
  AdvisoryCase c("RandomShuffle");
  c.Input(Scalar<float>(1e20f));
  c.Attr("T", DT_FLOAT).Attr("seed", int64_t{-4294967297}).Attr("seed2", int64_t{-2147483649});
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(Elements<float>(out[0]), (std::vector<float>{1e20f}));
  }
}

AdvisoryCase RaggedToTensor(Tensor shape, Tensor values, Tensor default_value,
                            std::vector<Tensor> partitions, std::vector<std::string> types) {
  AdvisoryCase c("RaggedTensorToTensor");
  const DataType t = values.dtype();
  const DataType tshape = shape.dtype();
  const DataType tindex = partitions.empty() ? DT_INT64 : partitions[0].dtype();
  const int64_t n = static_cast<int64_t>(partitions.size());
  c.Input(std::move(shape)).Input(std::move(values)).Input(std::move(default_value));
  c.InputList(std::move(partitions));
  c.Attr("T", t).Attr("Tindex", tindex).Attr("Tshape", tshape);
  c.Attr("num_row_partition_tensors", n).Attr("row_partition_types", std::move(types));
  return c;
}

TEST(Advisories, Tfsa2021_048_RaggedTensorToTensorSplitsOfRank2) {
  // Row splits of shape [5, 43] (starting 849) for a one-element values: indexed in parallel
  // with a shorter array. Fed, TensorFlow's kernel flattens them and reports 214 rows for an
  // output of 4; Sluice's refuses splits that are not a vector first, as the shape function
  // does with Consts.
  std::vector<int64_t> splits(215, 0);
  splits[0] = 849;
  ExpectFailsBothWays(
      RaggedToTensor(Values<int64_t>({10, 10}), Values<int64_t>({0}), Scalar<int64_t>(0),
                     {Values<int64_t>(splits, {5, 43})}, {"ROW_SPLITS"}),
      kInvalid);
}

TEST(Advisories, Tfsa2021_048_RaggedTensorToTensorFlatSplits) {
  // The same 215 splits as a vector: 214 rows, the first of length -849 and the others empty,
  // so no value is placed (the last split, 0, is the count) and the output is all default.
  std::vector<int64_t> splits(215, 0);
  splits[0] = 849;
  const AdvisoryCase c =
      RaggedToTensor(Values<int64_t>({10, 10}), Values<int64_t>({0}), Scalar<int64_t>(0),
                     {Values<int64_t>(splits)}, {"ROW_SPLITS"});
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({10, 10}));
    EXPECT_EQ(Elements<int64_t>(out[0]), std::vector<int64_t>(100, 0));
  }
}

TEST(Advisories, Tfsa2021_095_RaggedTensorToTensorEmptyValues) {
  // Row splits [269, 404, 0, ...] over no values.
  ExpectFailsBothWays(
      RaggedToTensor(Values<int64_t>({-1, -1}), Values<int64_t>({}), Scalar<int64_t>(404),
                     {Values<int64_t>({269, 404, 0, 0, 0, 0, 0})}, {"ROW_SPLITS"}),
      kInvalid, "Invalid row split size.");
}

TEST(Advisories, Tfsa2021_112_RaggedTensorToTensorNoPartitionTypes) {
  // One partition tensor and no row_partition_types: the first type was read.
  ExpectFailsBothWays(RaggedToTensor(Scalar<int32_t>(1), Scalar<int32_t>(10), Scalar<int32_t>(21),
                                     {Values<int32_t>({0, 0, 0, 0})}, {}),
                      kInvalid, "Partition info types should not be empty");
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
