#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(TensorArrayV3ShapeTest, HandleAndFlow) {
  EXPECT_EQ(Infer("TensorArrayV3", "dtype=DT_FLOAT", "[]"), "[2];[]");
  EXPECT_THAT(Infer("TensorArrayV3", "dtype=DT_FLOAT", "[2]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
}

TEST(TensorArrayOpsShapeTest, FlowsAreScalars) {
  EXPECT_EQ(Infer("TensorArrayWriteV3", "T=DT_FLOAT", "[2];[];[3,4];[]"), "[]");
  EXPECT_EQ(Infer("TensorArrayScatterV3", "T=DT_FLOAT", "[2];[5];[5,3];[]"), "[]");
  EXPECT_EQ(Infer("TensorArraySplitV3", "T=DT_FLOAT", "[2];[6,3];[2];[]"), "[]");
  EXPECT_EQ(Infer("TensorArraySizeV3", "", "[2];[]"), "[]");
}

TEST(TensorArrayGatherV3ShapeTest, IndicesThenElementShape) {
  EXPECT_EQ(Infer("TensorArrayGatherV3", "dtype=DT_FLOAT, element_shape=[3,?]", "[2];[5];[]"),
            "[5,3,?]");
  EXPECT_EQ(Infer("TensorArrayGatherV3", "dtype=DT_FLOAT", "[2];[?];[]"), "?");
}

TEST(TensorArrayConcatV3ShapeTest, UnknownValueAndLengths) {
  EXPECT_EQ(Infer("TensorArrayConcatV3", "dtype=DT_FLOAT, element_shape_except0=[4]", "[2];[]"),
            "?;[?]");
}

TEST(TensorArrayGradV3ShapeTest, HandleAndFlow) {
  EXPECT_EQ(Infer("TensorArrayGradV3", "source='gradients'", "[2];[]"), "[2];[]");
  EXPECT_EQ(Infer("TensorArrayGradV3", "source='gradients'", "?;?"), "[2];[]");
  EXPECT_THAT(Infer("TensorArrayGradV3", "source='gradients'", "[];[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
  EXPECT_THAT(Infer("TensorArrayGradV3", "source='gradients'", "[3];[]"),
              IsInvalidArgument("must be 2 but is 3"));
}

TEST(TensorArrayGradWithShapeShapeTest, HandleAndFlow) {
  EXPECT_EQ(Infer("TensorArrayGradWithShape", "source='g'", "[2];[];[2]"), "[2];[]");
  EXPECT_THAT(Infer("TensorArrayGradWithShape", "source='g'", "[2,1];[];[2]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
