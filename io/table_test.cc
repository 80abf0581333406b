#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "io/crc32c.h"
#include "io/table_builder.h"
#include "io/table_format.h"
#include "io/table_reader.h"
#include "io/tensor_bundle_test_util.h"

namespace sluice {
namespace table {
namespace {

using test::BundleTestdata;
using test::ReadFileBytes;

std::vector<std::pair<std::string, std::string>> Entries(const TableReader& reader) {
  std::vector<std::pair<std::string, std::string>> out;
  EXPECT_TRUE(reader
                  .ForEach([&](absl::string_view k, absl::string_view v) {
                    out.emplace_back(std::string(k), std::string(v));
                    return absl::OkStatus();
                  })
                  .ok());
  return out;
}

TEST(TableFormatTest, Varints) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128}, uint64_t{300},
                     uint64_t{0xffffffff}, uint64_t{0x100000000}, ~uint64_t{0}}) {
    std::string s;
    PutVarint64(&s, v);
    absl::string_view in(s);
    uint64_t got = 0;
    ASSERT_TRUE(GetVarint64(&in, &got)) << v;
    EXPECT_EQ(got, v);
    EXPECT_TRUE(in.empty());
    // Every proper prefix is refused and leaves the input as it was.
    for (size_t n = 0; n < s.size(); ++n) {
      absl::string_view part(s.data(), n);
      EXPECT_FALSE(GetVarint64(&part, &got));
      EXPECT_EQ(part.size(), n);
    }
    absl::string_view in32(s);
    uint32_t got32 = 0;
    EXPECT_EQ(GetVarint32(&in32, &got32), v <= 0xffffffffu) << v;
  }
  // 11 bytes, and a 10th byte with more than one bit, do not fit 64 bits.
  std::string too_long(10, '\x80');
  too_long.push_back('\x01');
  absl::string_view in(too_long);
  uint64_t got = 0;
  EXPECT_FALSE(GetVarint64(&in, &got));
  std::string overflow(9, '\xff');
  overflow.push_back('\x02');
  in = overflow;
  EXPECT_FALSE(GetVarint64(&in, &got));
}

TEST(TableFormatTest, Separators) {
  std::string s = "abcdef";
  FindShortestSeparator(&s, "abzzz");
  EXPECT_EQ(s, "abd");
  s = "abc";
  FindShortestSeparator(&s, "abcde");  // a prefix: unchanged
  EXPECT_EQ(s, "abc");
  s = "abc";
  FindShortestSeparator(&s, "abd");  // c + 1 is not < d
  EXPECT_EQ(s, "abc");
  s = "\xff\xff"
      "a";
  FindShortSuccessor(&s);
  EXPECT_EQ(s,
            "\xff\xff"
            "b");
  s = "\xff\xff";
  FindShortSuccessor(&s);
  EXPECT_EQ(s, "\xff\xff");
}

// TensorFlow's many_keys index rebuilt entry by entry is the same file: two data blocks, a
// shortened separator, restarts every 16 keys.
TEST(TableTest, RebuildsTensorFlowsTableByteForByte) {
  const std::string path = BundleTestdata("many_keys.index");
  auto reader = TableReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->num_blocks(), 2u);
  const auto entries = Entries(**reader);
  ASSERT_EQ(entries.size(), static_cast<size_t>(test::kManyKeysCount + 1));
  EXPECT_EQ(entries[0].first, "");
  EXPECT_EQ(entries[1].first, test::ManyKeysKey(0));
  TableBuilder builder;
  for (const auto& e : entries) builder.Add(e.first, e.second);
  EXPECT_EQ(builder.Finish(), ReadFileBytes(path));
}

TEST(TableTest, GetAndSeekAcrossSmallBlocks) {
  TableBuilder builder(/*block_size=*/100, /*restart_interval=*/3);
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) keys.push_back(absl::StrCat("key", 1000 + 2 * i));
  for (const auto& k : keys) builder.Add(k, "v" + k);
  auto reader = TableReader::FromBytes(builder.Finish(), "small");
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_GT((*reader)->num_blocks(), 20u);
  for (const auto& k : keys) {
    std::string v;
    ASSERT_TRUE((*reader)->Get(k, &v).ok()) << k;
    EXPECT_EQ(v, "v" + k);
  }
  std::string v, found;
  EXPECT_EQ((*reader)->Get("key1001", &v).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ((*reader)->Get("zzz", &v).code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE((*reader)->Seek("key1001", &found, &v).ok());
  EXPECT_EQ(found, "key1002");
  ASSERT_TRUE((*reader)->Seek("", &found, &v).ok());
  EXPECT_EQ(found, "key1000");
  EXPECT_EQ((*reader)->Seek("key9", &found, &v).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(Entries(**reader).size(), keys.size());
}

TEST(TableTest, EmptyTable) {
  TableBuilder builder;
  auto reader = TableReader::FromBytes(builder.Finish(), "empty");
  ASSERT_TRUE(reader.ok()) << reader.status();
  std::string k, v;
  EXPECT_EQ((*reader)->Seek("", &k, &v).code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(Entries(**reader).empty());
}

TEST(TableTest, MissingFile) {
  EXPECT_EQ(TableReader::Open("io/testdata/bundles/nothing.index").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(TableTest, SnappyBlockIsUnimplemented) {
  TableBuilder builder;
  builder.Add("a", "b");
  std::string bytes = builder.Finish();
  // The data block is first: its trailer follows its bytes. Mark it Snappy, fix the CRC.
  auto reader = TableReader::FromBytes(bytes, "t");
  ASSERT_TRUE(reader.ok());
  // Block: entry (3 varints + "a" + "b" = 5 bytes) + restart (4) + count (4) = 13 bytes.
  const size_t n = 13;
  bytes[n] = static_cast<char>(kSnappyCompression);
  uint32_t crc = crc32c::Value(bytes.data(), n + 1);
  std::string fixed;
  PutFixed32(&fixed, crc32c::Mask(crc));
  bytes.replace(n + 1, 4, fixed);
  reader = TableReader::FromBytes(bytes, "t");
  ASSERT_TRUE(reader.ok());
  std::string v;
  EXPECT_EQ((*reader)->Get("a", &v).code(), absl::StatusCode::kUnimplemented);
}

// Every truncation of a real index is DATA_LOSS, never a crash.
TEST(TableFuzzTest, EveryTruncation) {
  const std::string bytes = ReadFileBytes(BundleTestdata("all_dtypes.index"));
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto reader = TableReader::FromBytes(bytes.substr(0, n), "t");
    ASSERT_FALSE(reader.ok()) << n;
    EXPECT_EQ(reader.status().code(), absl::StatusCode::kDataLoss) << n << reader.status();
  }
}

// Each block of `bytes` (a table) as [offset, offset + size), from its index.
std::vector<BlockHandle> Blocks(const std::string& bytes) {
  const char* footer = bytes.data() + bytes.size() - kFooterLength;
  absl::string_view handles(footer, 2 * kMaxEncodedHandleLength);
  BlockHandle metaindex, index;
  EXPECT_TRUE(metaindex.DecodeFrom(&handles) && index.DecodeFrom(&handles));
  std::vector<BlockHandle> out = {metaindex, index};
  // The data blocks precede the metaindex block; all_dtypes has one.
  BlockHandle data;
  data.offset = 0;
  data.size = metaindex.offset - kBlockTrailerSize;
  out.push_back(data);
  return out;
}

// Reads everything a damaged table offers; any status is fine, a crash or an out-of-bounds
// read (under ASan) is not.
void Exercise(const std::string& bytes) {
  auto reader = TableReader::FromBytes(bytes, "t");
  if (!reader.ok()) {
    EXPECT_NE(reader.status().code(), absl::StatusCode::kOk);
    return;
  }
  (void)(*reader)->ForEach([](absl::string_view, absl::string_view) { return absl::OkStatus(); });
  std::string k, v;
  for (const char* key : {"", "bool", "float", "string", "zzz", "a/nested/name:0"}) {
    (void)(*reader)->Get(key, &v);
    (void)(*reader)->Seek(key, &k, &v);
  }
}

// Flips of every bit of every byte, with the block checksums fixed up afterwards so the
// block parser sees the damage rather than the checksum catching it.
TEST(TableFuzzTest, BitFlipsBehindValidChecksums) {
  const std::string bytes = ReadFileBytes(BundleTestdata("all_dtypes.index"));
  const std::vector<BlockHandle> blocks = Blocks(bytes);
  int flips = 0;
  for (size_t pos = 0; pos < bytes.size(); ++pos) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = bytes;
      damaged[pos] ^= static_cast<char>(1 << bit);
      Exercise(damaged);  // the checksum catches it, or the footer is damaged
      for (const BlockHandle& b : blocks) {
        if (pos >= b.offset && pos < b.offset + b.size) {
          const uint32_t crc = crc32c::Value(damaged.data() + b.offset, b.size + 1);
          std::string fixed;
          PutFixed32(&fixed, crc32c::Mask(crc));
          damaged.replace(b.offset + b.size + 1, 4, fixed);
          Exercise(damaged);
        }
      }
      ++flips;
    }
  }
  EXPECT_EQ(flips, static_cast<int>(bytes.size()) * 8);
}

}  // namespace
}  // namespace table
}  // namespace sluice
