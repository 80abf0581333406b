// Advisories of the array ops (ReverseSequence, ReverseV2, SplitV, Transpose, Tile, Fill,
// Reshape, Range, ConcatV2, SpaceToBatchND, Bincount, DenseBincount, BroadcastTo,
// (Parallel)DynamicStitch). Expectations are
// TensorFlow 2.21's, from check_with_tensorflow.py.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

AdvisoryCase ReverseSequence(int64_t seq_dim, int64_t batch_dim) {
  AdvisoryCase c("ReverseSequence");
  c.Input(Zeros(DT_INT32, {1, 1, 1})).Input(Values<int32_t>({0}));
  c.Attr("T", DT_INT32).Attr("Tlen", DT_INT32);
  c.Attr("seq_dim", seq_dim).Attr("batch_dim", batch_dim);
  return c;
}

TEST(Advisories, Tfsa2021_061_ReverseSequenceInvalidDims) {
  // A negative seq_dim, or a batch_dim out of range, indexed the input's dimensions
  // unchecked.
  ExpectFailsBothWays(ReverseSequence(-2, 0), kInvalid, "seq_dim");
  ExpectFailsBothWays(ReverseSequence(1, 5), kInvalid, "batch_dim");
  ExpectFailsBothWays(ReverseSequence(1, -1), kInvalid, "batch_dim");
}

TEST(Advisories, Tfsa2021_045_ReverseV2EmptyFirstDimension) {
  // TFSA-2021-045 is Reverse (a bool per dimension), which Sluice does not register: it
  // divided the element count by an empty first dimension. The same input through ReverseV2
  // is the empty tensor back.
  AdvisoryCase c("ReverseV2");
  c.Input(Zeros(DT_INT32, {0, 1, 1})).Input(Values<int32_t>({1}));
  c.Attr("T", DT_INT32).Attr("Tidx", DT_INT32);
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({0, 1, 1}));
  }
}

TEST(Advisories, Tfsa2021_173_SplitVNegativeSizes) {
  // Several size_splits with negative entries: a segfault.
  AdvisoryCase c("SplitV");
  c.Input(Zeros(DT_FLOAT, {0})).Input(Values<int32_t>({-1, -2})).Input(Scalar<int32_t>(0));
  c.Attr("T", DT_FLOAT).Attr("Tlen", DT_INT32).Attr("num_split", int64_t{2});
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_179_TransposeNegativePerm) {
  // A negative entry of perm indexed the input's dimensions before their start.
  AdvisoryCase c("Transpose");
  c.Input(Values<int32_t>({1, 2, 3, 4})).Input(Values<int32_t>({-10}));
  c.Attr("T", DT_INT32).Attr("Tperm", DT_INT32);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_196_TileOutputOverflow) {
  // multiples whose product overflows int64 failed a CHECK building the output shape.
  AdvisoryCase c("Tile");
  c.Input(Zeros(DT_FLOAT, {1, 1, 1})).Input(Values<int32_t>({100000000, 100000000, 100000000}));
  c.Attr("T", DT_FLOAT).Attr("Tmultiples", DT_INT32);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_198_FillShapeOverflow) {
  // dims whose element count overflows int64 failed a CHECK in the shape constructor.
  AdvisoryCase c("Fill");
  c.Input(Values<int64_t>({int64_t{1} << 40, int64_t{1} << 40})).Input(Scalar<float>(1.0f));
  c.Attr("T", DT_FLOAT).Attr("index_type", DT_INT64);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_198_ReshapeToRank255) {
  // A shape of 255 entries: more dimensions than a tensor may have (TFSA-2022-085 is this
  // very graph, 255 int64 zeros).
  AdvisoryCase c("Reshape");
  c.Input(Values<int32_t>({1}, {1, 1})).Input(Values<int64_t>(std::vector<int64_t>(255, 0)));
  c.Attr("T", DT_INT32).Attr("Tshape", DT_INT64);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_194_RangeHugeFloatSpan) {
  // A float range from -1e38 to 1 has more elements than int64 holds.
  AdvisoryCase c("Range");
  c.Input(Scalar<float>(-1e38f)).Input(Scalar<float>(1.0f)).Input(Scalar<float>(1.0f));
  c.Attr("Tidx", DT_FLOAT);
  ExpectFailsBothWays(c, kInvalid, "Requires ((limit - start) / delta) <= 9223372036854775807");
}

TEST(Advisories, Tfsa2022_153_BroadcastShapesBeyondInt32) {
  // Broadcast shapes with more elements than int32 holds failed a CHECK; BroadcastArgs
  // must give the broadcast shape.
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> cases = {
      {{2, 1024, 1024, 1024}, {1}}, {{int64_t{1} << 40}, {1, 1}}};
  const std::vector<std::vector<int64_t>> expected = {{2, 1024, 1024, 1024}, {1, int64_t{1} << 40}};
  for (size_t i = 0; i < cases.size(); ++i) {
    AdvisoryCase c("BroadcastArgs");
    c.Input(Values<int64_t>(cases[i].first)).Input(Values<int64_t>(cases[i].second));
    c.Attr("T", DT_INT64);
    for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
      std::vector<Tensor> out;
      ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
      EXPECT_EQ(Elements<int64_t>(out[0]), expected[i]);
    }
  }
}

TEST(Advisories, Tfsa2022_002_ReverseSequenceFarNegativeDims) {
  // The shape function checked batch_dim only against the input's rank, so a batch_dim far
  // below zero read before the start of the input's dimensions.
  AdvisoryCase c("ReverseSequence");
  c.Input(Values<int32_t>({1, 2})).Input(Values<int32_t>({1, 1, 1}));
  c.Attr("T", DT_INT32).Attr("Tlen", DT_INT32);
  c.Attr("seq_dim", int64_t{-10}).Attr("batch_dim", int64_t{-10});
  ExpectFailsBothWays(c, kInvalid, "batch_dim");
}

AdvisoryCase ConcatV2(Tensor axis) {
  AdvisoryCase c("ConcatV2");
  const DataType tidx = axis.dtype();
  c.InputList({Values<int32_t>({1, 2, 3}), Values<int32_t>({4, 5, 6})}).Input(std::move(axis));
  c.Attr("N", int64_t{2}).Attr("T", DT_INT32).Attr("Tidx", tidx);
  return c;
}

TEST(Advisories, Tfsa2022_007_ConcatV2HugeAxis) {
  // An axis whose magnitude does not fit the shape function's rank arithmetic (a negative
  // int32 near -2^31, or an int64 beyond int32) turned the minimum rank negative and passed
  // the rank check.
  ExpectFailsBothWays(ConcatV2(Scalar<int32_t>(static_cast<int32_t>(0xb500005bLL - (1LL << 32)))),
                      kInvalid);
  ExpectFailsBothWays(ConcatV2(Scalar<int64_t>(int64_t{0xb500005b})), kInvalid);
}

TEST(Advisories, Tfsa2022_076_SpaceToBatchNDOverflow) {
  // block_shape entries whose product overflows, or negative ones, made the output's batch
  // dimension overflow and failed a CHECK building the output shape.
  // With fed inputs TensorFlow refuses the graph itself (a block_shape of unknown rank), as
  // Sluice's shape function does.
  AdvisoryCase negative("SpaceToBatchND");
  negative.Input(Zeros(DT_FLOAT, {10, 19, 22}))
      .Input(Values<int64_t>({-1879048192, -1879048192}))
      .Input(Zeros(DT_INT32, {2, 2}));
  negative.Attr("T", DT_FLOAT).Attr("Tblock_shape", DT_INT64).Attr("Tpaddings", DT_INT32);
  ExpectFailsBothWays(negative, kInvalid);
  AdvisoryCase huge("SpaceToBatchND");
  const int64_t big = int64_t{1} << 62;
  huge.Input(Zeros(DT_FLOAT, {1, 2, 2, 1}))
      .Input(Values<int64_t>({big, big}))
      .Input(Values<int64_t>({0, big - 2, 0, big - 2}, {2, 2}));
  huge.Attr("T", DT_FLOAT).Attr("Tblock_shape", DT_INT64).Attr("Tpaddings", DT_INT64);
  ExpectFailsBothWays(huge, kInvalid);
}

AdvisoryCase DenseBincount(Tensor input, Tensor size, Tensor weights) {
  AdvisoryCase c("DenseBincount");
  const DataType tidx = input.dtype();
  const DataType t = weights.dtype();
  c.Input(std::move(input)).Input(std::move(size)).Input(std::move(weights));
  c.Attr("Tidx", tidx).Attr("T", t).Attr("binary_output", false);
  return c;
}

AdvisoryCase Bincount(Tensor arr, Tensor size, Tensor weights) {
  AdvisoryCase c("Bincount");
  const DataType t = weights.dtype();
  c.Input(std::move(arr)).Input(std::move(size)).Input(std::move(weights));
  c.Attr("T", t);
  return c;
}

TEST(Advisories, Tfsa2022_017_BincountInvalidArguments) {
  // A size that is not a scalar or is negative, an input of rank above 2, or weights of
  // another shape than the input failed CHECKs allocating the output.
  const Tensor rows = Values<int32_t>({0, 1, 2}, {3, 1});
  ExpectFailsBothWays(DenseBincount(rows, Values<int32_t>({1}), Values<float>({3, 2, 1})), kInvalid,
                      "rank 0");
  ExpectFailsBothWays(DenseBincount(rows, Scalar<int32_t>(3), Values<float>({3, 2, 1})), kInvalid,
                      "`weights` must be the same shape");
  ExpectFailsBothWays(
      DenseBincount(Zeros(DT_INT32, {1, 1, 1}), Scalar<int32_t>(3), Values<float>({})), kInvalid);
  ExpectFailsBothWays(
      DenseBincount(Values<int32_t>({0, 1}), Scalar<int32_t>(-1), Values<float>({})), kInvalid,
      "must be non-negative");
  ExpectFailsBothWays(Bincount(Values<int32_t>({0, 1}), Scalar<int32_t>(-1), Values<float>({})),
                      kInvalid, "must be non-negative");
  ExpectFailsBothWays(Bincount(Values<int32_t>({0, 1}), Values<int32_t>({3}), Values<float>({})),
                      kInvalid, "rank 0");
}

TEST(Advisories, Tfsa2023_177_BincountWeightsOfAnotherSize) {
  // Weights neither of arr's size nor empty (a segfault under XLA).
  ExpectFailsBothWays(
      Bincount(Scalar<int32_t>(6), Scalar<int32_t>(804), Values<int32_t>({52, 351})), kInvalid,
      "same size");
}

AdvisoryCase Range(Tensor start, Tensor limit, Tensor delta) {
  AdvisoryCase c("Range");
  const DataType tidx = start.dtype();
  c.Input(std::move(start)).Input(std::move(limit)).Input(std::move(delta));
  c.Attr("Tidx", tidx);
  return c;
}

TEST(Advisories, Tfsa2022_028_RangeInt64Overflow) {
  // The element count of an int64 range was computed in int64 and overflowed: a span from
  // int64's minimum to its maximum must be refused, and a delta of int64's minimum (whose
  // magnitude int64 cannot hold) must still give the one element.
  const int64_t min = std::numeric_limits<int64_t>::min();
  const int64_t max = std::numeric_limits<int64_t>::max();
  ExpectFailsBothWays(Range(Scalar<int64_t>(min), Scalar<int64_t>(max), Scalar<int64_t>(1)),
                      kInvalid, "Requires ((limit - start) / delta) <= 9223372036854775807");
  const AdvisoryCase one = Range(Scalar<int64_t>(0), Scalar<int64_t>(-1), Scalar<int64_t>(min));
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(one.Run(feed, &out).ok()) << one.Run(feed);
    EXPECT_EQ(Elements<int64_t>(out[0]), (std::vector<int64_t>{0}));
  }
}

TEST(Advisories, Tfsa2022_141_RangeSizeAtInt64Limit) {
  // A float or double range of exactly 2^63 elements passed the "more than int64 holds" check
  // (2^63 is not above int64's maximum once both are floating point) and was then cast to
  // int64.
  const float f = 9223372036854775808.0f;
  ExpectFailsBothWays(Range(Scalar<float>(0), Scalar<float>(f), Scalar<float>(1)), kInvalid);
  const double d = 9223372036854775808.0;
  ExpectFailsBothWays(Range(Scalar<double>(0), Scalar<double>(d), Scalar<double>(1)), kInvalid);
}

AdvisoryCase Reshape(std::vector<int64_t> shape) {
  AdvisoryCase c("Reshape");
  c.Input(Values<int32_t>({1}, {1, 1})).Input(Values<int64_t>(std::move(shape)));
  c.Attr("T", DT_INT32).Attr("Tshape", DT_INT64);
  return c;
}

TEST(Advisories, Tfsa2022_085_ReshapeElementCountOverflow) {
  // Shapes whose element count overflows int64, all dims known or one of them -1 (the
  // remembered candidate next to TFSA-2022-085's 255 zeros).
  ExpectFailsBothWays(Reshape({int64_t{1} << 32, int64_t{1} << 32}), kInvalid);
  ExpectFailsBothWays(Reshape({-1, int64_t{1} << 62, 4}), kInvalid);
}

TEST(Advisories, Tfsa2022_118_DenseBincountScalarWeights) {
  // Scalar weights for an empty [0, 0] input: neither the input's shape nor empty.
  ExpectFailsBothWays(
      DenseBincount(Zeros(DT_INT32, {0, 0}), Scalar<int32_t>(3), Scalar<float>(1.5f)), kInvalid,
      "`weights` must be the same shape");
}

TEST(Advisories, Tfsa2022_146_BroadcastToShapeWithLeadingZero) {
  // A shape 0, 1, ..., 20: no elements, but the other dims multiply to 20!. TensorFlow's crash
  // was in its Python bridge; the op must give an empty tensor of that shape.
  std::vector<int64_t> shape;
  for (int64_t i = 0; i <= 20; ++i) shape.push_back(i);
  AdvisoryCase c("BroadcastTo");
  c.Input(Values<int32_t>({1})).Input(Values<int64_t>(shape));
  c.Attr("T", DT_INT32).Attr("Tidx", DT_INT64);
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape(shape));
  }
}

TEST(Advisories, Tfsa2022_145_DynamicStitchMoreDataThanIndices) {
  // One indices tensor and two data tensors (N is 1): the kernel read a data tensor for
  // which there were no indices. The node does not match its OpDef.
  AdvisoryCase c("DynamicStitch");
  c.InputList({Values<int32_t>({0, 1}, {1, 2})})
      .InputList({Values<int32_t>({5, 6}, {1, 2}), Values<int32_t>({7, 8}, {1, 2})});
  c.Attr("N", int64_t{1}).Attr("T", DT_INT32);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2023_018_DynamicStitchNegativeIndex) {
  // An index of 0xdeadbeef (negative as an int32) was read past the output.
  for (const char* op : {"DynamicStitch", "ParallelDynamicStitch"}) {
    const int n = std::string(op) == "DynamicStitch" ? 5 : 2;
    const std::vector<int32_t> indices = {static_cast<int32_t>(0xdeadbeefu), 405, 519, 758, 1015};
    const std::vector<float> data = {110.27793884277344f, 120.29475402832031f, 157.2418212890625f,
                                     157.2626953125f, 188.45382690429688f};
    std::vector<Tensor> index_list, data_list;
    for (int i = 0; i < n; ++i) {
      index_list.push_back(Values<int32_t>({indices[i]}));
      data_list.push_back(Values<float>({data[i]}));
    }
    AdvisoryCase c(op);
    c.InputList(index_list).InputList(data_list);
    c.Attr("N", int64_t{n}).Attr("T", DT_FLOAT);
    ExpectFailsBothWays(c, kInvalid);
  }
}

TEST(Advisories, Tfsa2023_018_DynamicStitchDataShapeDisagrees) {
  // Two indices with one datum: data's shape must be indices' shape plus the element shape.
  AdvisoryCase c("DynamicStitch");
  c.InputList({Values<int32_t>({0, 1})}).InputList({Values<float>({5})});
  c.Attr("N", int64_t{1}).Attr("T", DT_FLOAT);
  ExpectFailsBothWays(c, kInvalid);
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
