// The hashes against TensorFlow 2.21: StringToHashBucketFast, StringToHashBucketStrong (key
// {0x0123456789abcdef, -5}) and StringToHashBucket with num_buckets = 2^63 - 1, on strings of
// every length class of FarmHash (0, 1-3, 4-7, 8-16, 17-32, 33-64, longer, several blocks).
// FingerprintCat64 is checked through the SparseCross fixtures.
#include "kernels/cpu/strings/string_hash.h"

#include <cstdint>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace sluice {
namespace {

// Bytes (37 i + 11) mod 256, i = 0 .. n - 1: every byte value, high bit set or not.
std::string TestString(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s.push_back(static_cast<char>((i * 37 + 11) % 256));
  return s;
}

struct Expected {
  int length;
  uint64_t fingerprint;
  uint64_t siphash;
  uint64_t legacy;
};

constexpr Expected kExpected[] = {
    {0, 1936946117179621456ULL, 5133484985258436364ULL, 105434511174508092ULL},
    {1, 4787810249829893994ULL, 3722032104676853636ULL, 7448019622685415175ULL},
    {3, 3979540680440595841ULL, 5177641778587164785ULL, 4451342926364509015ULL},
    {4, 5484952793052507498ULL, 7252394380218651303ULL, 2482031997417307254ULL},
    {7, 1587581522672208246ULL, 4820093813096277855ULL, 4049594966191501358ULL},
    {8, 9029840561075318013ULL, 2051315388924722616ULL, 8066203101361768914ULL},
    {16, 6356347102450775255ULL, 1046772872930413064ULL, 12177752949176819ULL},
    {17, 6692022265393568454ULL, 7624006063568945158ULL, 6991173353226149463ULL},
    {32, 2320199202392403368ULL, 4357910130354382086ULL, 8314477378572212913ULL},
    {33, 257079882033485463ULL, 5101234701432790928ULL, 2134794039425605596ULL},
    {64, 4226431515964725ULL, 2463378159613377927ULL, 3674674100575824502ULL},
    {65, 8878297253747756471ULL, 7332120834797882715ULL, 7487376796382045552ULL},
    {128, 3742283891066476345ULL, 4090785124546740058ULL, 1377825795690944787ULL},
    {200, 5850749971184008558ULL, 1368185898386885688ULL, 7602901420118436468ULL},
    {1000, 5105906894712556021ULL, 8088376285926750990ULL, 3159395664595937056ULL},
};

constexpr uint64_t kBuckets = std::numeric_limits<int64_t>::max();

TEST(StringHashTest, MatchesTensorFlow) {
  const uint64_t key[2] = {0x0123456789abcdefULL, static_cast<uint64_t>(-5)};
  for (const Expected& e : kExpected) {
    const std::string s = TestString(e.length);
    EXPECT_EQ(Fingerprint64(s) % kBuckets, e.fingerprint) << "length " << e.length;
    EXPECT_EQ(SipHash24(key, s) % kBuckets, e.siphash) << "length " << e.length;
    EXPECT_EQ(LegacyHash64(s) % kBuckets, e.legacy) << "length " << e.length;
  }
}

TEST(StringHashTest, FingerprintCat64IsOrderSensitive) {
  EXPECT_NE(FingerprintCat64(1, 2), FingerprintCat64(2, 1));
  EXPECT_EQ(FingerprintCat64(7, 9), FingerprintCat64(7, 9));
}

}  // namespace
}  // namespace sluice
