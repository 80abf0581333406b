#include <cstdint>
#include <limits>

#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ConcatShapeTest, KnownAxis) {
  EXPECT_EQ(Infer("ConcatV2", "T=DT_FLOAT, N=2", "[2,3];[2,4];[]", {{2, Int(1)}}), "[2,7]");
  EXPECT_EQ(Infer("ConcatV2", "T=DT_FLOAT, N=2", "[2,3];[2,4];[]", {{2, Int(-1)}}), "[2,7]");
  EXPECT_EQ(
      Infer("ConcatV2", "T=DT_FLOAT, N=3, Tidx=DT_INT64", "[1,3];[?,3];[2,?];[]", {{3, Int64(0)}}),
      "[?,3]");
  EXPECT_EQ(Infer("ConcatV2", "T=DT_FLOAT, N=2", "[2,3];[?,?];[]", {{2, Int(1)}}), "[2,?]");
  EXPECT_EQ(Infer("Concat", "T=DT_FLOAT, N=2", "[];[2,3];[2,4]", {{0, Int(1)}}), "[2,7]");
}

TEST(ConcatShapeTest, UnknownAxis) {
  EXPECT_EQ(Infer("ConcatV2", "T=DT_FLOAT, N=2", "[2,3];[2,4];[]"), "[?,?]");
  EXPECT_EQ(Infer("ConcatV2", "T=DT_FLOAT, N=2", "[2,3];?;[]"), "[?,?]");
  EXPECT_EQ(Infer("Concat", "T=DT_FLOAT, N=2", "[];[2,3];[2,4]"), "[?,?]");
}

TEST(ConcatShapeTest, RejectsMismatches) {
  EXPECT_THAT(Infer("ConcatV2", "T=DT_FLOAT, N=2", "[2,3];[2,4];[]", {{2, Int(0)}}),
              IsInvalidArgument("Dimension 0 in both shapes must be equal, but are 3 and 4"));
  EXPECT_THAT(Infer("ConcatV2", "T=DT_FLOAT, N=2", "[2,3];[2,4];[]", {{2, Int(2)}}),
              IsInvalidArgument("Shape must be at least rank 3 but is rank 2"));
  EXPECT_THAT(Infer("ConcatV2", "T=DT_FLOAT, N=2", "[2,3];[3];[]", {{2, Int(0)}}),
              IsInvalidArgument("rank"));
}

TEST(PackShapeTest, NewDimAtAxis) {
  EXPECT_EQ(Infer("Pack", "T=DT_FLOAT, N=3", "[2,?];[?,3];[2,3]"), "[3,2,3]");
  EXPECT_EQ(Infer("Pack", "T=DT_FLOAT, N=2, axis=1", "[2,3];[2,3]"), "[2,2,3]");
  EXPECT_EQ(Infer("Pack", "T=DT_FLOAT, N=2, axis=-1", "[2,3];[2,3]"), "[2,3,2]");
  EXPECT_EQ(Infer("Pack", "T=DT_INT32, N=1", "[]"), "[1]");
  EXPECT_EQ(Infer("Pack", "T=DT_FLOAT, N=2", "?;?"), "?");
}

TEST(PackShapeTest, RejectsBadInputs) {
  EXPECT_THAT(Infer("Pack", "T=DT_FLOAT, N=2, axis=3", "[2,3];[2,3]"),
              IsInvalidArgument("Invalid axis: 3; must be in [-3,3)"));
  EXPECT_THAT(Infer("Pack", "T=DT_FLOAT, N=2, axis=-4", "[2,3];[2,3]"),
              IsInvalidArgument("Invalid axis: -4; must be in [-3,3)"));
  EXPECT_THAT(Infer("Pack", "T=DT_FLOAT, N=2", "[2];[3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal, but are 2 and 3"));
}

TEST(UnpackShapeTest, RemovesTheAxis) {
  EXPECT_EQ(Infer("Unpack", "T=DT_FLOAT, num=2", "[2,3]"), "[3];[3]");
  EXPECT_EQ(Infer("Unpack", "T=DT_FLOAT, num=3, axis=-1", "[2,3]"), "[2];[2];[2]");
  EXPECT_EQ(Infer("Unpack", "T=DT_FLOAT, num=2", "[?,3]"), "[3];[3]");
  EXPECT_EQ(Infer("Unpack", "T=DT_FLOAT, num=2", "?"), "?;?");
  EXPECT_EQ(Infer("Unpack", "T=DT_FLOAT, num=0", "[0,3]"), "");
  EXPECT_THAT(Infer("Unpack", "T=DT_FLOAT, num=3", "[2,3]"),
              IsInvalidArgument("Dimension must be 3 but is 2"));
  EXPECT_THAT(Infer("Unpack", "T=DT_FLOAT, num=2, axis=2", "[2,3]"),
              IsInvalidArgument("Invalid axis: 2; must be in [-2,2)"));
}

TEST(SplitShapeTest, EvenPieces) {
  EXPECT_EQ(Infer("Split", "T=DT_FLOAT, num_split=2", "[];[4,6]", {{0, Int(1)}}), "[4,3];[4,3]");
  EXPECT_EQ(Infer("Split", "T=DT_FLOAT, num_split=2", "[];[4,6]", {{0, Int(-2)}}), "[2,6];[2,6]");
  EXPECT_EQ(Infer("Split", "T=DT_FLOAT, num_split=3", "[];[?,6]", {{0, Int(0)}}),
            "[?,6];[?,6];[?,6]");
  EXPECT_EQ(Infer("Split", "T=DT_FLOAT, num_split=2", "[];[4,6]"), "[?,?];[?,?]");
  EXPECT_EQ(Infer("Split", "T=DT_FLOAT, num_split=2", "[];?", {{0, Int(1)}}), "?;?");
  EXPECT_EQ(Infer("Split", "T=DT_FLOAT, num_split=2", "[];?", {{0, Int(-1)}}), "?;?");
}

TEST(SplitShapeTest, RejectsBadSplits) {
  EXPECT_THAT(Infer("Split", "T=DT_FLOAT, num_split=4", "[];[4,6]", {{0, Int(1)}}),
              IsInvalidArgument("Dimension size must be evenly divisible by 4 but is 6"));
  EXPECT_THAT(Infer("Split", "T=DT_FLOAT, num_split=2", "[];[4,6]", {{0, Int(2)}}),
              IsInvalidArgument("must be in range [-2, 2)"));
}

TEST(SplitVShapeTest, KnownSizes) {
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[]",
                  {{1, Int64s({2, 4})}, {2, Int(1)}}),
            "[5,2];[5,4]");
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[]",
                  {{1, Int64s({2, -1})}, {2, Int(0)}}),
            "[2,6];[3,6]");
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=2, Tlen=DT_INT32", "[5,?];[2];[]",
                  {{1, Ints({2, -1})}, {2, Int(-1)}}),
            "[5,2];[5,?]");
  // differs from TensorFlow, which aborts the process on int8 sizes (it reads them as int64).
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=2, Tlen=DT_INT8", "[5,6];[2];[]",
                  {{1, Vector<int8_t>({1, 4})}, {2, Int(0)}}),
            "[1,6];[4,6]");
}

TEST(SplitVShapeTest, UnknownSizesOrAxis) {
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[]", {{2, Int(-1)}}),
            "[5,?];[5,?]");
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[2]"), "[?,?];[?,?]");
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=2", "?;[2];[]", {{2, Int(0)}}), "?;?");
  // differs from TensorFlow: it reads the unknown axis as the last dim and checks the
  // sizes against it (rejecting this valid split along axis 0).
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[]", {{1, Int64s({2, 3})}}),
            "[?,?];[?,?]");
}

TEST(SplitVShapeTest, RejectsBadSizes) {
  EXPECT_THAT(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[]",
                    {{1, Int64s({2, 4})}, {2, Int(0)}}),
              IsInvalidArgument("can't split axis of size 5 into pieces of size [2,4]"));
  EXPECT_THAT(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[]",
                    {{1, Int64s({-1, -1})}, {2, Int(1)}}),
              IsInvalidArgument("size_splits can only have one -1"));
  EXPECT_THAT(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[]",
                    {{1, Int64s({7, -1})}, {2, Int(1)}}),
              IsInvalidArgument("Split size at index 1 must be >= 0. Got: -1"));
  EXPECT_THAT(Infer("SplitV", "T=DT_FLOAT, num_split=3", "[5,6];[2];[]",
                    {{1, Int64s({3, -1})}, {2, Int(1)}}),
              IsInvalidArgument("Length of size_splits should be equal to num_outputs"));
  EXPECT_THAT(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[5,6];[2];[]", {{2, Int(2)}}),
              IsInvalidArgument("must be in range [-2, 2)"));
  EXPECT_THAT(Infer("SplitV", "T=DT_FLOAT, num_split=2", "[];[2];[]", {{2, Int(0)}}),
              IsInvalidArgument("Can't split scalars"));
}

// Issue 25: sums of int64 sizes that wrap must not pass the bounds checks (TensorFlow
// computes the wrapped -1 size and reports it as negative: INVALID_ARGUMENT too).
TEST(SplitVShapeTest, RejectsSizesWhoseSumOverflows) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  for (const Tensor& sizes : {Int64s({int64_t{1} << 62, int64_t{1} << 62, -1}),
                              Int64s({kMax, 2, -1}), Int64s({2, kMax, -1}), Int64s({kMax, 2, 0})}) {
    EXPECT_THAT(
        Infer("SplitV", "T=DT_FLOAT, num_split=3", "[4,2];[3];[]", {{1, sizes}, {2, Int(0)}}),
        IsInvalidArgument("Split sizes overflow int64"));
  }
  EXPECT_EQ(Infer("SplitV", "T=DT_FLOAT, num_split=3", "[4,2];[3];[]",
                  {{1, Int64s({1, 2, -1})}, {2, Int(0)}}),
            "[1,2];[2,2];[1,2]");
}

TEST(SplitVShapeTest, RejectsNonVectorSizesWithoutCrashing) {
  // differs from TensorFlow, which aborts the process on a scalar size_splits.
  EXPECT_THAT(
      Infer("SplitV", "T=DT_FLOAT, num_split=1", "[5,6];[];[]", {{1, Int64(5)}, {2, Int(0)}}),
      IsInvalidArgument("size_splits must be a vector"));
}

TEST(DynamicPartitionShapeTest, UnknownFirstDimAndDataSuffix) {
  EXPECT_EQ(Infer("DynamicPartition", "T=DT_FLOAT, num_partitions=2", "[4,3];[4]"), "[?,3];[?,3]");
  EXPECT_EQ(Infer("DynamicPartition", "T=DT_INT32, num_partitions=3", "[2,2,5];[2,2]"),
            "[?,5];[?,5];[?,5]");
  EXPECT_EQ(Infer("DynamicPartition", "T=DT_FLOAT, num_partitions=1", "[?,7];[6]"), "[?,7]");
  EXPECT_EQ(Infer("DynamicPartition", "T=DT_FLOAT, num_partitions=2", "[];[]"), "[?];[?]");
  EXPECT_EQ(Infer("DynamicPartition", "T=DT_FLOAT, num_partitions=2", "[4,3];?"), "?;?");
  EXPECT_EQ(Infer("DynamicPartition", "T=DT_FLOAT, num_partitions=2", "?;[4]"), "?;?");
  EXPECT_THAT(Infer("DynamicPartition", "T=DT_FLOAT, num_partitions=2", "[4,3];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 4 and 3"));
  EXPECT_THAT(Infer("DynamicPartition", "T=DT_FLOAT, num_partitions=2", "[4];[4,1]"),
              IsInvalidArgument("Shape must be at least rank 2 but is rank 1"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
