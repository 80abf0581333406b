#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

constexpr char kSplits[] =
    "T=DT_FLOAT, Tindex=DT_INT64, Tshape=DT_INT64, num_row_partition_tensors=1, "
    "row_partition_types=['ROW_SPLITS']";
constexpr char kRowIds[] =
    "T=DT_INT32, Tindex=DT_INT32, Tshape=DT_INT32, num_row_partition_tensors=2, "
    "row_partition_types=['FIRST_DIM_SIZE', 'VALUE_ROWIDS']";
constexpr char kTwoLevels[] =
    "T=DT_STRING, Tindex=DT_INT64, Tshape=DT_INT64, num_row_partition_tensors=2, "
    "row_partition_types=['ROW_SPLITS', 'ROW_SPLITS']";

TEST(RaggedTensorToTensorShapeTest, FromValuesAndShape) {
  EXPECT_EQ(Infer("RaggedTensorToTensor", kSplits, "[];[?];[];[?]", {{0, Int64(-1)}}), "[?,?]");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kSplits, "[2];[?];[];[?]", {{0, Int64s({3, 5})}}),
            "[3,5]");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kSplits, "[2];[?];[];[?]", {{0, Int64s({-1, 5})}}),
            "[?,5]");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kSplits, "[];[?,4];[4];[?]", {{0, Int64(-1)}}),
            "[?,?,4]");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kSplits, "[3];[?,4];[];[?]", {{0, Int64s({2, -1, -1})}}),
            "[2,?,4]");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kRowIds, "[];[?];[];[];[?]", {{0, Int(-1)}}), "[?,?]");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kTwoLevels, "[];[?];[];[?];[?]", {{0, Int64(-1)}}),
            "[?,?,?]");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kSplits, "[];?;?;[?]", {{0, Int64(-1)}}), "?");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kSplits, "[2];?;[];[?]", {{0, Int64s({2, 3})}}), "[2,3]");
  EXPECT_EQ(Infer("RaggedTensorToTensor", kSplits, "[2];[?];[];[?]"), "[?,?]");
}

TEST(RaggedTensorToTensorShapeTest, Errors) {
  EXPECT_THAT(Infer("RaggedTensorToTensor", kSplits, "[3];[?];[];[?]", {{0, Int64s({2, 2, 2})}}),
              IsInvalidArgument("are incompatible: rt_input.rank = 2 but shape.rank = 3"));
  EXPECT_THAT(Infer("RaggedTensorToTensor", kSplits, "[3];[?,2];[];[?]", {{0, Int64s({3, 3, 3})}}),
              IsInvalidArgument("rt_input.shape[2] = 2 but shape[2] = 3"));
  EXPECT_THAT(Infer("RaggedTensorToTensor", kSplits, "[];[?,2];[3];[?]", {{0, Int64(-1)}}),
              IsInvalidArgument("default_value.shape[-1] = 3 but rt_input.flat_values.shape[-1]"));
  EXPECT_THAT(Infer("RaggedTensorToTensor", kSplits, "[];[?,2];[1,2];[?]", {{0, Int64(-1)}}),
              IsInvalidArgument("must be less than rt_input.flat_values.rank = 2"));
  EXPECT_THAT(Infer("RaggedTensorToTensor",
                    "T=DT_FLOAT, Tindex=DT_INT64, Tshape=DT_INT64, num_row_partition_tensors=1, "
                    "row_partition_types=['FOO']",
                    "[];[?];[];[?]", {{0, Int64(-1)}}),
              IsInvalidArgument("Unknown string for partition info type: FOO"));
  EXPECT_THAT(Infer("RaggedTensorToTensor",
                    "T=DT_FLOAT, Tindex=DT_INT64, Tshape=DT_INT64, num_row_partition_tensors=2, "
                    "row_partition_types=['ROW_SPLITS']",
                    "[];[?];[];[?];[?]", {{0, Int64(-1)}}),
              IsInvalidArgument("Number of row partition tensors (2) does not equal"));
  EXPECT_THAT(Infer("RaggedTensorToTensor",
                    "T=DT_FLOAT, Tindex=DT_INT64, Tshape=DT_INT64, num_row_partition_tensors=1, "
                    "row_partition_types=['VALUE_ROWIDS']",
                    "[];[?];[];[?]", {{0, Int64(-1)}}),
              IsInvalidArgument("VALUE_ROWIDS cannot be first"));
  EXPECT_THAT(Infer("RaggedTensorToTensor",
                    "T=DT_FLOAT, Tindex=DT_INT64, Tshape=DT_INT64, num_row_partition_tensors=2, "
                    "row_partition_types=['FIRST_DIM_SIZE', 'ROW_SPLITS']",
                    "[];[?];[];[];[?]", {{0, Int64(-1)}}),
              IsInvalidArgument("FIRST_DIM_SIZE must be followed by VALUE_ROWIDS"));
  EXPECT_THAT(Infer("RaggedTensorToTensor",
                    "T=DT_FLOAT, Tindex=DT_INT64, Tshape=DT_INT64, num_row_partition_tensors=2, "
                    "row_partition_types=['ROW_SPLITS', 'FIRST_DIM_SIZE']",
                    "[];[?];[];[?];[]", {{0, Int64(-1)}}),
              IsInvalidArgument("FIRST_DIM_SIZE must be first"));
  EXPECT_THAT(Infer("RaggedTensorToTensor", kRowIds, "[];[?];[];[1];[?]", {{0, Int(-1)}}),
              IsInvalidArgument("FIRST_DIM_SIZE must be a scalar."));
  EXPECT_THAT(Infer("RaggedTensorToTensor", kSplits, "[];[?];[];[1,3]", {{0, Int64(-1)}}),
              IsInvalidArgument("Row partition must be a vector."));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
