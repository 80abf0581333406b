#include "tools/board/json_value.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"

namespace sluice {
namespace board {
namespace {

TEST(JsonValueTest, ReadsEveryType) {
  absl::StatusOr<JsonValue> doc = ParseJson(
      R"( {"s": "a\"b\\c\u00e9\ud83d\ude00", "n": -1.5e2, "i": 9007199254740993,
           "t": true, "f": false, "z": null, "a": [1, [2], {}], "o": {"k": "v"}} )");
  ASSERT_TRUE(doc.ok()) << doc.status();
  std::string s;
  ASSERT_TRUE(doc->Find("s").AsString(&s));
  EXPECT_EQ(s, "a\"b\\c\xC3\xA9\xF0\x9F\x98\x80");
  double n = 0;
  ASSERT_TRUE(doc->Find("n").AsDouble(&n));
  EXPECT_EQ(n, -150);
  int64_t i = 0;
  ASSERT_TRUE(doc->Find("i").AsInt64(&i));
  EXPECT_EQ(i, 9007199254740993);  // beyond a double's exact integers
  bool t = false, f = true;
  ASSERT_TRUE(doc->Find("t").AsBool(&t));
  ASSERT_TRUE(doc->Find("f").AsBool(&f));
  EXPECT_TRUE(t);
  EXPECT_FALSE(f);
  EXPECT_TRUE(doc->Find("z").is_null());
  ASSERT_EQ(doc->Find("a").elements().size(), 3u);
  EXPECT_EQ(doc->Find("a").elements()[1].elements().size(), 1u);
  EXPECT_EQ(doc->Find("a").elements()[2].type(), JsonValue::Type::kObject);
  ASSERT_TRUE(doc->Find("o").Find("k").AsString(&s));
  EXPECT_EQ(s, "v");
}

TEST(JsonValueTest, WrongTypesReadAsMissing) {
  absl::StatusOr<JsonValue> doc = ParseJson(R"({"n": 1.5, "s": "x", "k": 1, "k": 2})");
  ASSERT_TRUE(doc.ok());
  int64_t i = 7;
  EXPECT_FALSE(doc->Find("n").AsInt64(&i));  // a fraction is not an integer
  EXPECT_FALSE(doc->Find("s").AsInt64(&i));
  EXPECT_EQ(i, 7);
  EXPECT_TRUE(doc->Find("absent").is_null());
  EXPECT_TRUE(doc->Find("s").Find("deeper").is_null());
  EXPECT_TRUE(doc->Find("s").elements().empty());
  ASSERT_TRUE(doc->Find("k").AsInt64(&i));
  EXPECT_EQ(i, 1);  // the first of repeated keys
}

TEST(JsonValueTest, RejectsMalformedTextNamingTheOffset) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"", "unexpected end of text at byte 0"},
      {"{\"a\" 1}", "expected ':' at byte 5"},
      {"[1 2]", "expected ',' or ']' at byte 3"},
      {"[1,]", "expected a value at byte 3"},
      {"{\"a\":1,}", "expected a member name at byte 7"},
      {"01", "unexpected text after the document at byte 1"},
      {"-", "expected digits at byte 1"},
      {"1.", "expected digits after '.' at byte 2"},
      {"1e", "expected exponent digits at byte 2"},
      {"\"abc", "unterminated string"},
      {"\"a\nb\"", "control character in string at byte 2"},
      {"\"\\x\"", "bad escape at byte 3"},
      {"\"\\u12x4\"", "bad hex digit"},
      {"\"\\u12\"", "truncated \\u escape"},
      {"\"\\ud800\"", "high surrogate without its low half"},
      {"\"\\udc00\"", "lone low surrogate"},
      {"nul", "expected a value at byte 0"},
      {"{} x", "unexpected text after the document at byte 3"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<JsonValue> doc = ParseJson(c.text);
    ASSERT_FALSE(doc.ok()) << c.text;
    EXPECT_EQ(doc.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(doc.status().message().find(c.message), absl::string_view::npos)
        << c.text << ": " << doc.status();
  }
}

TEST(JsonValueTest, RefusesDeepNestingWithoutRecursingFurther) {
  std::string deep(100000, '[');
  absl::StatusOr<JsonValue> doc = ParseJson(deep);
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.status().message().find("nesting deeper than 64 levels"), absl::string_view::npos);
  std::string fine = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(ParseJson(fine).ok());
}

}  // namespace
}  // namespace board
}  // namespace sluice
