// Shape functions of QuantizeV2, Dequantize and the QuantizeAndDequantize ops: the output is
// the input's shape, and the ranges are scalars, or vectors of the `axis` dimension.
#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(QuantizeShapeTest, QuantizeV2RangesFollowTheAxis) {
  EXPECT_EQ(Infer("QuantizeV2", "T=DT_QINT8", "[2,?];[];[]"), "[2,?];[];[]");
  EXPECT_EQ(Infer("QuantizeV2", "T=DT_QUINT8", "?;?;?"), "?;[];[]");
  EXPECT_EQ(Infer("QuantizeV2", "T=DT_QINT8, axis=1", "[2,3];[?];[3]"), "[2,3];[3];[3]");
  EXPECT_EQ(Infer("QuantizeV2", "T=DT_QINT32, axis=0", "?;[?];[?]"), "?;[?];[?]");
  EXPECT_EQ(Infer("QuantizeV2", "T=DT_QINT8, axis=1", "[2,?];[4];[?]"), "[2,?];[?];[?]");
  EXPECT_THAT(Infer("QuantizeV2", "T=DT_QINT8", "[2];[1];[]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("QuantizeV2", "T=DT_QINT8, axis=0", "[2];[];[2]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
  EXPECT_THAT(Infer("QuantizeV2", "T=DT_QINT8, axis=1", "[2,3];[3];[2]"),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 3"));
  EXPECT_THAT(Infer("QuantizeV2", "T=DT_QINT8, axis=2", "[2,3];[3];[3]"),
              IsInvalidArgument("Shape must be at least rank 3 but is rank 2"));
  EXPECT_THAT(Infer("QuantizeV2", "T=DT_QINT8, axis=-2", "[2,3];[];[]"),
              IsInvalidArgument("axis should be at least -1, got -2"));
}

TEST(QuantizeShapeTest, DequantizeKeepsTheInputShape) {
  EXPECT_EQ(Infer("Dequantize", "T=DT_QINT8", "[2,?];[];[]"), "[2,?]");
  EXPECT_EQ(Infer("Dequantize", "T=DT_QUINT16, dtype=DT_BFLOAT16", "?;[];[]"), "?");
  EXPECT_EQ(Infer("Dequantize", "T=DT_QINT8, axis=0", "[4,3];[4];[?]"), "[4,3]");
  EXPECT_THAT(Infer("Dequantize", "T=DT_QINT8, axis=0", "[4,3];[?];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 4"));
  EXPECT_THAT(Infer("Dequantize", "T=DT_QINT8", "[4,3];[];[1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("Dequantize", "T=DT_QINT8, axis=-3", "[4,3];[];[]"),
              IsInvalidArgument("axis should be at least -1, got -3"));
  EXPECT_THAT(Infer("Dequantize", "T=DT_QINT8, axis=1", "[4];[4];[4]"),
              IsInvalidArgument("Shape must be at least rank 2 but is rank 1"));
  // An axis needs an input of known rank in TensorFlow 2.21, checked before the ranges.
  EXPECT_THAT(Infer("Dequantize", "T=DT_QINT8, axis=0", "?;[];?"),
              IsInvalidArgument("Axis must be less than input dimension(-1), got 0"));
  EXPECT_EQ(Infer("Dequantize", "T=DT_QINT8, axis=1", "[?,?];[?];[?]"), "[?,?]");
  // An axis of int32's maximum is named as such, whether the rank is known or not.
  EXPECT_THAT(Infer("Dequantize", "T=DT_QINT32, axis=2147483647", "[2];[1];[1]"),
              IsInvalidArgument("Axis must be less than input dimension(1), got 2147483647"));
  EXPECT_THAT(Infer("Dequantize", "T=DT_QINT32, axis=2147483647", "?;[1];[1]"),
              IsInvalidArgument("Axis must be less than input dimension(-1), got 2147483647"));
}

TEST(QuantizeShapeTest, QuantizeAndDequantizeMergesTheRanges) {
  EXPECT_EQ(Infer("QuantizeAndDequantizeV2", "T=DT_FLOAT", "[2,?];[];[]"), "[2,?]");
  EXPECT_EQ(Infer("QuantizeAndDequantizeV4", "T=DT_DOUBLE", "?;?;?"), "?");
  EXPECT_EQ(Infer("QuantizeAndDequantizeV4", "T=DT_FLOAT, axis=1", "[2,3];[?];[3]"), "[2,3]");
  EXPECT_EQ(Infer("QuantizeAndDequantizeV3", "T=DT_FLOAT", "[5];[];[];[]"), "[5]");
  EXPECT_EQ(Infer("QuantizeAndDequantizeV3", "T=DT_FLOAT, axis=0", "[5];[5];[?];?"), "[5]");
  EXPECT_THAT(Infer("QuantizeAndDequantizeV2", "T=DT_FLOAT", "[2];[2];[]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV2", "T=DT_FLOAT, axis=0", "[2];[2];[3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal, but are 3 and 2"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV4", "T=DT_FLOAT, axis=0", "[2];[3];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 2"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV4", "T=DT_FLOAT, axis=1", "[2];[2];[2]"),
              IsInvalidArgument("Shape must be at least rank 2 but is rank 1"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV4", "T=DT_FLOAT, axis=-2", "[2,3];[3];[3]"),
              IsInvalidArgument("axis should be at least -1, got -2"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV3", "T=DT_FLOAT", "[5];[];[];[1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV2", "T=DT_FLOAT, axis=-2", "[1];[];[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV4Grad", "T=DT_FLOAT, axis=-2", "?;?;[];?"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV2", "T=DT_FLOAT, axis=2147483647", "[1];[1];[1]"),
              IsInvalidArgument("Axis cannot be >= kint32max value, got 2147483647"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV4Grad", "T=DT_FLOAT, axis=2147483647", "?;?;[1];[1]"),
              IsInvalidArgument("Axis cannot be >= kint32max value, got 2147483647"));
}

TEST(QuantizeShapeTest, QuantizeAndDequantizeV4GradOutputsTheRangeShapes) {
  EXPECT_EQ(Infer("QuantizeAndDequantizeV4Grad", "T=DT_FLOAT", "[2,?];[?,3];[];[]"), "[2,3];[];[]");
  EXPECT_EQ(Infer("QuantizeAndDequantizeV4Grad", "T=DT_FLOAT, axis=1", "[2,3];?;[?];[?]"),
            "[2,3];[?];[?]");
  EXPECT_THAT(Infer("QuantizeAndDequantizeV4Grad", "T=DT_FLOAT", "[2,3];[3,2];[];[]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal, but are 2 and 3"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV4Grad", "T=DT_FLOAT, axis=1", "[2,3];?;[2];[2]"),
              IsInvalidArgument("Dimensions must be equal, but are 2 and 3"));
  EXPECT_THAT(Infer("QuantizeAndDequantizeV4Grad", "T=DT_FLOAT, axis=-2", "[2,3];?;[2];[2]"),
              IsInvalidArgument("axis should be at least -1, got -2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
