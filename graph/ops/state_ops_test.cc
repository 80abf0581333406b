#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(VariableV2ShapeTest, ShapeAttr) {
  EXPECT_EQ(Infer("VariableV2", "dtype=DT_FLOAT, shape=[2,3]", ""), "[2,3]");
  EXPECT_EQ(Infer("VariableV2", "dtype=DT_INT32, shape=[?,3]", ""), "[?,3]");
  EXPECT_EQ(Infer("VariableV2", "dtype=DT_FLOAT, shape=?", ""), "?");
  EXPECT_EQ(Infer("VariableV2", "dtype=DT_FLOAT, shape=[]", ""), "[]");
}

TEST(AssignShapeTest, ValidateShapeMergesBothInputs) {
  EXPECT_EQ(Infer("Assign", "T=DT_FLOAT", "[2,?];[?,3]"), "[2,3]");
  EXPECT_EQ(Infer("Assign", "T=DT_FLOAT, validate_shape=true", "?;[4]"), "[4]");
  EXPECT_THAT(Infer("Assign", "T=DT_FLOAT", "[2,3];[2,4]"),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
  EXPECT_THAT(Infer("Assign", "T=DT_FLOAT", "[2];[2,1]"),
              IsInvalidArgument("Shapes must be equal rank"));
}

TEST(AssignShapeTest, WithoutValidationTakesTheValueShape) {
  EXPECT_EQ(Infer("Assign", "T=DT_FLOAT, validate_shape=false", "[2,3];[5]"), "[5]");
  EXPECT_EQ(Infer("Assign", "T=DT_INT64, validate_shape=false", "[2];?"), "?");
}

TEST(AssignAddSubShapeTest, MergesBothInputs) {
  EXPECT_EQ(Infer("AssignAdd", "T=DT_FLOAT", "[2,?];[?,3]"), "[2,3]");
  EXPECT_EQ(Infer("AssignSub", "T=DT_INT32", "?;?"), "?");
  EXPECT_THAT(Infer("AssignAdd", "T=DT_FLOAT", "[2];[3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(Infer("AssignSub", "T=DT_DOUBLE", "[2];[2,2]"),
              IsInvalidArgument("Shapes must be equal rank"));
}

TEST(IsVariableInitializedShapeTest, Scalar) {
  EXPECT_EQ(Infer("IsVariableInitialized", "dtype=DT_FLOAT", "[2,3]"), "[]");
  EXPECT_EQ(Infer("IsVariableInitialized", "dtype=DT_STRING", "?"), "[]");
}

TEST(ScatterShapeTest, UpdatesAreIndicesShapeThenTheRowShape) {
  EXPECT_EQ(Infer("ScatterAdd", "T=DT_FLOAT, Tindices=DT_INT32", "[5,3];[2];[2,3]"), "[5,3]");
  EXPECT_EQ(Infer("ScatterUpdate", "T=DT_STRING, Tindices=DT_INT64", "[5,3];[2,2];[2,2,3]"),
            "[5,3]");
  EXPECT_EQ(Infer("ScatterMul", "T=DT_INT32, Tindices=DT_INT32", "[5,3];[2];[]"), "[5,3]");
  EXPECT_EQ(Infer("ScatterMax", "T=DT_HALF, Tindices=DT_INT32", "?;[4];[?,7]"), "?");
  EXPECT_EQ(Infer("ScatterDiv", "T=DT_DOUBLE, Tindices=DT_INT32", "[5];[];[]"), "[5]");
  EXPECT_THAT(Infer("ScatterSub", "T=DT_FLOAT, Tindices=DT_INT32", "[5,3];[2];[2,4]"),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
  EXPECT_THAT(Infer("ScatterMin", "T=DT_FLOAT, Tindices=DT_INT64", "[5,3];[2];[3]"),
              IsInvalidArgument("Shapes must be equal rank"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
