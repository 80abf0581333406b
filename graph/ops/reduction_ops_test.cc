#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ReductionShapeTest, KnownAxes) {
  EXPECT_EQ(Infer("Sum", "T=DT_FLOAT", "[2,3,4];[1]", {{1, Ints({1})}}), "[2,4]");
  EXPECT_EQ(Infer("Sum", "T=DT_FLOAT", "[2,3,4];[2]", {{1, Ints({0, -1})}}), "[3]");
  EXPECT_EQ(Infer("Mean", "T=DT_FLOAT, keep_dims=true", "[2,3,4];[2]", {{1, Ints({0, -1})}}),
            "[1,3,1]");
  EXPECT_EQ(Infer("Max", "T=DT_INT32", "[2,?];[]", {{1, Int(0)}}), "[?]");
  EXPECT_EQ(Infer("Min", "T=DT_FLOAT, Tidx=DT_INT64", "[2,3];[2]", {{1, Int64s({1, 1})}}), "[2]");
  EXPECT_EQ(Infer("Prod", "T=DT_FLOAT", "[2,3];[0]", {{1, Ints({})}}), "[2,3]");
  EXPECT_EQ(Infer("All", "", "[2,3];[2]", {{1, Ints({0, 1})}}), "[]");
  EXPECT_EQ(Infer("Any", "keep_dims=true", "[2,3];[1]", {{1, Ints({-2})}}), "[1,3]");
}

TEST(ReductionShapeTest, UnknownAxesOrRank) {
  EXPECT_EQ(Infer("Sum", "T=DT_FLOAT", "[2,3];[1]"), "?");
  EXPECT_EQ(Infer("Sum", "T=DT_FLOAT, keep_dims=true", "[2,3];[1]"), "[?,?]");
  EXPECT_EQ(Infer("Sum", "T=DT_FLOAT, keep_dims=true", "?;[1]", {{1, Ints({0})}}), "?");
  EXPECT_EQ(Infer("Sum", "T=DT_FLOAT", "?;[1]", {{1, Ints({0})}}), "?");
}

TEST(ReductionShapeTest, RejectsBadAxes) {
  EXPECT_THAT(Infer("Sum", "T=DT_FLOAT", "[2,3];[1]", {{1, Ints({2})}}),
              IsInvalidArgument("Invalid reduction dimension 2 for input with 2 dimensions"));
  EXPECT_THAT(Infer("Mean", "T=DT_FLOAT", "[2,3];[1]", {{1, Ints({-3})}}),
              IsInvalidArgument("Invalid reduction dimension -3"));
  EXPECT_THAT(Infer("Sum", "T=DT_FLOAT", "[2,3];[1,1]"),
              IsInvalidArgument("Shape must be at most rank 1 but is rank 2"));
}

TEST(ArgMaxShapeTest, RemovesTheAxis) {
  EXPECT_EQ(Infer("ArgMax", "T=DT_FLOAT", "[2,3,4];[]", {{1, Int(1)}}), "[2,4]");
  EXPECT_EQ(Infer("ArgMin", "T=DT_FLOAT", "[2,3,4];[]", {{1, Int(-1)}}), "[2,3]");
  EXPECT_EQ(Infer("ArgMax", "T=DT_FLOAT, Tidx=DT_INT64, output_type=DT_INT32", "[2,?];[]",
                  {{1, Int64(0)}}),
            "[?]");
  // differs from TensorFlow, which reads an int16 dimension as int64 and so uses garbage.
  EXPECT_EQ(Infer("ArgMax", "T=DT_FLOAT, Tidx=DT_INT16", "[2,5];[]", {{1, Scalar<int16_t>(1)}}),
            "[2]");
}

TEST(ArgMaxShapeTest, UnknownAxisOrRank) {
  EXPECT_EQ(Infer("ArgMax", "T=DT_FLOAT", "[2,3,4];[]"), "[?,?]");
  EXPECT_EQ(Infer("ArgMin", "T=DT_FLOAT", "?;[]", {{1, Int(0)}}), "?");
  // A scalar or vector reduces to a scalar whatever the axis says.
  EXPECT_EQ(Infer("ArgMax", "T=DT_FLOAT", "[5];[]"), "[]");
  EXPECT_EQ(Infer("ArgMax", "T=DT_FLOAT", "[];[]", {{1, Int(7)}}), "[]");
}

TEST(ArgMaxShapeTest, RejectsBadAxis) {
  EXPECT_THAT(Infer("ArgMax", "T=DT_FLOAT", "[2,3];[]", {{1, Int(2)}}),
              IsInvalidArgument("Dimension (2) must be in the range [-2, 2)"));
  EXPECT_THAT(Infer("ArgMin", "T=DT_FLOAT", "[2,3];[]", {{1, Int(-3)}}),
              IsInvalidArgument("Dimension (-3) must be in the range [-2, 2)"));
  EXPECT_THAT(Infer("ArgMax", "T=DT_FLOAT", "[2,3];[1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
