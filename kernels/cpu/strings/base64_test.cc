#include "kernels/cpu/strings/base64.h"

#include <string>

#include "gtest/gtest.h"

namespace sluice {
namespace strings {
namespace {

std::string Encode(absl::string_view data, bool pad) {
  std::string out = "stale";
  WebSafeBase64Encode(data, pad, &out);
  return out;
}

TEST(Base64Test, EncodesWebSafe) {
  EXPECT_EQ(Encode("", true), "");
  EXPECT_EQ(Encode("a", false), "YQ");
  EXPECT_EQ(Encode("a", true), "YQ==");
  EXPECT_EQ(Encode("ab", true), "YWI=");
  EXPECT_EQ(Encode("abc", true), "YWJj");
  EXPECT_EQ(Encode("\xff\xfe\xfd", false), "__79");
  EXPECT_EQ(Encode(std::string("\0\0", 2), false), "AAA");
}

TEST(Base64Test, RoundTripsEveryByte) {
  std::string data;
  for (int i = 0; i < 256; ++i) data.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= data.size(); n += 37) {
    for (bool pad : {false, true}) {
      std::string decoded;
      ASSERT_TRUE(WebSafeBase64Decode(Encode(data.substr(0, n), pad), &decoded).ok());
      EXPECT_EQ(decoded, data.substr(0, n));
    }
  }
}

TEST(Base64Test, RejectsAsTensorFlowDoes) {
  std::string out;
  EXPECT_EQ(WebSafeBase64Decode("Y", &out).message(), "Base64 string length cannot be 1 modulo 4.");
  EXPECT_EQ(WebSafeBase64Decode("YWJjY", &out).message(),
            "Base64 string length cannot be 1 modulo 4.");
  EXPECT_EQ(WebSafeBase64Decode("+/8A", &out).message(), "Invalid character found in base64.");
  EXPECT_EQ(WebSafeBase64Decode("YQ=", &out).message(), "Invalid character found in base64.");
  EXPECT_EQ(WebSafeBase64Decode("YW=I", &out).message(), "Invalid character found in base64.");
  // A bad character in an earlier group is found before the length of the last is judged.
  EXPECT_EQ(WebSafeBase64Decode("+/8AY", &out).message(), "Invalid character found in base64.");
  // Unused low bits are not checked.
  ASSERT_TRUE(WebSafeBase64Decode("YR", &out).ok());
  EXPECT_EQ(out, "a");
}

}  // namespace
}  // namespace strings
}  // namespace sluice
