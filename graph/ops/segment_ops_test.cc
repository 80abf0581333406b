#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

constexpr char kUnsorted[] = "T=DT_FLOAT, Tindices=DT_INT32, Tnumsegments=DT_INT32";

TEST(UnsortedSegmentShapeTest, NumSegmentsThenInnerData) {
  EXPECT_EQ(Infer("UnsortedSegmentSum", kUnsorted, "[6,4,3];[6];[]", {{2, Int(5)}}), "[5,4,3]");
  EXPECT_EQ(Infer("UnsortedSegmentMax", kUnsorted, "[6,4,3];[6,4];[]", {{2, Int(5)}}), "[5,3]");
  EXPECT_EQ(Infer("UnsortedSegmentMin", "T=DT_FLOAT, Tindices=DT_INT64, Tnumsegments=DT_INT64",
                  "[6,4];[6,4];[]", {{2, Int64(2)}}),
            "[2]");
  EXPECT_EQ(Infer("UnsortedSegmentProd", kUnsorted, "[6,4,3];[6];[]"), "[?,4,3]");
  EXPECT_EQ(Infer("UnsortedSegmentSum", kUnsorted, "?;[6];[]", {{2, Int(5)}}), "?");
  EXPECT_EQ(Infer("UnsortedSegmentSum", kUnsorted, "[6,4,3];?;[]", {{2, Int(5)}}), "?");
  EXPECT_EQ(Infer("UnsortedSegmentSum", kUnsorted, "[?,4,3];[6];[]", {{2, Int(5)}}), "[5,4,3]");
}

TEST(UnsortedSegmentShapeTest, RejectsBadShapes) {
  EXPECT_THAT(Infer("UnsortedSegmentSum", kUnsorted, "[6,4,3];[5];[]", {{2, Int(5)}}),
              IsInvalidArgument("Dimensions must be equal, but are 6 and 5"));
  EXPECT_THAT(Infer("UnsortedSegmentSum", kUnsorted, "[6];[6,2];[]", {{2, Int(5)}}),
              IsInvalidArgument("Shape must be at least rank 2 but is rank 1"));
  EXPECT_THAT(Infer("UnsortedSegmentSum", kUnsorted, "[6];[6];[1]", {{2, Ints({5})}}),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("UnsortedSegmentSum", kUnsorted, "[6];[6];[]", {{2, Int(-1)}}),
              IsInvalidArgument("Dimension size, given by scalar input 2, must be non-negative"));
}

TEST(SegmentShapeTest, UnknownRowsThenInnerData) {
  EXPECT_EQ(Infer("SegmentSum", "T=DT_FLOAT, Tindices=DT_INT32", "[5,3];[5]"), "[?,3]");
  EXPECT_EQ(Infer("SegmentMean", "T=DT_FLOAT, Tindices=DT_INT64", "[5];[4]"), "[?]");
  EXPECT_EQ(Infer("SegmentMax", "T=DT_FLOAT, Tindices=DT_INT32", "?;[5]"), "?");
  EXPECT_EQ(Infer("SegmentProd", "T=DT_FLOAT, Tindices=DT_INT32", "[5,?,2];?"), "[?,?,2]");
  EXPECT_THAT(Infer("SegmentMin", "T=DT_FLOAT, Tindices=DT_INT32", "[];[5]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
  EXPECT_THAT(Infer("SegmentSum", "T=DT_FLOAT, Tindices=DT_INT32", "[5,3];[5,1]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

constexpr char kSparse[] = "T=DT_FLOAT, Tidx=DT_INT32, Tsegmentids=DT_INT32";
constexpr char kSparseNum[] =
    "T=DT_FLOAT, Tidx=DT_INT32, Tsegmentids=DT_INT32, Tnumsegments=DT_INT32";

TEST(SparseSegmentShapeTest, RowsFromNumSegmentsWhenKnown) {
  EXPECT_EQ(Infer("SparseSegmentSum", kSparse, "[5,3];[4];[4]"), "[?,3]");
  EXPECT_EQ(Infer("SparseSegmentMean", kSparse, "[5,3,2];[?];[4]"), "[?,3,2]");
  EXPECT_EQ(Infer("SparseSegmentSqrtN", kSparse, "?;[4];[4]"), "?");
  EXPECT_EQ(Infer("SparseSegmentSumWithNumSegments", kSparseNum, "[5,3];[4];[4];[]", {{3, Int(7)}}),
            "[7,3]");
  EXPECT_EQ(Infer("SparseSegmentMeanWithNumSegments", kSparseNum, "[5,3];[4];[4];[]"), "[?,3]");
  EXPECT_EQ(Infer("SparseSegmentSqrtNWithNumSegments",
                  "T=DT_FLOAT, Tidx=DT_INT64, Tsegmentids=DT_INT64, Tnumsegments=DT_INT64",
                  "[5];[4];[4];[]", {{3, Int64(2)}}),
            "[2]");
}

TEST(SparseSegmentShapeTest, RejectsBadShapes) {
  EXPECT_THAT(Infer("SparseSegmentSum", kSparse, "[5,3];[4];[3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal, but are 4 and 3"));
  EXPECT_THAT(Infer("SparseSegmentSum", kSparse, "[];[4];[4]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
  EXPECT_THAT(Infer("SparseSegmentMean", kSparse, "[5,3];[4,1];[4]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
  EXPECT_THAT(Infer("SparseSegmentSumWithNumSegments", kSparseNum, "[5,3];[4];[4];[1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(
      Infer("SparseSegmentSumWithNumSegments", kSparseNum, "[5,3];[4];[4];[]", {{3, Int(-1)}}),
      IsInvalidArgument("Cannot specify a negative value for num_segments"));
}

TEST(EuclideanNormShapeTest, ReducesTheGivenAxes) {
  EXPECT_EQ(Infer("EuclideanNorm", "T=DT_FLOAT, Tidx=DT_INT32", "[2,3,4];[1]", {{1, Ints({1})}}),
            "[2,4]");
  EXPECT_EQ(Infer("EuclideanNorm", "T=DT_FLOAT, Tidx=DT_INT32, keep_dims=true", "[2,3,4];[2]",
                  {{1, Ints({0, -1})}}),
            "[1,3,1]");
  EXPECT_EQ(Infer("EuclideanNorm", "T=DT_FLOAT, Tidx=DT_INT32", "[2,3,4];[1]"), "?");
  EXPECT_THAT(Infer("EuclideanNorm", "T=DT_FLOAT, Tidx=DT_INT32", "[2,3,4];[1]", {{1, Ints({3})}}),
              IsInvalidArgument("Invalid reduction dimension"));
}

TEST(L2LossShapeTest, Scalar) {
  EXPECT_EQ(Infer("L2Loss", "T=DT_FLOAT", "[2,3]"), "[]");
  EXPECT_EQ(Infer("L2Loss", "T=DT_HALF", "?"), "[]");
}

TEST(CumulativeLogsumexpShapeTest, Unchanged) {
  EXPECT_EQ(Infer("CumulativeLogsumexp", "T=DT_FLOAT, Tidx=DT_INT32", "[2,3];[]"), "[2,3]");
  EXPECT_EQ(Infer("CumulativeLogsumexp", "T=DT_DOUBLE, Tidx=DT_INT64", "?;[]"), "?");
}

TEST(SparseSegmentGradShapeTest, RowsFromOutputDim0OrUnique) {
  EXPECT_EQ(Infer("SparseSegmentSumGrad", "T=DT_FLOAT", "[3,4];[5];[5];[]", {{3, Int(7)}}),
            "[7,4]");
  EXPECT_EQ(Infer("SparseSegmentMeanGrad", "T=DT_DOUBLE, Tidx=DT_INT64", "[3,4,2];[?];[5];[]"),
            "[?,4,2]");
  EXPECT_EQ(Infer("SparseSegmentSqrtNGrad", "T=DT_HALF", "?;[5];[?];[]", {{3, Int(2)}}), "?");
  EXPECT_EQ(Infer("SparseSegmentSumGradV2", "T=DT_FLOAT", "[3,4];[5];[5];[]", {{3, Int(7)}}),
            "[?,4];[?]");
  EXPECT_EQ(Infer("SparseSegmentMeanGradV2", "T=DT_BFLOAT16", "[3];[5];[5];[]"), "[?];[?]");
  EXPECT_THAT(Infer("SparseSegmentSumGrad", "T=DT_FLOAT", "[3,4];[5];[5];[]", {{3, Int(-1)}}),
              IsInvalidArgument("Cannot specify a negative value for output_dim0"));
  EXPECT_THAT(Infer("SparseSegmentMeanGrad", "T=DT_FLOAT", "[3,4];[5];[4];[]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal, but are 4 and 5"));
  EXPECT_THAT(Infer("SparseSegmentSqrtNGradV2", "T=DT_FLOAT", "[3,4];[5];[5];[1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("SparseSegmentSumGrad", "T=DT_FLOAT", "[];[5];[5];[]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
