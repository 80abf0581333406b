#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(RollShapeTest, UnchangedAfterChecks) {
  EXPECT_EQ(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[2,3];[];[]"), "[2,3]");
  EXPECT_EQ(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT64, Taxis=DT_INT32", "[2,?];[2];[2]"), "[2,?]");
  EXPECT_EQ(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT64", "?;[?];[3]"), "?");
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[];[];[]"),
              IsInvalidArgument("at least rank 1"));
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[3];[1,1];[]"),
              IsInvalidArgument("at most rank 1"));
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[3];[];[2,1]"),
              IsInvalidArgument("at most rank 1"));
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[3];[2];[1]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(Infer("Roll", "T=DT_FLOAT, Tshift=DT_INT32, Taxis=DT_INT32", "[3];[];[1]"),
              IsInvalidArgument("Shapes must be equal rank"));
}

TEST(InvertPermutationShapeTest, Vector) {
  EXPECT_EQ(Infer("InvertPermutation", "T=DT_INT32", "[5]"), "[5]");
  EXPECT_EQ(Infer("InvertPermutation", "T=DT_INT64", "?"), "[?]");
  EXPECT_THAT(Infer("InvertPermutation", "T=DT_INT32", "[2,2]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(UnravelIndexShapeTest, ScalarOrVector) {
  EXPECT_EQ(Infer("UnravelIndex", "Tidx=DT_INT32", "[];[3]"), "[3]");
  EXPECT_EQ(Infer("UnravelIndex", "Tidx=DT_INT32", "[5];[3]"), "[3,5]");
  EXPECT_EQ(Infer("UnravelIndex", "Tidx=DT_INT64", "[2,3];[?]"), "[?,6]");
  EXPECT_EQ(Infer("UnravelIndex", "Tidx=DT_INT32", "?;[3]"), "?");
  EXPECT_THAT(Infer("UnravelIndex", "Tidx=DT_INT32", "[5];[]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(BitcastShapeTest, SizeRatios) {
  EXPECT_EQ(Infer("Bitcast", "T=DT_FLOAT, type=DT_INT32", "[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Bitcast", "T=DT_FLOAT, type=DT_UINT8", "[2,3]"), "[2,3,4]");
  EXPECT_EQ(Infer("Bitcast", "T=DT_UINT8, type=DT_INT32", "[2,4]"), "[2]");
  EXPECT_EQ(Infer("Bitcast", "T=DT_INT16, type=DT_COMPLEX128", "[?]"), "[]");
  EXPECT_EQ(Infer("Bitcast", "T=DT_UINT8, type=DT_INT32", "?"), "?");
  EXPECT_THAT(Infer("Bitcast", "T=DT_UINT8, type=DT_INT32", "[2,3]"),
              IsInvalidArgument("Cannot bitcast due to shape. 3 does not match 4"));
  EXPECT_THAT(Infer("Bitcast", "T=DT_UINT8, type=DT_INT16", "[]"),
              IsInvalidArgument("at least rank 1"));
}

TEST(EmptyShapeTest, FromShapeTensor) {
  EXPECT_EQ(Infer("Empty", "dtype=DT_FLOAT", "[2]", {{0, Ints({2, 3})}}), "[2,3]");
  EXPECT_EQ(Infer("Empty", "dtype=DT_FLOAT", "[2]"), "[?,?]");
  EXPECT_EQ(Infer("Empty", "dtype=DT_FLOAT, init=true", "[0]", {{0, Ints({})}}), "[]");
  EXPECT_THAT(Infer("Empty", "dtype=DT_FLOAT", "[2]", {{0, Ints({2, -3})}}),
              IsInvalidArgument("-3"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
