#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(BucketizeShapeTest, Unchanged) {
  EXPECT_EQ(Infer("Bucketize", "T=DT_FLOAT, boundaries=[0.0, 1.5]", "[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Bucketize", "T=DT_INT64, boundaries=[]", "[?]"), "[?]");
  EXPECT_EQ(Infer("Bucketize", "T=DT_DOUBLE, boundaries=[1.0]", "?"), "?");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
