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

}  // namespace
}  // namespace ops_test
}  // namespace sluice
