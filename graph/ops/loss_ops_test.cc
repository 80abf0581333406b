#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(SoftmaxCrossEntropyShapeTest, MergesOrBroadcasts) {
  EXPECT_EQ(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "[2,3];[2,3]"), "[2];[2,3]");
  EXPECT_EQ(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "[?,3];[2,?]"), "[2];[2,3]");
  EXPECT_EQ(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "[2,3];?"), "[2];[2,3]");
  EXPECT_EQ(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "[2,3];[3]"), "[2];[2,3]");
  EXPECT_EQ(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "[1,3];[4,1]"), "[4];[4,3]");
  EXPECT_EQ(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "[3];[2,3]"), "[2];[2,3]");
  EXPECT_EQ(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "?;?"), "[?];[?,?]");
  EXPECT_THAT(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "?;[3]"),
              IsInvalidArgument("Shape must be broadcasted with rank 2, but is rank is unknown."));
  EXPECT_THAT(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "[3];[3]"),
              IsInvalidArgument("Shape must be broadcasted with rank 2, but is rank 1"));
  EXPECT_THAT(Infer("SoftmaxCrossEntropyWithLogits", "T=DT_FLOAT", "[2,3];[2,2]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 2"));
}

TEST(SparseSoftmaxCrossEntropyShapeTest, MergesBatch) {
  EXPECT_EQ(
      Infer("SparseSoftmaxCrossEntropyWithLogits", "T=DT_FLOAT, Tlabels=DT_INT32", "[2,3];[2]"),
      "[2];[2,3]");
  EXPECT_EQ(
      Infer("SparseSoftmaxCrossEntropyWithLogits", "T=DT_FLOAT, Tlabels=DT_INT64", "[?,3];[5]"),
      "[5];[5,3]");
  EXPECT_EQ(Infer("SparseSoftmaxCrossEntropyWithLogits", "T=DT_DOUBLE, Tlabels=DT_INT64", "?;?"),
            "[?];[?,?]");
  EXPECT_THAT(
      Infer("SparseSoftmaxCrossEntropyWithLogits", "T=DT_FLOAT, Tlabels=DT_INT32", "[2,3];[4]"),
      IsInvalidArgument("Dimensions must be equal, but are 2 and 4"));
  EXPECT_THAT(
      Infer("SparseSoftmaxCrossEntropyWithLogits", "T=DT_FLOAT, Tlabels=DT_INT32", "[3];[3]"),
      IsInvalidArgument("Shape must be rank 2 but is rank 1"));
  EXPECT_THAT(
      Infer("SparseSoftmaxCrossEntropyWithLogits", "T=DT_FLOAT, Tlabels=DT_INT32", "[2,3];[2,1]"),
      IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

TEST(InTopKShapeTest, OneBoolPerExample) {
  EXPECT_EQ(Infer("InTopK", "k=1, T=DT_INT32", "[4,10];[4]"), "[4]");
  EXPECT_EQ(Infer("InTopK", "k=2, T=DT_INT64", "[?,10];[?]"), "[?]");
  EXPECT_EQ(Infer("InTopKV2", "T=DT_INT32", "[?,10];[3];[]"), "[3]");
  EXPECT_EQ(Infer("InTopKV2", "T=DT_INT64", "?;?;?"), "[?]");
  EXPECT_THAT(Infer("InTopK", "k=1, T=DT_INT32", "[4,10];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 4 and 3"));
  EXPECT_THAT(Infer("InTopKV2", "T=DT_INT32", "[10];[3];[]"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
  EXPECT_THAT(Infer("InTopKV2", "T=DT_INT32", "[4,10];[4,1];[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
