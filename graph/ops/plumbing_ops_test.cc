#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ConstShapeTest, ShapeOfValue) {
  EXPECT_EQ(Infer("Const",
                  "dtype=DT_FLOAT, value={ dtype: DT_FLOAT tensor_shape { dim { size: 2 } "
                  "dim { size: 3 } } }",
                  ""),
            "[2,3]");
  EXPECT_EQ(Infer("Const", "dtype=DT_INT32, value={ dtype: DT_INT32 int_val: 7 }", ""), "[]");
}

TEST(ConstShapeTest, RejectsInvalidValueShape) {
  EXPECT_THAT(
      Infer("Const", "dtype=DT_FLOAT, value={ dtype: DT_FLOAT tensor_shape { dim { size: -5 } } }",
            ""),
      IsInvalidArgument(""));
}

TEST(PlaceholderShapeTest, ShapeAttr) {
  EXPECT_EQ(Infer("Placeholder", "dtype=DT_FLOAT, shape=[2,?]", ""), "[2,?]");
  EXPECT_EQ(Infer("Placeholder", "dtype=DT_FLOAT, shape=[]", ""), "[]");
  EXPECT_EQ(Infer("Placeholder", "dtype=DT_FLOAT", ""), "?");
}

TEST(PlaceholderWithDefaultShapeTest, OutputIsTheAttrShape) {
  EXPECT_EQ(Infer("PlaceholderWithDefault", "dtype=DT_FLOAT, shape=[?,3]", "[2,3]"), "[?,3]");
  EXPECT_EQ(Infer("PlaceholderWithDefault", "dtype=DT_FLOAT, shape=?", "[2,4]"), "?");
  EXPECT_THAT(Infer("PlaceholderWithDefault", "dtype=DT_FLOAT, shape=[?,3]", "[2,4]"),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
}

TEST(IdentityShapeTest, PassesShapesThrough) {
  EXPECT_EQ(Infer("Identity", "T=DT_FLOAT", "[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("Identity", "T=DT_STRING", "?"), "?");
  EXPECT_EQ(Infer("Snapshot", "T=DT_INT32", "[]"), "[]");
  EXPECT_EQ(Infer("StopGradient", "T=DT_FLOAT", "[1,2,3]"), "[1,2,3]");
  EXPECT_EQ(Infer("PreventGradient", "T=DT_FLOAT, message='no'", "[?]"), "[?]");
  EXPECT_EQ(Infer("CheckNumerics", "T=DT_HALF, message='bad'", "[4]"), "[4]");
}

TEST(IdentityNShapeTest, OneOutputPerInput) {
  EXPECT_EQ(Infer("IdentityN", "T=[DT_FLOAT, DT_INT32]", "[2];?"), "[2];?");
  EXPECT_EQ(Infer("IdentityN", "T=[DT_BOOL]", "[]"), "[]");
}

TEST(NoOpShapeTest, NoOutputs) { EXPECT_EQ(Infer("NoOp", "", ""), ""); }

TEST(EnsureShapeShapeTest, MergesInputWithAttr) {
  EXPECT_EQ(Infer("EnsureShape", "T=DT_FLOAT, shape=[2,?]", "[?,3]"), "[2,3]");
  EXPECT_EQ(Infer("EnsureShape", "T=DT_FLOAT, shape=[2,?]", "?"), "[2,?]");
  EXPECT_EQ(Infer("EnsureShape", "T=DT_FLOAT, shape=?", "?"), "?");
}

TEST(EnsureShapeShapeTest, RejectsMismatch) {
  EXPECT_THAT(Infer("EnsureShape", "T=DT_FLOAT, shape=[2,?]", "[3,3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(Infer("EnsureShape", "T=DT_FLOAT, shape=[2,?]", "[2]"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
  // TensorFlow reads an unknown-rank attr as "rank -1" and so rejects every known rank.
  EXPECT_THAT(Infer("EnsureShape", "T=DT_FLOAT, shape=?", "[2,3]"),
              IsInvalidArgument("Shape must be rank -1 but is rank 2"));
}

TEST(CheckNumericsV2ShapeTest, Unchanged) {
  EXPECT_EQ(Infer("CheckNumericsV2", "T=DT_FLOAT, message='m'", "[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("GuaranteeConst", "T=DT_STRING", "[3]"), "[3]");
  EXPECT_EQ(Infer("DeepCopy", "T=DT_INT64", "?"), "?");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
