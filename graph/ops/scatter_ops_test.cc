#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

constexpr char kTensorScatter[] = "T=DT_FLOAT, Tindices=DT_INT32";

TEST(TensorScatterShapeTest, OutputIsTensorShape) {
  EXPECT_EQ(Infer("TensorScatterUpdate", kTensorScatter, "[4,3];[8,2];[8]"), "[4,3]");
  EXPECT_EQ(Infer("TensorScatterAdd", kTensorScatter, "[4,3];[8,1];[8,3]"), "[4,3]");
  EXPECT_EQ(Infer("TensorScatterSub", kTensorScatter, "[?,?];[?,2];[?]"), "[?,?]");
  EXPECT_EQ(Infer("TensorScatterMax", kTensorScatter, "?;[8,1];[8,2]"), "?");
  EXPECT_EQ(Infer("TensorScatterMin", kTensorScatter, "[4,3];?;[8,3]"), "[4,3]");
  EXPECT_EQ(Infer("TensorScatterUpdate", kTensorScatter, "[4,3];[8,?];[8,5]"), "[4,3]");
}

TEST(TensorScatterShapeTest, RejectsMismatchedShapes) {
  EXPECT_THAT(Infer("TensorScatterUpdate", kTensorScatter, "[];[8,1];[8,2]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
  EXPECT_THAT(Infer("TensorScatterUpdate", kTensorScatter, "[4];[];[8]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
  EXPECT_THAT(Infer("TensorScatterUpdate", kTensorScatter, "[0,2,2];[8,2];[8]"),
              IsInvalidArgument("Indices and updates specified for empty input"));
  EXPECT_THAT(Infer("TensorScatterUpdate", kTensorScatter, "[?,?];[8,2];[9]"),
              IsInvalidArgument("Dimensions [0,1) of indices[shape=[8,2]] = [8] must match "
                                "dimensions [0,1) of updates[shape=[9]] = [9]"));
  EXPECT_THAT(Infer("TensorScatterAdd", kTensorScatter, "[?,?];[?,2];[?,1]"),
              IsInvalidArgument("Dimensions [2,2) of input[shape=[?,?]] = [] must match "
                                "dimensions [1,2) of updates[shape=[?,1]] = [1]"));
  EXPECT_THAT(Infer("TensorScatterAdd", kTensorScatter, "[4,3];[8,1];[8,2]"),
              IsInvalidArgument("Dimensions [1,2) of input[shape=[4,3]] = [3] must match "
                                "dimensions [1,2) of updates[shape=[8,2]] = [2]"));
}

TEST(ScatterNdShapeTest, OutputFromShapeTensor) {
  EXPECT_EQ(Infer("ScatterNd", kTensorScatter, "[8,1];[8,3];[2]", {{2, Ints({5, 3})}}), "[5,3]");
  EXPECT_EQ(
      Infer("ScatterNd", "T=DT_FLOAT, Tindices=DT_INT64", "[8,2];[8];[2]", {{2, Int64s({5, 3})}}),
      "[5,3]");
  EXPECT_EQ(Infer("ScatterNd", kTensorScatter, "[8,1];[8,3];[2]"), "[?,?]");
  EXPECT_EQ(Infer("ScatterNd", kTensorScatter, "?;?;[3]"), "[?,?,?]");
}

TEST(ScatterNdShapeTest, RejectsBadShapes) {
  EXPECT_THAT(Infer("ScatterNd", kTensorScatter, "[8,1];[8,3];[2]", {{2, Ints({5, 4})}}),
              IsInvalidArgument("Dimensions [1,2) of input[shape=[5,4]] = [4] must match "
                                "dimensions [1,2) of updates[shape=[8,3]] = [3]"));
  EXPECT_THAT(Infer("ScatterNd", kTensorScatter, "[8,1];[8,3];[2]", {{2, Ints({0, 3})}}),
              IsInvalidArgument("Indices and updates specified for empty input"));
  EXPECT_THAT(Infer("ScatterNd", kTensorScatter, "[];[8,3];[2]", {{2, Ints({5, 3})}}),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
  EXPECT_THAT(Infer("ScatterNd", kTensorScatter, "[8,1];[];[2]", {{2, Ints({5, 3})}}),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
