#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ImageEncodeShapeTest, PngKeepsTheBatchDims) {
  EXPECT_EQ(Infer("EncodePng", "", "[4,5,3]"), "[]");
  EXPECT_EQ(Infer("EncodePng", "T=DT_UINT16", "[2,7,4,5,3]"), "[2,7]");
  EXPECT_EQ(Infer("EncodePng", "", "[?,4,5,?]"), "[?]");
  EXPECT_EQ(Infer("EncodePng", "", "?"), "?");
  EXPECT_THAT(Infer("EncodePng", "", "[4,5]"), IsInvalidArgument("at least rank 3"));
}

TEST(ImageEncodeShapeTest, JpegTakesOneImage) {
  EXPECT_EQ(Infer("EncodeJpeg", "", "[4,5,3]"), "[]");
  EXPECT_EQ(Infer("EncodeJpeg", "", "?"), "[]");
  EXPECT_THAT(Infer("EncodeJpeg", "", "[1,4,5,3]"), IsInvalidArgument("must be rank 3"));
  EXPECT_EQ(Infer("EncodeJpegVariableQuality", "", "[4,5,1];[]"), "[]");
  EXPECT_EQ(Infer("EncodeJpegVariableQuality", "", "[4,5,1];[3]"), "[]");
  EXPECT_THAT(Infer("EncodeJpegVariableQuality", "", "[5,1];[]"),
              IsInvalidArgument("must be rank 3"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
