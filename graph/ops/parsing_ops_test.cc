#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(DecodeRawShapeTest, AppendsAnUnknownDim) {
  EXPECT_EQ(Infer("DecodeRaw", "out_type=DT_FLOAT", "[2,3]"), "[2,3,?]");
  EXPECT_EQ(Infer("DecodeRaw", "out_type=DT_UINT8, little_endian=false", "[]"), "[?]");
  EXPECT_EQ(Infer("DecodeRaw", "out_type=DT_INT64", "?"), "?");
}

TEST(DecodeCsvShapeTest, OutputsTakeTheRecordsShape) {
  EXPECT_EQ(Infer("DecodeCSV", "OUT_TYPE=[DT_FLOAT, DT_STRING]", "[4,2];[];[1]"), "[4,2];[4,2]");
  EXPECT_EQ(Infer("DecodeCSV", "OUT_TYPE=[DT_INT32]", "?;[0]"), "?");
  EXPECT_THAT(Infer("DecodeCSV", "OUT_TYPE=[DT_INT64]", "[3];[2]"),
              IsInvalidArgument("Shape of a default must be a length-0 or length-1 vector"));
  EXPECT_THAT(Infer("DecodeCSV", "OUT_TYPE=[DT_INT64]", "[3];[1,1]"), IsInvalidArgument("rank"));
}

TEST(ParseExampleShapeTest, BatchVectorPrefixesEveryOutput) {
  EXPECT_EQ(Infer("ParseExample",
                  "Nsparse=1, Ndense=2, sparse_types=[DT_INT64], Tdense=[DT_FLOAT, DT_STRING], "
                  "dense_shapes=[[2], [?,3]]",
                  "[4];[4];[];[];[];[2];[1]"),
            "[?,2];[?];[2];[4,2];[4,?,3]");
  EXPECT_EQ(Infer("ParseExample",
                  "Nsparse=0, Ndense=0, sparse_types=[], Tdense=[], dense_shapes=[]", "?;?"),
            "");
  EXPECT_THAT(Infer("ParseExample",
                    "Nsparse=0, Ndense=1, sparse_types=[], Tdense=[DT_FLOAT], dense_shapes=[[2]]",
                    "[];[];[];[]"),
              IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("ParseExample",
                    "Nsparse=0, Ndense=1, sparse_types=[], Tdense=[DT_FLOAT], dense_shapes=[[2]]",
                    "[2];[2,1];[];[]"),
              IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("ParseExample",
                    "Nsparse=0, Ndense=1, sparse_types=[], Tdense=[DT_FLOAT], dense_shapes=[[2,?]]",
                    "[2];[2];[];[]"),
              IsInvalidArgument("dense_shapes[0] has unknown rank or unknown inner dimensions"));
}

TEST(ParseExampleV2ShapeTest, ScalarOrVectorInput) {
  EXPECT_EQ(Infer("ParseExampleV2",
                  "num_sparse=1, sparse_types=[DT_FLOAT], Tdense=[DT_INT64], dense_shapes=[[3]], "
                  "ragged_value_types=[DT_STRING], ragged_split_types=[DT_INT32]",
                  "[5];[0];[1];[1];[1];[3]"),
            "[?,2];[?];[2];[5,3];[?];[6]");
  EXPECT_EQ(Infer("ParseExampleV2",
                  "num_sparse=1, sparse_types=[DT_FLOAT], Tdense=[DT_INT64], dense_shapes=[[?,2]], "
                  "ragged_value_types=[DT_FLOAT], ragged_split_types=[DT_INT64]",
                  "[];[];[1];[1];[1];[1]"),
            "[?,1];[?];[1];[?,2];[?];[?]");
  EXPECT_EQ(Infer("ParseExampleV2",
                  "num_sparse=1, sparse_types=[DT_FLOAT], Tdense=[], dense_shapes=[], "
                  "ragged_value_types=[DT_INT64], ragged_split_types=[DT_INT64]",
                  "?;?;?;?;?"),
            "[?,?];[?];[?];[?];[?]");
  EXPECT_EQ(Infer("ParseExampleV2",
                  "num_sparse=0, sparse_types=[], Tdense=[], dense_shapes=[], "
                  "ragged_value_types=[DT_INT64], ragged_split_types=[DT_INT32]",
                  "[?];?;?;?;?"),
            "[?];[?]");
  EXPECT_THAT(Infer("ParseExampleV2",
                    "num_sparse=0, sparse_types=[], Tdense=[], dense_shapes=[], "
                    "ragged_value_types=[], ragged_split_types=[]",
                    "[2,2];?;?;?;?"),
              IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("ParseExampleV2",
                    "num_sparse=0, sparse_types=[], Tdense=[], dense_shapes=[], "
                    "ragged_value_types=[], ragged_split_types=[]",
                    "[2];[2,2];?;?;?"),
              IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("ParseExampleV2",
                    "num_sparse=1, sparse_types=[], Tdense=[], dense_shapes=[], "
                    "ragged_value_types=[], ragged_split_types=[]",
                    "[2];?;?;?;?"),
              IsInvalidArgument("len(sparse_keys) != len(sparse_types)"));
  EXPECT_THAT(Infer("ParseExampleV2",
                    "num_sparse=0, sparse_types=[], Tdense=[DT_FLOAT], dense_shapes=[], "
                    "ragged_value_types=[], ragged_split_types=[]",
                    "[2];?;?;?;?;?"),
              IsInvalidArgument("len(dense_keys) != len(dense_shapes)"));
  EXPECT_THAT(Infer("ParseExampleV2",
                    "num_sparse=0, sparse_types=[], Tdense=[], dense_shapes=[], "
                    "ragged_value_types=[DT_FLOAT], ragged_split_types=[]",
                    "[2];?;?;?;?"),
              IsInvalidArgument("len(ragged_keys) != len(ragged_split_types)"));
}

TEST(ParseSingleExampleShapeTest, ScalarInput) {
  EXPECT_EQ(
      Infer("ParseSingleExample",
            "num_sparse=1, sparse_keys=['a'], dense_keys=['b', 'c'], "
            "sparse_types=[DT_STRING], Tdense=[DT_FLOAT, DT_INT64], dense_shapes=[[2,2], [?]]",
            "[];[4];[1]"),
      "[?,1];[?];[1];[2,2];[?]");
  EXPECT_THAT(Infer("ParseSingleExample",
                    "num_sparse=0, sparse_keys=[], dense_keys=['b'], sparse_types=[], "
                    "Tdense=[DT_FLOAT], dense_shapes=[[1]]",
                    "[1];[1]"),
              IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("ParseSingleExample",
                    "num_sparse=1, sparse_keys=['a'], dense_keys=[], sparse_types=[], Tdense=[], "
                    "dense_shapes=[]",
                    "[]"),
              IsInvalidArgument("len(sparse_keys) != len(sparse_types)"));
}

TEST(ParseTensorShapeTest, UnknownAndScalar) {
  EXPECT_EQ(Infer("ParseTensor", "out_type=DT_FLOAT", "[]"), "?");
  EXPECT_EQ(Infer("SerializeTensor", "T=DT_INT32", "[2,3]"), "[]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
