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

}  // namespace
}  // namespace ops_test
}  // namespace sluice
