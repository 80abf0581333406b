#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(AsStringShapeTest, Unchanged) {
  EXPECT_EQ(Infer("AsString", "T=DT_FLOAT", "[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("AsString", "T=DT_INT64, width=4, fill='0'", "[?]"), "[?]");
  EXPECT_EQ(Infer("AsString", "T=DT_STRING", "?"), "?");
  EXPECT_EQ(Infer("AsString", "T=DT_BOOL", "[]"), "[]");
}

TEST(StringToHashBucketShapeTest, Unchanged) {
  EXPECT_EQ(Infer("StringToHashBucketFast", "num_buckets=10", "[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("StringToHashBucketFast", "num_buckets=1", "?"), "?");
  EXPECT_EQ(Infer("StringToHashBucketStrong", "num_buckets=7, key=[1, 2]", "[4]"), "[4]");
  EXPECT_EQ(Infer("StringToHashBucketStrong", "num_buckets=7, key=[1, 2]", "[]"), "[]");
  EXPECT_EQ(Infer("StringToHashBucket", "num_buckets=3", "[1,2,3]"), "[1,2,3]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
