#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(RandomShapeTest, StatefulOutputShapeIsTheShapeInput) {
  EXPECT_EQ(Infer("RandomUniform", "dtype=DT_FLOAT, T=DT_INT32", "[2]", {{0, Ints({3, 4})}}),
            "[3,4]");
  EXPECT_EQ(Infer("RandomStandardNormal", "dtype=DT_HALF, T=DT_INT64", "[2]"), "[?,?]");
  EXPECT_EQ(Infer("TruncatedNormal", "dtype=DT_DOUBLE, T=DT_INT32", "[?]"), "?");
  EXPECT_EQ(Infer("RandomUniformInt", "Tout=DT_INT64, T=DT_INT32", "[1];[];[]", {{0, Ints({5})}}),
            "[5]");
  EXPECT_THAT(Infer("RandomUniformInt", "Tout=DT_INT64, T=DT_INT32", "[1];[2];[]"),
              IsInvalidArgument("must be rank 0"));
}

TEST(RandomShapeTest, StatelessSeedIsAPair) {
  EXPECT_EQ(Infer("StatelessRandomUniform", "", "[2];[2]", {{0, Ints({2, 5})}}), "[2,5]");
  EXPECT_EQ(Infer("StatelessRandomNormal", "", "[1];[?]"), "[?]");
  EXPECT_EQ(Infer("StatelessTruncatedNormal", "", "[3];?"), "[?,?,?]");
  EXPECT_THAT(Infer("StatelessRandomUniform", "", "[2];[3]"), IsInvalidArgument("must be 2"));
  EXPECT_THAT(Infer("StatelessRandomUniform", "", "[2];[2,2]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_EQ(Infer("StatelessRandomUniformFullInt", "", "[2];[2]", {{0, Ints({1, 1})}}), "[1,1]");
  EXPECT_EQ(Infer("StatelessRandomUniformInt", "dtype=DT_INT32, T=DT_INT32", "[1];[2];[];[]"),
            "[?]");
  EXPECT_THAT(Infer("StatelessRandomUniformInt", "dtype=DT_INT32, T=DT_INT32", "[1];[2];[1];[]"),
              IsInvalidArgument("minval must be a scalar"));
  EXPECT_THAT(Infer("StatelessRandomUniformInt", "dtype=DT_INT32, T=DT_INT32", "[1];[2];[];[2]"),
              IsInvalidArgument("maxval must be a scalar"));
}

TEST(RandomShapeTest, KeyCounterAlg) {
  EXPECT_EQ(Infer("StatelessRandomUniformV2", "", "[2];[1];[2];[]", {{0, Ints({4, 3})}}), "[4,3]");
  EXPECT_EQ(Infer("StatelessRandomNormalV2", "", "[1];[?];[?];[]"), "[?]");
  EXPECT_THAT(Infer("StatelessTruncatedNormalV2", "", "[1];[2];[2];[]"),
              IsInvalidArgument("must be 1"));
  EXPECT_THAT(Infer("StatelessRandomUniformV2", "", "[1];[1];[2];[1]"),
              IsInvalidArgument("must be rank 0"));
  EXPECT_THAT(Infer("StatelessRandomUniformV2", "", "[1];[1];[2,2];[]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_EQ(Infer("StatelessRandomUniformFullIntV2", "", "[1];[1];[2];[]"), "[?]");
  EXPECT_EQ(Infer("StatelessRandomUniformIntV2", "dtype=DT_INT64", "[1];[1];[2];[];[];[]"), "[?]");
  EXPECT_THAT(Infer("StatelessRandomUniformIntV2", "dtype=DT_INT64", "[1];[1];[2];[];[3];[]"),
              IsInvalidArgument("minval must be a scalar"));
}

TEST(RandomShapeTest, MultinomialIsBatchBySamples) {
  EXPECT_EQ(Infer("Multinomial", "T=DT_FLOAT", "[3,10];[]", {{1, Int(7)}}), "[3,7]");
  EXPECT_EQ(Infer("Multinomial", "T=DT_DOUBLE", "[?,10];[]"), "[?,?]");
  EXPECT_THAT(Infer("Multinomial", "T=DT_FLOAT", "[10];[]"), IsInvalidArgument("must be rank 2"));
  EXPECT_EQ(Infer("StatelessMultinomial", "T=DT_HALF", "[2,5];[];[2]", {{1, Int(4)}}), "[2,4]");
  EXPECT_THAT(Infer("StatelessMultinomial", "T=DT_HALF", "[2,5];[];[3]"),
              IsInvalidArgument("must be 2"));
  EXPECT_EQ(Infer("RandomShuffle", "T=DT_STRING", "[4,?]"), "[4,?]");
}

TEST(RandomShapeTest, SeedToKeyCounter) {
  EXPECT_EQ(Infer("StatelessRandomGetKeyCounter", "", "[2]"), "[1];[2]");
  EXPECT_EQ(Infer("StatelessRandomGetKeyCounterAlg", "Tseed=DT_INT32", "[?]"), "[1];[2];[]");
  EXPECT_THAT(Infer("StatelessRandomGetKeyCounter", "", "[3]"), IsInvalidArgument("must be 2"));
  EXPECT_EQ(Infer("StatelessRandomGetAlg", "", ""), "[]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
