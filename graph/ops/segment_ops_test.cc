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

}  // namespace
}  // namespace ops_test
}  // namespace sluice
