#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(MatrixBandPartShapeTest, Unchanged) {
  EXPECT_EQ(Infer("MatrixBandPart", "T=DT_FLOAT", "[2,3,4];[];[]"), "[2,3,4]");
  EXPECT_EQ(Infer("MatrixBandPart", "T=DT_BOOL, Tindex=DT_INT32", "[?,5];?;?"), "[?,5]");
  EXPECT_EQ(Infer("MatrixBandPart", "T=DT_FLOAT", "?;[];[]"), "?");
  // As in TensorFlow, neither the rank nor the counts' shapes are checked here.
  EXPECT_EQ(Infer("MatrixBandPart", "T=DT_FLOAT", "[3];[1];[]"), "[3]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
