#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(UnicodeDecodeShapeTest, OneRowPerString) {
  EXPECT_EQ(Infer("UnicodeDecode", "input_encoding='UTF-8'", "[3]"), "[4];[?]");
  EXPECT_EQ(Infer("UnicodeDecode", "input_encoding='UTF-8'", "[]"), "[2];[?]");
  EXPECT_EQ(Infer("UnicodeDecode", "input_encoding='UTF-8', Tsplits=DT_INT32", "[2,3]"), "[7];[?]");
  EXPECT_EQ(Infer("UnicodeDecode", "input_encoding='UTF-8'", "[0,5]"), "[1];[?]");
  EXPECT_EQ(Infer("UnicodeDecode", "input_encoding='UTF-8'", "[2,?]"), "[?];[?]");
  EXPECT_EQ(Infer("UnicodeDecode", "input_encoding='UTF-8'", "?"), "[?];[?]");
}

TEST(UnicodeDecodeWithOffsetsShapeTest, OffsetsLikeCharValues) {
  EXPECT_EQ(Infer("UnicodeDecodeWithOffsets", "input_encoding='UTF-16-BE'", "[5]"), "[6];[?];[?]");
  EXPECT_EQ(Infer("UnicodeDecodeWithOffsets", "input_encoding='UTF-8'", "[2,2,2]"), "[9];[?];[?]");
  EXPECT_EQ(Infer("UnicodeDecodeWithOffsets", "input_encoding='UTF-8'", "?"), "[?];[?];[?]");
}

TEST(UnicodeEncodeShapeTest, OneStringPerRow) {
  EXPECT_EQ(Infer("UnicodeEncode", "output_encoding='UTF-8'", "[10];[4]"), "[3]");
  EXPECT_EQ(Infer("UnicodeEncode", "output_encoding='UTF-32-BE', Tsplits=DT_INT32", "[?];[1]"),
            "[0]");
  EXPECT_EQ(Infer("UnicodeEncode", "output_encoding='UTF-8'", "?;?"), "[?]");
  EXPECT_EQ(Infer("UnicodeEncode", "output_encoding='UTF-8'", "[3];[?]"), "[?]");
  EXPECT_THAT(Infer("UnicodeEncode", "output_encoding='UTF-8'", "[2,3];[3]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("UnicodeEncode", "output_encoding='UTF-8'", "[3];[]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("UnicodeEncode", "output_encoding='UTF-8'", "[0];[0]"),
              IsInvalidArgument("Negative dimension size"));
}

TEST(UnicodeTranscodeShapeTest, Unchanged) {
  EXPECT_EQ(
      Infer("UnicodeTranscode", "input_encoding='latin1', output_encoding='UTF-16-BE'", "[2,?]"),
      "[2,?]");
  EXPECT_EQ(Infer("UnicodeTranscode", "input_encoding='UTF-8', output_encoding='UTF-8'", "[]"),
            "[]");
  EXPECT_EQ(Infer("UnicodeTranscode", "input_encoding='UTF-8', output_encoding='UTF-8'", "?"), "?");
}

TEST(UnicodeScriptShapeTest, Unchanged) {
  EXPECT_EQ(Infer("UnicodeScript", "", "[4,5]"), "[4,5]");
  EXPECT_EQ(Infer("UnicodeScript", "", "[]"), "[]");
  EXPECT_EQ(Infer("UnicodeScript", "", "?"), "?");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
