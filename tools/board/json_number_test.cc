#include "tools/board/json_number.h"

#include <limits>

#include "gtest/gtest.h"

namespace sluice {
namespace board {
namespace {

TEST(JsonNumberTest, ShortestTextThatReadsBack) {
  EXPECT_EQ(JsonFloat(0.1f), "0.1");
  EXPECT_EQ(JsonNumber(0.1), "0.1");
  EXPECT_EQ(JsonNumber(0.1f), "0.10000000149011612");  // the float's exact double
  EXPECT_EQ(JsonNumber(-2), "-2");
  EXPECT_EQ(JsonNumber(1e300), "1e+300");
  EXPECT_EQ(JsonFloat(std::numeric_limits<float>::denorm_min()), "1e-45");
}

TEST(JsonNumberTest, NonFiniteValuesAreNamedStrings) {
  EXPECT_EQ(JsonNumber(std::numeric_limits<double>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(JsonNumber(std::numeric_limits<double>::infinity()), "\"Infinity\"");
  EXPECT_EQ(JsonFloat(-std::numeric_limits<float>::infinity()), "\"-Infinity\"");
}

}  // namespace
}  // namespace board
}  // namespace sluice
