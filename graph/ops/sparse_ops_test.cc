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

TEST(SparseFillEmptyRowsShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseFillEmptyRows", "T=DT_FLOAT", "[5,2];[5];[2];[]", {{2, Int64s({4, 7})}}),
            "[?,2];[?];[4];[5]");
  EXPECT_EQ(Infer("SparseFillEmptyRows", "T=DT_STRING", "[?,3];[6];[3];[]"), "[?,3];[?];[?];[6]");
  EXPECT_EQ(Infer("SparseFillEmptyRows", "T=DT_INT32", "?;?;?;?"), "[?,?];[?];[?];[?]");
  EXPECT_THAT(Infer("SparseFillEmptyRows", "T=DT_FLOAT", "[5,2];[4];[2];[]"),
              IsInvalidArgument("must be equal"));
  EXPECT_THAT(Infer("SparseFillEmptyRows", "T=DT_FLOAT", "[5,2];[5];[3];[]"),
              IsInvalidArgument("must be equal"));
  EXPECT_THAT(Infer("SparseFillEmptyRows", "T=DT_FLOAT", "[5,2];[5];[2];[1]"),
              IsInvalidArgument("must be rank 0"));
}

TEST(SparseFillEmptyRowsGradShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseFillEmptyRowsGrad", "T=DT_FLOAT", "[4];[7]"), "[4];[]");
  EXPECT_THAT(Infer("SparseFillEmptyRowsGrad", "T=DT_FLOAT", "[4,1];[7]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(SparseReshapeShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseReshape", "", "[5,2];[2];[3]"), "[5,3];[3]");
  EXPECT_EQ(Infer("SparseReshape", "", "?;?;?"), "[?,?];[?]");
  EXPECT_THAT(Infer("SparseReshape", "", "[5];[2];[3]"), IsInvalidArgument("must be rank 2"));
}

TEST(SparseReorderShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseReorder", "T=DT_FLOAT", "[5,2];[5];[2]"), "[5,2];[5]");
  EXPECT_THAT(Infer("SparseReorder", "T=DT_FLOAT", "[5,2];[5];[]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(SparseTensorDenseMatMulShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseTensorDenseMatMul",
                  "T=DT_FLOAT, Tindices=DT_INT64, adjoint_a=false, adjoint_b=false",
                  "[?,2];[?];[2];[4,3]", {{2, Int64s({5, 4})}}),
            "[5,3]");
  EXPECT_EQ(Infer("SparseTensorDenseMatMul",
                  "T=DT_FLOAT, Tindices=DT_INT64, adjoint_a=false, adjoint_b=false",
                  "[?,2];[?];[2];[4,3]"),
            "[?,3]");
  EXPECT_EQ(Infer("SparseTensorDenseMatMul",
                  "T=DT_FLOAT, Tindices=DT_INT32, adjoint_a=true, adjoint_b=true",
                  "[?,2];[?];[2];[3,4]", {{2, Int64s({4, 5})}}),
            "[5,3]");
  EXPECT_THAT(Infer("SparseTensorDenseMatMul",
                    "T=DT_FLOAT, Tindices=DT_INT64, adjoint_a=false, adjoint_b=false",
                    "[?,2];[?];[2];[5,3]", {{2, Int64s({5, 4})}}),
              IsInvalidArgument("must be equal"));
  EXPECT_THAT(
      Infer("SparseTensorDenseMatMul",
            "T=DT_FLOAT, Tindices=DT_INT64, adjoint_a=false, adjoint_b=false", "[?,2];[?];[2];[5]"),
      IsInvalidArgument("must be at least rank 2"));
}

TEST(SparseAddShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseAdd", "T=DT_FLOAT, Treal=DT_FLOAT", "[?,3];[?];[3];[?,3];[?];[3];[]"),
            "[?,3];[?];[3]");
  EXPECT_THAT(Infer("SparseAdd", "T=DT_FLOAT, Treal=DT_FLOAT", "[?,3];[?];[];[?,3];[?];[3];[]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_EQ(Infer("SparseAddGrad", "T=DT_FLOAT", "[7];[4,2];[5,2];[7,2]"), "[4];[5]");
}

TEST(SparseTensorDenseAddShapeTest, IsB) {
  EXPECT_EQ(Infer("SparseTensorDenseAdd", "T=DT_FLOAT, Tindices=DT_INT32", "[?,2];[?];[2];[4,5]"),
            "[4,5]");
}

TEST(SparseReduceShapeTest, Unknown) {
  EXPECT_EQ(Infer("SparseReduceSum", "T=DT_FLOAT, keep_dims=false", "[?,2];[?];[2];[1]"), "?");
  EXPECT_EQ(Infer("SparseReduceMaxSparse", "T=DT_INT32, keep_dims=true", "[?,2];[?];[2];[1]"),
            "?;?;?");
}

TEST(SparseSliceShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseSlice", "T=DT_FLOAT", "[?,3];[?];[3];[3];[3]"), "[?,3];[?];[3]");
  EXPECT_EQ(Infer("SparseSlice", "T=DT_FLOAT", "?;?;?;?;?"), "[?,?];[?];?");
}

TEST(SparseConcatShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseConcat", "N=2, T=DT_FLOAT, concat_dim=0", "[3,2];[4,2];[3];[4];[2];[2]"),
            "[7,2];[7];[2]");
  EXPECT_EQ(Infer("SparseConcat", "N=2, T=DT_FLOAT, concat_dim=0", "[?,2];[4,?];?;[4];?;[2]"),
            "[?,2];[?];[2]");
  EXPECT_THAT(Infer("SparseConcat", "N=2, T=DT_FLOAT, concat_dim=0", "[3,2];[4,2];[2];[4];[2];[2]"),
              IsInvalidArgument("must be equal"));
}

TEST(SparseSplitShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseSplit", "num_split=2, T=DT_FLOAT", "[];[?,3];[?];[3]"),
            "[?,3];[?,3];[?];[?];[3];[3]");
}

TEST(SparseSoftmaxShapeTest, FromInputs) {
  EXPECT_EQ(Infer("SparseSoftmax", "T=DT_FLOAT", "[5,2];[5];[2]"), "[5]");
  EXPECT_THAT(Infer("SparseSoftmax", "T=DT_FLOAT", "[5];[5];[2]"),
              IsInvalidArgument("must be rank 2"));
}

TEST(SparseDenseCwiseShapeTest, OneValuePerIndex) {
  EXPECT_EQ(Infer("SparseDenseCwiseMul", "T=DT_FLOAT", "[5,2];[5];[2];[3,4]"), "[5]");
  EXPECT_EQ(Infer("SparseDenseCwiseDiv", "T=DT_INT32", "?;?;?;?"), "[?]");
}

TEST(SparseSparseMinMaxShapeTest, Unknown) {
  EXPECT_EQ(Infer("SparseSparseMaximum", "T=DT_FLOAT", "[5,2];[5];[2];[3,2];[3];[2]"), "[?,?];[?]");
  EXPECT_THAT(Infer("SparseSparseMinimum", "T=DT_FLOAT", "[5,2];[5];[2];[3];[3];[2]"),
              IsInvalidArgument("must be rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
