#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(AssertShapeTest, NoOutputs) {
  EXPECT_EQ(Infer("Assert", "T=[DT_FLOAT, DT_INT32]", "[];[2];[3]"), "");
}

TEST(PrintShapeTest, ForwardsItsInput) {
  EXPECT_EQ(Infer("Print", "T=DT_FLOAT, U=[DT_INT32]", "[2,?];[3]"), "[2,?]");
  EXPECT_EQ(Infer("Print", "T=DT_INT64, U=[]", "?"), "?");
}

TEST(PrintV2ShapeTest, ScalarInput) {
  EXPECT_EQ(Infer("PrintV2", "", "[]"), "");
  EXPECT_EQ(Infer("PrintV2", "output_stream='stdout'", "?"), "");
  EXPECT_THAT(Infer("PrintV2", "", "[2]"),
              IsInvalidArgument("input must be a scalar, but has rank: 1"));
}

TEST(StringFormatShapeTest, OneInputPerPlaceholder) {
  EXPECT_EQ(Infer("StringFormat", "T=[DT_FLOAT, DT_INT32], template='x: %s, y: %s'", "[2];?"),
            "[]");
  EXPECT_EQ(Infer("StringFormat", "T=[], template='no placeholders'", ""), "[]");
  EXPECT_EQ(Infer("StringFormat", "T=[DT_FLOAT], template='a {} b', placeholder='{}'", "[3]"),
            "[]");
  EXPECT_THAT(Infer("StringFormat", "T=[DT_FLOAT], template='%s and %s'", "[2]"),
              IsInvalidArgument("num placeholders in template and num inputs must match: 2 vs. 1"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
