#include "io/crc32c.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace crc32c {
namespace {

uint32_t Portable(const std::string& s) { return ExtendPortable(0, s.data(), s.size()); }

TEST(Crc32cTest, StandardCheckValue) {
  EXPECT_EQ(Value("123456789", 9), 0xE3069283u);
  EXPECT_EQ(Portable("123456789"), 0xE3069283u);
}

// Test vectors of RFC 3720 (iSCSI), appendix B.4.
TEST(Crc32cTest, Rfc3720Vectors) {
  EXPECT_EQ(Portable(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(Portable(std::string(32, '\xff')), 0x62A8AB43u);
  std::string ascending, descending;
  for (int i = 0; i < 32; ++i) {
    ascending.push_back(static_cast<char>(i));
    descending.push_back(static_cast<char>(31 - i));
  }
  EXPECT_EQ(Portable(ascending), 0x46DD794Eu);
  EXPECT_EQ(Portable(descending), 0x113FDB5Cu);
  EXPECT_EQ(Value(ascending.data(), ascending.size()), 0x46DD794Eu);
}

TEST(Crc32cTest, EmptyIsZero) {
  EXPECT_EQ(Value("", 0), 0u);
  EXPECT_EQ(Extend(0x12345678u, "", 0), 0x12345678u);
}

TEST(Crc32cTest, ExtendConcatenates) {
  const std::string text = "hello, TFRecord world: some bytes to split in every place";
  const uint32_t whole = Value(text.data(), text.size());
  for (size_t split = 0; split <= text.size(); ++split) {
    EXPECT_EQ(Extend(Value(text.data(), split), text.data() + split, text.size() - split), whole)
        << split;
  }
}

TEST(Crc32cTest, HardwareAndPortableAgree) {
  if (!HardwareAvailable()) GTEST_SKIP() << "no SSE4.2 on this CPU";
  std::string bytes;
  uint32_t x = 12345;
  for (int i = 0; i < 1000; ++i) {
    x = x * 1103515245u + 12345u;
    bytes.push_back(static_cast<char>(x >> 24));
  }
  // Every length and alignment up to 64, and the whole buffer.
  for (size_t start = 0; start < 8; ++start) {
    for (size_t n = 0; n < 64; ++n) {
      EXPECT_EQ(ExtendHardware(0xDEADBEEFu, bytes.data() + start, n),
                ExtendPortable(0xDEADBEEFu, bytes.data() + start, n))
          << start << " " << n;
    }
  }
  EXPECT_EQ(ExtendHardware(0, bytes.data(), bytes.size()),
            ExtendPortable(0, bytes.data(), bytes.size()));
}

TEST(Crc32cTest, MaskIsTensorFlows) {
  // ((crc >> 15) | (crc << 17)) + 0xa282ead8, and back.
  EXPECT_EQ(Mask(0), 0xa282ead8u);
  EXPECT_EQ(Mask(0xE3069283u), ((0xE3069283u >> 15) | (0xE3069283u << 17)) + 0xa282ead8u);
  for (uint32_t crc : {0u, 1u, 0x80000000u, 0xFFFFFFFFu, 0xE3069283u, 0x12345678u}) {
    EXPECT_EQ(Unmask(Mask(crc)), crc);
  }
}

}  // namespace
}  // namespace crc32c
}  // namespace sluice
