#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(StringJoinShapeTest, ScalarsAndMerge) {
  EXPECT_EQ(Infer("StringJoin", "N=2", "[];[]"), "[]");
  EXPECT_EQ(Infer("StringJoin", "N=0", ""), "[]");
  EXPECT_EQ(Infer("StringJoin", "N=2", "[];[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("StringJoin", "N=3", "[?,3];[];[2,?]"), "[2,3]");
  EXPECT_EQ(Infer("StringJoin", "N=2", "?;[]"), "?");
  EXPECT_EQ(Infer("StringJoin", "N=2, separator=' '", "?;[4]"), "[4]");
  EXPECT_THAT(Infer("StringJoin", "N=2", "[2];[3]"), IsInvalidArgument("must be equal"));
  EXPECT_THAT(Infer("StringJoin", "N=2", "[2];[2,1]"), IsInvalidArgument("rank"));
}

TEST(ReduceJoinShapeTest, Reduction) {
  EXPECT_EQ(Infer("ReduceJoin", "", "[2,3];[1]", {{1, Ints({1})}}), "[2]");
  EXPECT_EQ(Infer("ReduceJoin", "keep_dims=true", "[2,3];[1]", {{1, Ints({-2})}}), "[1,3]");
  EXPECT_EQ(Infer("ReduceJoin", "", "[2,3];[2]", {{1, Ints({0, 1})}}), "[]");
  EXPECT_EQ(Infer("ReduceJoin", "", "[2,3];[0]", {{1, Ints({})}}), "[2,3]");
  EXPECT_EQ(Infer("ReduceJoin", "", "[2,3];[1]"), "?");
  EXPECT_EQ(Infer("ReduceJoin", "keep_dims=true", "[2,3];[1]"), "[?,?]");
  EXPECT_THAT(Infer("ReduceJoin", "", "[2,3];[1]", {{1, Ints({2})}}),
              IsInvalidArgument("Invalid reduction dimension"));
}

TEST(StringTransformShapeTest, Unchanged) {
  EXPECT_EQ(Infer("StringLower", "", "[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("StringUpper", "encoding='utf-8'", "?"), "?");
  EXPECT_EQ(Infer("StringLength", "unit='UTF8_CHAR'", "[3]"), "[3]");
  EXPECT_EQ(Infer("StringStrip", "", "[]"), "[]");
  EXPECT_EQ(Infer("StringToNumber", "out_type=DT_INT64", "[4,5]"), "[4,5]");
  EXPECT_EQ(Infer("EncodeBase64", "pad=true", "[1]"), "[1]");
  EXPECT_EQ(Infer("DecodeBase64", "", "[?]"), "[?]");
  EXPECT_EQ(Infer("StaticRegexReplace", "pattern='a', rewrite='b'", "[2]"), "[2]");
  EXPECT_EQ(Infer("StaticRegexFullMatch", "pattern='a'", "[2,2]"), "[2,2]");
}

TEST(SubstrShapeTest, BroadcastsInputAndPos) {
  EXPECT_EQ(Infer("Substr", "T=DT_INT32", "[3];[3];[3]"), "[3]");
  EXPECT_EQ(Infer("Substr", "T=DT_INT32", "[3];[];[]"), "[3]");
  EXPECT_EQ(Infer("Substr", "T=DT_INT64", "[2,1];[3];[3]"), "[2,3]");
  EXPECT_EQ(Infer("Substr", "T=DT_INT32, unit='UTF8_CHAR'", "?;[3];[3]"), "?");
  EXPECT_EQ(Infer("Substr", "T=DT_INT32", "[3];?;[3]"), "?");
  // An unknown len against a known pos: its dims are unknown, so they do not match.
  EXPECT_THAT(Infer("Substr", "T=DT_INT32", "[3];[3];?"),
              IsInvalidArgument("pos and len shapes must match"));
  EXPECT_THAT(Infer("Substr", "T=DT_INT32", "[3];[3];[2]"),
              IsInvalidArgument("pos and len shapes must match"));
  EXPECT_THAT(Infer("Substr", "T=DT_INT32", "[3];[?];[3]"),
              IsInvalidArgument("pos and len shapes must match"));
  EXPECT_THAT(Infer("Substr", "T=DT_INT32", "[3];[];[3]"), IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("Substr", "T=DT_INT32", "[3];[2];[2]"), IsInvalidArgument("must be equal"));
}

TEST(RegexShapeTest, ScalarPatterns) {
  EXPECT_EQ(Infer("RegexReplace", "", "[2,3];[];[]"), "[2,3]");
  EXPECT_EQ(Infer("RegexReplace", "replace_global=false", "?;?;?"), "?");
  EXPECT_THAT(Infer("RegexReplace", "", "[2];[1];[]"), IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("RegexReplace", "", "[2];[];[1]"), IsInvalidArgument("rank"));
  EXPECT_EQ(Infer("RegexFullMatch", "", "[4];[]"), "[4]");
  EXPECT_THAT(Infer("RegexFullMatch", "", "[4];[2]"), IsInvalidArgument("rank"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
