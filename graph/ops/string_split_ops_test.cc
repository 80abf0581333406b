#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(StringSplitShapeTest, SparseTriple) {
  EXPECT_EQ(Infer("StringSplit", "", "[3];[]"), "[?,2];[?];[2]");
  EXPECT_EQ(Infer("StringSplit", "skip_empty=false", "?;?"), "[?,2];[?];[2]");
  EXPECT_THAT(Infer("StringSplit", "", "[3,1];[]"), IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("StringSplit", "", "[3];[1]"), IsInvalidArgument("rank"));
}

TEST(StringSplitV2ShapeTest, SparseTriple) {
  EXPECT_EQ(Infer("StringSplitV2", "", "[?];[]"), "[?,2];[?];[2]");
  EXPECT_EQ(Infer("StringSplitV2", "maxsplit=2", "?;[]"), "[?,2];[?];[2]");
  EXPECT_THAT(Infer("StringSplitV2", "", "[];[]"), IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("StringSplitV2", "", "[2];[2]"), IsInvalidArgument("rank"));
}

constexpr char kNGrams[] =
    "separator=' ', ngram_widths=[2], left_pad='', right_pad='', pad_width=0, "
    "preserve_short_sequences=false";

TEST(StringNGramsShapeTest, RaggedVectors) {
  EXPECT_EQ(Infer("StringNGrams", kNGrams, "[5];[3]"), "[?];[3]");
  EXPECT_EQ(Infer("StringNGrams", kNGrams, "?;?"), "[?];[?]");
  EXPECT_THAT(Infer("StringNGrams", kNGrams, "[5,1];[3]"), IsInvalidArgument("rank"));
  EXPECT_THAT(Infer("StringNGrams", kNGrams, "[5];[]"), IsInvalidArgument("rank"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
