#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(ImageDecodeShapeTest, ChannelsFromTheAttr) {
  EXPECT_EQ(Infer("DecodeJpeg", "", "[]"), "[?,?,?]");
  EXPECT_EQ(Infer("DecodeJpeg", "channels=3", "[]"), "[?,?,3]");
  EXPECT_EQ(Infer("DecodePng", "channels=4, dtype=DT_UINT16", "?"), "[?,?,4]");
  EXPECT_THAT(Infer("DecodePng", "", "[2]"), IsInvalidArgument("must be rank 0"));
  EXPECT_THAT(Infer("DecodeJpeg", "channels=-1", "[]"),
              IsInvalidArgument("channels must be non-negative"));
}

TEST(ImageDecodeShapeTest, BmpAndGif) {
  EXPECT_EQ(Infer("DecodeBmp", "", "[]"), "[?,?,?]");
  EXPECT_EQ(Infer("DecodeBmp", "channels=4", "?"), "[?,?,4]");
  EXPECT_THAT(Infer("DecodeBmp", "", "[3]"), IsInvalidArgument("must be rank 0"));
  EXPECT_EQ(Infer("DecodeGif", "", "[]"), "[?,?,?,3]");
  EXPECT_THAT(Infer("DecodeGif", "", "[1]"), IsInvalidArgument("must be rank 0"));
}

TEST(ImageDecodeShapeTest, DecodeImageIsUnknownWhenAnimationsExpand) {
  EXPECT_EQ(Infer("DecodeImage", "", "[]"), "?");
  EXPECT_EQ(Infer("DecodeImage", "channels=1, expand_animations=false", "[]"), "[?,?,1]");
  EXPECT_THAT(Infer("DecodeImage", "", "[1]"), IsInvalidArgument("must be rank 0"));
}

TEST(ImageDecodeShapeTest, CropWindowGivesHeightAndWidth) {
  EXPECT_EQ(Infer("DecodeAndCropJpeg", "channels=3", "[];[4]", {{1, Ints({1, 2, 10, 20})}}),
            "[10,20,3]");
  EXPECT_EQ(Infer("DecodeAndCropJpeg", "", "[];[4]"), "[?,?,?]");
}

TEST(ImageDecodeShapeTest, JpegShapeIsAVectorOfThree) {
  EXPECT_EQ(Infer("ExtractJpegShape", "", "[]"), "[3]");
  EXPECT_EQ(Infer("ExtractJpegShape", "output_type=DT_INT64", "?"), "[3]");
  EXPECT_THAT(Infer("ExtractJpegShape", "", "[1]"), IsInvalidArgument("must be rank 0"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
