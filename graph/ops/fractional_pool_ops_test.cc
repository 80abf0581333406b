#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(FractionalPoolShapeTest, DividesKnownDims) {
  EXPECT_EQ(Infer("FractionalMaxPool", "T=DT_FLOAT, pooling_ratio=[1.0,1.5,1.4,1.0]", "[2,10,7,3]"),
            "[2,6,5,3];[6];[5]");
  // Ratios on the batch and depth and past a dim pass here; the kernel refuses them.
  EXPECT_EQ(Infer("FractionalMaxPool", "T=DT_FLOAT, pooling_ratio=[2.0,1.5,6.5,2.0]", "[2,6,6,2]"),
            "[1,4,0,1];[4];[0]");
  EXPECT_EQ(
      Infer("FractionalAvgPool", "T=DT_DOUBLE, pooling_ratio=[1.0,1.44,1.73,1.0]", "[?,?,7,3]"),
      "[?,?,4,3];[?];[4]");
  EXPECT_EQ(Infer("FractionalMaxPool", "T=DT_INT32, pooling_ratio=[1.0,2.0,2.0,1.0]", "?"),
            "[?,?,?,?];[?];[?]");
}

TEST(FractionalPoolShapeTest, Errors) {
  EXPECT_THAT(Infer("FractionalMaxPool", "T=DT_FLOAT, pooling_ratio=[1.0,1.5,1.5,1.0]", "[2,3,4]"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_THAT(
      Infer("FractionalAvgPool", "T=DT_FLOAT, pooling_ratio=[1.0,1.5,1.5,1.0,1.0]", "[2,3,4,1]"),
      IsInvalidArgument("pooling_ratio field must specify 4 dimensions"));
  EXPECT_THAT(
      Infer("FractionalAvgPool", "T=DT_FLOAT, pooling_ratio=[1.0,-1.5,1.5,1.0]", "[2,3,4,1]"),
      IsInvalidArgument("Size computed for dim 1 is negative: -2"));
}

TEST(FractionalPoolGradShapeTest, InputShapes) {
  EXPECT_EQ(Infer("FractionalMaxPoolGrad", "T=DT_FLOAT", "[2,10,7,3];?;?;?;?"), "[2,10,7,3]");
  EXPECT_THAT(Infer("FractionalMaxPoolGrad", "T=DT_FLOAT", "[2,10,7];?;?;?;?"),
              IsInvalidArgument("Shape must be rank 4 but is rank 3"));
  EXPECT_EQ(Infer("FractionalAvgPoolGrad", "T=DT_FLOAT", "[4];[2,3,4,5];?;?"), "[?,?,?,?]");
  EXPECT_EQ(Infer("FractionalAvgPoolGrad", "T=DT_FLOAT", "[4];[2,3,4,5];?;?",
                  {{0, Int64s({1, 2, 3, 4})}}),
            "[1,2,3,4]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
