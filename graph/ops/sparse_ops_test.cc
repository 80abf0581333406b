#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(SparseToDenseShapeTest, FromOutputShapeTensor) {
  EXPECT_EQ(Infer("SparseToDense", "T=DT_FLOAT, Tindices=DT_INT32", "[2,2];[2];[2];[]",
                  {{1, Ints({3, 4})}}),
            "[3,4]");
  EXPECT_EQ(
      Infer("SparseToDense", "T=DT_STRING, Tindices=DT_INT64", "[3];[1];[];[]", {{1, Int64s({5})}}),
      "[5]");
  EXPECT_EQ(Infer("SparseToDense", "T=DT_FLOAT, Tindices=DT_INT32", "[2,3];[3];[2];[]"), "[?,?,?]");
  EXPECT_EQ(Infer("SparseToDense", "T=DT_FLOAT, Tindices=DT_INT32", "?;?;?;?"), "?");
  EXPECT_EQ(Infer("SparseToDense", "T=DT_INT64, Tindices=DT_INT64", "[2,2];[2];[];[]",
                  {{1, Int64s({-1, 4})}}),
            "[?,4]");
}

TEST(SparseToDenseShapeTest, Errors) {
  EXPECT_THAT(Infer("SparseToDense", "T=DT_FLOAT, Tindices=DT_INT32", "[2,2];[2,1];[2];[]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(SparseCrossShapeTest, AlwaysTheSame) {
  EXPECT_EQ(Infer("SparseCross",
                  "N=2, hashed_output=true, num_buckets=10, hash_key=5, "
                  "sparse_types=[DT_INT64, DT_STRING], dense_types=[DT_STRING], "
                  "out_type=DT_INT64, internal_type=DT_INT64",
                  "[?,2];[?,2];[?];[?];[2];[2];[3,1]"),
            "[?,2];[?];[2]");
  EXPECT_EQ(Infer("SparseCross",
                  "N=0, hashed_output=false, num_buckets=0, hash_key=0, sparse_types=[], "
                  "dense_types=[DT_STRING, DT_INT64], out_type=DT_STRING, "
                  "internal_type=DT_STRING",
                  "?;?"),
            "[?,2];[?];[2]");
}

TEST(SparseCrossV2ShapeTest, AlwaysTheSame) {
  EXPECT_EQ(Infer("SparseCrossV2", "N=1, sparse_types=[DT_STRING], dense_types=[DT_INT64]",
                  "[?,2];[?];[2];[4,2];[]"),
            "[?,2];[?];[2]");
}

TEST(SparseCrossHashedShapeTest, AlwaysTheSame) {
  EXPECT_EQ(Infer("SparseCrossHashed", "N=1, sparse_types=[DT_INT64], dense_types=[]",
                  "[?,2];[?];[2];[];[];[2]"),
            "[?,2];[?];[2]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
